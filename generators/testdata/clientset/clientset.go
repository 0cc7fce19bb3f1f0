// Package clientset stands in for client-gen's clientset of the golden-test
// input: just the List and Watch the generated informers call, so that the
// golden informers compile.
package clientset

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"

	toysv1 "github.com/informer-gen-plus/informer-gen-plus/generators/testdata/apis/toys/v1"
)

// Interface is the clientset.
type Interface interface {
	ToysV1() ToysV1Interface
}

// ToysV1Interface is the client of toys.example.dev/v1.
type ToysV1Interface interface {
	Robots(namespace string) ListWatcher[*toysv1.RobotList]
	Boxes() ListWatcher[*toysv1.BoxList]
}

// ListWatcher is the part of a typed client that informers use.
type ListWatcher[L any] interface {
	List(ctx context.Context, opts metav1.ListOptions) (L, error)
	Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error)
}
