// Package fieldindextest lets the generated SetupIndexes functions register
// their indexes with controller-runtime's fake client, for unit tests of
// reconcilers that use the generated List helpers and event mappers:
//
//	builder := fake.NewClientBuilder().WithScheme(scheme)
//	if err := shopv1.SetupIndexes(ctx, fieldindextest.Indexer(builder)); err != nil { ... }
//	c := builder.WithObjects(objs...).Build()
package fieldindextest

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
)

// Indexer returns a client.FieldIndexer that adds each index to builder with
// builder.WithIndex. Register the indexes before builder.Build; registering a
// field twice for one kind is an error (WithIndex would panic).
func Indexer(builder *fake.ClientBuilder) client.FieldIndexer {
	return builderIndexer{builder}
}

type builderIndexer struct{ builder *fake.ClientBuilder }

func (b builderIndexer) IndexField(_ context.Context, obj client.Object, field string, extract client.IndexerFunc) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	b.builder.WithIndex(runtime.Object(obj), field, extract)
	return nil
}
