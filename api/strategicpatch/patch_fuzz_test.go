package strategicpatch_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/minicp/minicp/api/strategicpatch"
)

// FuzzStrategicMergePatch applies arbitrary patches to arbitrary
// originals under the Pod schema, as the API server does for kubectl's
// patches. It must never panic or change its arguments; what it returns
// without error must be a JSON object. (Applying a patch twice is not
// required to work: like upstream, a list missing from the original takes
// the patch's items unchecked, which a second application then checks.)
func FuzzStrategicMergePatch(f *testing.F) {
	for _, seed := range [][2]string{
		{pod, `{"metadata":{"labels":{"tier":null,"new":"x"}}}`},
		{pod, `{"spec":{"containers":[{"name":"web","image":"nginx:2"}]}}`},
		{pod, `{"spec":{"containers":[{"name":"log","$patch":"delete"}]}}`},
		{pod, `{"spec":{"$setElementOrder/containers":[{"name":"log"},{"name":"web"}],"containers":[{"name":"web","args":["-q"]}]}}`},
		{pod, `{"metadata":{"$deleteFromPrimitiveList/finalizers":["x.io/a"]}}`},
		{pod, `{"spec":{"volumes":[{"name":"cache","$retainKeys":["name","hostPath"],"hostPath":{"path":"/tmp"}}]}}`},
		{pod, `{"spec":{"tolerations":[{"key":"c","operator":"Exists"}],"nodeSelector":{"$patch":"replace","zone":"a"}}}`},
		{pod, `{"spec":{"containers":[{"name":"web","env":[{"name":"A","$patch":"delete"},{"name":"C","value":"3"}]}]}}`},
		{pod, `{"$patch":"replace","metadata":{"name":"x"}}`},
		{`{}`, `{"spec":{"containers":[{"image":"no-name"}]}}`},
		{pod, `null`},
		{`{"metadata":{"finalizers":"not-a-list"}}`, `{"metadata":{"finalizers":["a"]}}`},
	} {
		f.Add([]byte(seed[0]), []byte(seed[1]))
	}
	f.Fuzz(func(t *testing.T, original, patch []byte) {
		// Objects and patches of a few KB exercise every strategy; larger
		// ones only slow each run down.
		if len(original)+len(patch) > 8<<10 {
			t.Skip()
		}
		origCopy, patchCopy := bytes.Clone(original), bytes.Clone(patch)
		result, err := strategicpatch.StrategicMergePatch(original, patch, podType)
		if !bytes.Equal(original, origCopy) || !bytes.Equal(patch, patchCopy) {
			t.Fatalf("StrategicMergePatch changed its arguments")
		}
		if err != nil {
			return
		}
		var obj map[string]any
		if err := json.Unmarshal(result, &obj); err != nil {
			t.Fatalf("StrategicMergePatch(%q, %q) = %q, not a JSON object: %v", original, patch, result, err)
		}
	})
}
