package v1

import (
	"k8s.io/apimachinery/pkg/labels"

	compatv1 "example.dev/compat/apis/compat/v1"
)

// FooListerExpansion allows custom methods to be added to FooLister. This
// file is hand-written: with it in the listers package, the generators do
// not write FooListerExpansion or FooNamespaceListerExpansion themselves.
type FooListerExpansion interface {
	// ListForDeployment lists the Foos of every namespace whose
	// spec.deploymentName is name.
	ListForDeployment(name string) ([]*compatv1.Foo, error)
}

// FooNamespaceListerExpansion allows custom methods to be added to
// FooNamespaceLister.
type FooNamespaceListerExpansion interface {
	// GetScaled returns the Foo called name when it asks for at least one
	// replica.
	GetScaled(name string) (*compatv1.Foo, bool, error)
}

func (s *fooLister) ListForDeployment(name string) ([]*compatv1.Foo, error) {
	all, err := s.List(labels.Everything())
	if err != nil {
		return nil, err
	}
	var out []*compatv1.Foo
	for _, foo := range all {
		if foo.Spec.DeploymentName == name {
			out = append(out, foo)
		}
	}
	return out, nil
}

func (s fooNamespaceLister) GetScaled(name string) (*compatv1.Foo, bool, error) {
	foo, err := s.Get(name)
	if err != nil {
		return nil, false, err
	}
	return foo, foo.Spec.Replicas != nil && *foo.Spec.Replicas > 0, nil
}
