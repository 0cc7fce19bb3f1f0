package testcluster

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// etcd is reached through its gRPC gateway: JSON over HTTP on the client
// URL, so that no etcd client module is needed.

// etcdHealthy succeeds when etcd's /health reports healthy.
func (c *Cluster) etcdHealthy(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.etcdURL+"/health", nil)
	if err != nil {
		return err
	}
	resp, err := c.etcdHTTP.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var health struct {
		Health string `json:"health"`
		Reason string `json:"reason"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&health); err != nil {
		return fmt.Errorf("/health: %s: %w", resp.Status, err)
	}
	if resp.StatusCode != http.StatusOK || health.Health != "true" {
		return fmt.Errorf("/health: %s: health %q %s", resp.Status, health.Health, health.Reason)
	}
	return nil
}

// etcdCall posts the JSON of in to path (a gRPC gateway endpoint such as
// /v3/kv/range) and decodes the answer into out.
func (c *Cluster) etcdCall(ctx context.Context, path string, in, out any) error {
	body, err := json.Marshal(in)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.etcdURL+path, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.etcdHTTP.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		var status struct {
			Message string `json:"message"`
			Error   string `json:"error"`
		}
		_ = json.Unmarshal(data, &status)
		msg := status.Message
		if msg == "" {
			msg = status.Error
		}
		if msg == "" {
			msg = strings.TrimSpace(string(data))
		}
		return &etcdError{status: resp.Status, message: msg}
	}
	return json.Unmarshal(data, out)
}

// etcdError is an error answer of etcd's gRPC gateway.
type etcdError struct{ status, message string }

func (e *etcdError) Error() string { return e.status + ": " + e.message }

// int64String is an int64 that the gateway writes as a JSON string, as
// protobuf's JSON mapping does (a plain number is accepted too).
type int64String int64

func (n *int64String) UnmarshalJSON(data []byte) error {
	v, err := strconv.ParseInt(strings.Trim(string(data), `"`), 10, 64)
	if err != nil {
		return fmt.Errorf("revision %s: %w", data, err)
	}
	*n = int64String(v)
	return nil
}

// etcdRevision returns etcd's current revision, the header revision of a
// count-only range request.
func (c *Cluster) etcdRevision(ctx context.Context) (int64, error) {
	var resp struct {
		Header struct {
			Revision int64String `json:"revision"`
		} `json:"header"`
	}
	// Keys are bytes, base64 in JSON; the range is the whole key space
	// ("\x00" to "\x00"), counted, not read.
	zero := base64.StdEncoding.EncodeToString([]byte{0})
	in := map[string]any{"key": zero, "range_end": zero, "count_only": true}
	if err := c.etcdCall(ctx, "/v3/kv/range", in, &resp); err != nil {
		return 0, fmt.Errorf("reading etcd's revision: %w", err)
	}
	if resp.Header.Revision <= 0 {
		return 0, errors.New("reading etcd's revision: no revision in the answer")
	}
	return int64(resp.Header.Revision), nil
}

// Compact compacts etcd's history up to its current revision, physically
// (it returns once the old revisions are gone), and returns that revision.
// After it, a list at a resourceVersion older than that revision fails with
// 410 Gone (apierrors.IsResourceExpired or apierrors.IsGone), and so does a
// watch from one older than the revision before it (a watch from
// resourceVersion r starts at revision r+1, which etcd still serves when it
// is the compaction revision itself), unless
// kube-apiserver's watch cache (Options.WatchCache) still has that
// resourceVersion in its window. Compacting again with no write in between
// is not an error.
func (c *Cluster) Compact(ctx context.Context) (int64, error) {
	rev, err := c.etcdRevision(ctx)
	if err != nil {
		return 0, fmt.Errorf("testcluster: Compact: %w", err)
	}
	var resp struct{}
	in := map[string]any{"revision": strconv.FormatInt(rev, 10), "physical": true}
	if err := c.etcdCall(ctx, "/v3/kv/compaction", in, &resp); err != nil {
		var ee *etcdError
		// Already compacted at rev: nothing changed since the last
		// compaction.
		if errors.As(err, &ee) && strings.Contains(ee.message, "required revision has been compacted") {
			return rev, nil
		}
		return 0, fmt.Errorf("testcluster: Compact at revision %d: %w", rev, err)
	}
	return rev, nil
}
