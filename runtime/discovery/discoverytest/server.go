// Package discoverytest is a fake API server's discovery for tests of
// factories that start informers according to discovery (runtime/discovery):
// client-go's fake discovery, whose served resources a test changes while
// the factory looks them up.
package discoverytest

import (
	"context"
	"sync"
	"sync/atomic"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	kubediscovery "k8s.io/client-go/discovery"
	fakediscovery "k8s.io/client-go/discovery/fake"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
)

// ListWatch are the verbs Serve gives a resource by default: an informer's.
var ListWatch = metav1.Verbs{"get", "list", "watch"}

// Server is client-go's fake discovery (k8s.io/client-go/discovery/fake)
// over a fake clientset's Resources. The fake reads its Resources without a
// lock; Server's methods take one, so that a test may Serve, Remove and Fail
// while discovery is asked. Its methods are safe for concurrent use.
type Server struct {
	*fakediscovery.FakeDiscovery
	mu   sync.Mutex
	fail error
	// refreshes counts ServerGroups calls: one per refresh of a memory
	// cache.
	refreshes atomic.Int64
}

// Server is a discovery client.
var _ kubediscovery.DiscoveryInterfaceWithContext = (*Server)(nil)

// NewServer returns a server serving nothing.
func NewServer() *Server {
	s := &Server{FakeDiscovery: fake.NewClientset().Discovery().(*fakediscovery.FakeDiscovery)}
	s.PrependReactor("get", "*", func(clienttesting.Action) (bool, runtime.Object, error) {
		// Called with s.mu held.
		return s.fail != nil, nil, s.fail
	})
	return s
}

// Serve makes the server serve gvr with verbs (ListWatch when none).
func (s *Server) Serve(gvr schema.GroupVersionResource, verbs ...string) *Server {
	if len(verbs) == 0 {
		verbs = ListWatch
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	gv := gvr.GroupVersion().String()
	res := metav1.APIResource{Name: gvr.Resource, Verbs: verbs}
	for _, list := range s.Resources {
		if list.GroupVersion == gv {
			list.APIResources = append(list.APIResources, res)
			return s
		}
	}
	s.Resources = append(s.Resources, &metav1.APIResourceList{GroupVersion: gv, APIResources: []metav1.APIResource{res}})
	return s
}

// Remove makes the server stop serving gvr, and its group version when gvr
// was the last resource of it.
func (s *Server) Remove(gvr schema.GroupVersionResource) {
	s.mu.Lock()
	defer s.mu.Unlock()
	gv := gvr.GroupVersion().String()
	var lists []*metav1.APIResourceList
	for _, list := range s.Resources {
		if list.GroupVersion == gv {
			var kept []metav1.APIResource
			for _, r := range list.APIResources {
				if r.Name != gvr.Resource {
					kept = append(kept, r)
				}
			}
			if len(kept) == 0 {
				continue
			}
			list.APIResources = kept
		}
		lists = append(lists, list)
	}
	s.Resources = lists
}

// Fail makes every discovery call fail with err; nil makes them succeed
// again.
func (s *Server) Fail(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fail = err
}

// Refreshes returns how often the server's groups were asked for: once per
// refresh of a memory cache over it.
func (s *Server) Refreshes() int64 { return s.refreshes.Load() }

// ServerGroupsWithContext is the fake's, under the server's lock.
func (s *Server) ServerGroupsWithContext(ctx context.Context) (*metav1.APIGroupList, error) {
	s.refreshes.Add(1)
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.FakeDiscovery.ServerGroupsWithContext(ctx)
}

// ServerGroups is ServerGroupsWithContext.
func (s *Server) ServerGroups() (*metav1.APIGroupList, error) {
	return s.ServerGroupsWithContext(context.Background())
}

// ServerResourcesForGroupVersionWithContext is the fake's, under the
// server's lock, returning a copy.
func (s *Server) ServerResourcesForGroupVersionWithContext(ctx context.Context, gv string) (*metav1.APIResourceList, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	list, err := s.FakeDiscovery.ServerResourcesForGroupVersionWithContext(ctx, gv)
	if list != nil {
		list = list.DeepCopy()
	}
	return list, err
}

// ServerResourcesForGroupVersion is ServerResourcesForGroupVersionWithContext.
func (s *Server) ServerResourcesForGroupVersion(gv string) (*metav1.APIResourceList, error) {
	return s.ServerResourcesForGroupVersionWithContext(context.Background(), gv)
}

// ServerGroupsAndResourcesWithContext is the fake's, under the server's
// lock.
func (s *Server) ServerGroupsAndResourcesWithContext(ctx context.Context) ([]*metav1.APIGroup, []*metav1.APIResourceList, error) {
	s.refreshes.Add(1)
	s.mu.Lock()
	defer s.mu.Unlock()
	groups, lists, err := s.FakeDiscovery.ServerGroupsAndResourcesWithContext(ctx)
	copies := make([]*metav1.APIResourceList, len(lists))
	for i, l := range lists {
		copies[i] = l.DeepCopy()
	}
	return groups, copies, err
}

// ServerGroupsAndResources is ServerGroupsAndResourcesWithContext.
func (s *Server) ServerGroupsAndResources() ([]*metav1.APIGroup, []*metav1.APIResourceList, error) {
	return s.ServerGroupsAndResourcesWithContext(context.Background())
}
