// Package fakewatch helps tests drive informers from client-go's and
// client-gen's fake clientsets, whose watches see only the writes made after
// they are registered.
package fakewatch

import (
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	clienttesting "k8s.io/client-go/testing"
)

// Clientset is what Started needs of a fake clientset.
type Clientset interface {
	PrependWatchReactor(resource string, reaction clienttesting.WatchReactionFunc)
	Tracker() clienttesting.ObjectTracker
}

// Started returns a channel that is closed once a watch of resource (such as
// "configmaps") is registered with client's object tracker: writes made after
// that reach the watch. It serves watches of resource as the fake's default
// reactor does.
func Started(client Clientset, resource string) <-chan struct{} {
	started := make(chan struct{})
	var once sync.Once
	client.PrependWatchReactor(resource, func(action clienttesting.Action) (bool, watch.Interface, error) {
		var opts []metav1.ListOptions
		if a, ok := action.(clienttesting.WatchActionImpl); ok {
			opts = append(opts, a.ListOptions)
		}
		w, err := client.Tracker().Watch(action.GetResource(), action.GetNamespace(), opts...)
		if err != nil {
			return false, nil, err
		}
		once.Do(func() { close(started) })
		return true, w, nil
	})
	return started
}
