package strategicpatch_test

import (
	"fmt"
	"reflect"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/strategicpatch"
)

// kubectl set image sends a patch that names the container: the
// container list merges by name, so the other container is kept.
func ExampleStrategicMergePatch() {
	live := []byte(`{"spec":{"containers":[{"name":"web","image":"nginx:1.27"},{"name":"log","image":"busybox"}]}}`)
	patch := []byte(`{"spec":{"containers":[{"name":"web","image":"nginx:1.28"}]}}`)
	out, err := strategicpatch.StrategicMergePatch(live, patch, reflect.TypeFor[corev1.Pod]())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(out))
	// Output:
	// {"spec":{"containers":[{"image":"nginx:1.28","name":"web"},{"image":"busybox","name":"log"}]}}
}
