package fieldpath_test

import (
	"fmt"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/fieldpath"
)

func Example() {
	k, err := fieldpath.Parse("status.phase, spec.containers[*].image")
	if err != nil {
		panic(err)
	}
	fmt.Println(k, len(k), k.MultiValued())

	pod := map[string]any{
		"status": map[string]any{"phase": "Running"},
		"spec": map[string]any{"containers": []any{
			map[string]any{"image": "nginx"},
			map[string]any{"image": "envoy"},
		}},
	}
	for _, v := range k.Values(pod) {
		parts, _ := fieldpath.SplitValues(v, len(k))
		fmt.Printf("%q\n", parts)
	}

	_, err = fieldpath.Parse("spec..x")
	fmt.Println(err)
	// Output:
	// status.phase,spec.containers[*].image 2 true
	// ["Running" "nginx"]
	// ["Running" "envoy"]
	// fieldpath: "spec..x": empty field name at column 6
}
