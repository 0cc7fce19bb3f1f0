package main

// Dropped into k8s.io/sample-controller's main package by hack/test-swap.sh,
// after an +index(name: byDeployment, field: spec.deploymentName) marker on
// Foo and a regenerate through informer-gen-plus.

import (
	"context"
	"sort"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/cache"

	samplecontroller "k8s.io/sample-controller/pkg/apis/samplecontroller/v1alpha1"
	"k8s.io/sample-controller/pkg/generated/clientset/versioned/fake"
	informers "k8s.io/sample-controller/pkg/generated/informers/externalversions"
	listers "k8s.io/sample-controller/pkg/generated/listers/samplecontroller/v1alpha1"
)

func swapFoo(namespace, name, deployment string) *samplecontroller.Foo {
	return &samplecontroller.Foo{
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name},
		Spec:       samplecontroller.FooSpec{DeploymentName: deployment},
	}
}

func swapFoos() []*samplecontroller.Foo {
	return []*samplecontroller.Foo{
		swapFoo("a", "foo-1", "web"),
		swapFoo("a", "foo-2", "db"),
		swapFoo("b", "foo-3", "web"),
		swapFoo("b", "foo-4", ""),
	}
}

func swapNames(foos []*samplecontroller.Foo) []string {
	names := make([]string, 0, len(foos))
	for _, foo := range foos {
		names = append(names, foo.Namespace+"/"+foo.Name)
	}
	sort.Strings(names)
	return names
}

func swapCheck(t *testing.T, what string, foos []*samplecontroller.Foo, err error, want ...string) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	got := swapNames(foos)
	if len(got) != len(want) {
		t.Fatalf("%s = %q, want %q", what, got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("%s = %q, want %q", what, got, want)
		}
	}
}

// checkByDeployment runs the lookups every lister below must answer alike.
func checkByDeployment(t *testing.T, lister listers.FooLister) {
	t.Helper()
	foos, err := lister.ByDeployment("web")
	swapCheck(t, `ByDeployment("web")`, foos, err, "a/foo-1", "b/foo-3")
	foos, err = lister.Foos("a").ByDeployment("web")
	swapCheck(t, `Foos("a").ByDeployment("web")`, foos, err, "a/foo-1")
	foos, err = lister.Foos("b").ByDeployment("db")
	swapCheck(t, `Foos("b").ByDeployment("db")`, foos, err)
	foos, err = lister.ByDeployment("none")
	swapCheck(t, `ByDeployment("none")`, foos, err)
}

// TestSwapByDeploymentFactory: the lister of a factory informer fed by the
// fake clientset, then after an update through the client.
func TestSwapByDeploymentFactory(t *testing.T) {
	var objs []runtime.Object
	for _, foo := range swapFoos() {
		objs = append(objs, foo)
	}
	client := fake.NewSimpleClientset(objs...)
	factory := informers.NewSharedInformerFactory(client, 0)
	fooInformer := factory.Samplecontroller().V1alpha1().Foos()
	lister := fooInformer.Lister()
	ctx, cancel := context.WithCancel(context.Background())
	defer func() {
		cancel()
		factory.Shutdown()
	}()
	factory.Start(ctx.Done())
	for typ, ok := range factory.WaitForCacheSync(ctx.Done()) {
		if !ok {
			t.Fatalf("%v did not sync", typ)
		}
	}
	checkByDeployment(t, lister)

	moved := swapFoo("a", "foo-2", "web")
	if _, err := client.SamplecontrollerV1alpha1().Foos("a").Update(ctx, moved, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if !cache.WaitForCacheSync(ctx.Done(), func() bool {
		foos, err := lister.Foos("a").ByDeployment("web")
		return err == nil && len(foos) == 2
	}) {
		t.Fatal("the update did not reach the index")
	}
	foos, err := lister.ByDeployment("db")
	swapCheck(t, `ByDeployment("db") after the update`, foos, err)
}

// TestSwapByDeploymentIndexer: a lister over a client-go indexer built with
// the generated index functions, as a unit test builds one.
func TestSwapByDeploymentIndexer(t *testing.T) {
	indexers := listers.FooIndexers()
	indexers[cache.NamespaceIndex] = cache.MetaNamespaceIndexFunc
	indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, indexers)
	for _, foo := range swapFoos() {
		if err := indexer.Add(foo); err != nil {
			t.Fatal(err)
		}
	}
	checkByDeployment(t, listers.NewFooLister(indexer))
}
