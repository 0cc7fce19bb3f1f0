package v1

import (
	"k8s.io/apimachinery/pkg/labels"

	toysv1 "github.com/informer-gen-plus/informer-gen-plus/generators/testdata/apis/toys/v1"
)

// This file is written by hand, as lister-gen's users write
// <kind>_expansion.go files: the generator must neither overwrite nor remove
// it, and expansion_generated.go must leave out the two interfaces it
// declares. Its methods use the generated lister's own methods.

// RobotListerExpansion allows custom methods to be added to RobotLister.
type RobotListerExpansion interface {
	// Painted returns the Robots of namespace that have a color.
	Painted(namespace string) ([]*toysv1.Robot, error)
}

// RobotNamespaceListerExpansion allows custom methods to be added to
// RobotNamespaceLister.
type RobotNamespaceListerExpansion interface {
	// Exists reports whether the namespace has a Robot called name.
	Exists(name string) bool
}

func (s *robotLister) Painted(namespace string) ([]*toysv1.Robot, error) {
	all, err := s.Robots(namespace).List(labels.Everything())
	if err != nil {
		return nil, err
	}
	var out []*toysv1.Robot
	for _, r := range all {
		if r.Spec.Color != "" {
			out = append(out, r)
		}
	}
	return out, nil
}

func (s robotNamespaceLister) Exists(name string) bool {
	_, err := s.Get(name)
	return err == nil
}
