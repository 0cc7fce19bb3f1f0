package testpods

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/scheme"
)

// Protobuf returns the protobuf serializer of client-go's scheme, the one
// an informer decodes the API server's protobuf LIST and WATCH bodies with.
func Protobuf() (runtime.Serializer, error) {
	info, ok := runtime.SerializerInfoForMediaType(scheme.Codecs.SupportedMediaTypes(), runtime.ContentTypeProtobuf)
	if !ok {
		return nil, errors.New("no protobuf serializer in client-go's scheme")
	}
	return info.Serializer, nil
}

// EncodeAll returns pods, each encoded to protobuf on its own.
func EncodeAll(pods []*corev1.Pod) ([][]byte, error) {
	s, err := Protobuf()
	if err != nil {
		return nil, err
	}
	enc := scheme.Codecs.EncoderForVersion(s, corev1.SchemeGroupVersion)
	out := make([][]byte, len(pods))
	for i, p := range pods {
		if out[i], err = runtime.Encode(enc, p); err != nil {
			return nil, fmt.Errorf("encoding pod %s/%s: %w", p.Namespace, p.Name, err)
		}
	}
	return out, nil
}

// Decode decodes one pod that EncodeAll encoded: every string of the result
// is an allocation of its own, as after a real LIST.
func Decode(s runtime.Serializer, data []byte) (*corev1.Pod, error) {
	obj, _, err := s.Decode(data, nil, &corev1.Pod{})
	if err != nil {
		return nil, err
	}
	return obj.(*corev1.Pod), nil
}

// RoundTrip returns pods encoded to protobuf and decoded again, each on its
// own, so that they are laid out in memory as an informer's objects are.
func RoundTrip(pods []*corev1.Pod) ([]*corev1.Pod, error) {
	s, err := Protobuf()
	if err != nil {
		return nil, err
	}
	encoded, err := EncodeAll(pods)
	if err != nil {
		return nil, err
	}
	out := make([]*corev1.Pod, len(encoded))
	for i, data := range encoded {
		if out[i], err = Decode(s, data); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// WriteEncoded writes encoded pods (EncodeAll's) to a file, each after its
// length, for a measurement that decodes them in another process.
func WriteEncoded(name string, encoded [][]byte) error {
	var buf []byte
	for _, r := range encoded {
		buf = binary.AppendUvarint(buf, uint64(len(r)))
		buf = append(buf, r...)
	}
	return os.WriteFile(name, buf, 0o600)
}

// ReadEncoded reads the encoded pods WriteEncoded wrote.
func ReadEncoded(name string) ([][]byte, error) {
	buf, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var out [][]byte
	for len(buf) > 0 {
		n, k := binary.Uvarint(buf)
		if k <= 0 || uint64(len(buf)-k) < n {
			return nil, fmt.Errorf("%s: truncated record", name)
		}
		out = append(out, buf[k:k+int(n)])
		buf = buf[k+int(n):]
	}
	return out, nil
}
