package handlers

import (
	"encoding/json"
	"reflect"
	"testing"

	jsonpatch "github.com/evanphx/json-patch/v5"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/strategicpatch"
)

// FuzzPatch runs the steps Patch takes between reading the body and
// admission, for each patch type, on a stored Pod: check or decode the
// patch, apply it to the object's JSON, decode the result into a Pod.
// None of them may panic, whatever the patch; a result that decodes must
// encode again; and a merge patch, which RFC 7386 makes idempotent, must
// change nothing when applied to its own result.
func FuzzPatch(f *testing.F) {
	const stored = `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web","namespace":"ns",` +
		`"resourceVersion":"7","labels":{"app":"web"},"finalizers":["x.io/a"]},` +
		`"spec":{"containers":[{"name":"web","image":"nginx:1","env":[{"name":"A","value":"1"}],` +
		`"ports":[{"containerPort":80}],"resources":{"limits":{"cpu":"1"}}}],` +
		`"tolerations":[{"key":"k","operator":"Exists"}]},"status":{"phase":"Running"}}`
	for _, seed := range []struct {
		patchType uint8
		patch     string
	}{
		{0, `[{"op":"replace","path":"/spec/containers/0/image","value":"nginx:2"}]`},
		{0, `[{"op":"test","path":"/metadata/resourceVersion","value":"7"},{"op":"add","path":"/metadata/labels/b","value":"c"}]`},
		{0, `[{"op":"remove","path":"/spec/containers/0/env/0"},{"op":"move","from":"/metadata/labels","path":"/metadata/annotations"}]`},
		{0, `[{"op":"copy","from":"/spec/containers/0","path":"/spec/containers/-"}]`},
		{0, `[{"op":"copy","from":"/spec","path":"/spec/x"},{"op":"copy","from":"/spec","path":"/spec/y"}]`},
		{0, `[{"op":"add","path":"/spec/containers/0/ports/0/containerPort","value":"eighty"}]`},
		{1, `{"metadata":{"labels":{"app":null,"tier":"fe"}},"spec":{"nodeName":"n1"}}`},
		{1, `{"spec":{"containers":[{"name":"web","image":"nginx:2"}]}}`},
		{1, `{"metadata":{"resourceVersion":"6"}}`},
		{1, `{"kind":"Service"}`},
		{2, `{"spec":{"containers":[{"name":"web","image":"nginx:2"}]}}`},
		{2, `{"spec":{"$setElementOrder/containers":[{"name":"web"}],"containers":[{"name":"web","$patch":"delete"}]}}`},
		{2, `{"metadata":{"$deleteFromPrimitiveList/finalizers":["x.io/a"]}}`},
		{2, `{"spec":{"containers":[{"name":"web","ports":[{"containerPort":"x"}]}]}}`},
	} {
		f.Add(seed.patchType, []byte(stored), []byte(seed.patch))
	}
	podType := reflect.TypeFor[corev1.Pod]()
	f.Fuzz(func(t *testing.T, patchType uint8, original, patch []byte) {
		// A few KB exercises every patch operation; larger inputs only slow
		// each run down.
		if len(original)+len(patch) > 8<<10 {
			t.Skip()
		}
		// The handler patches what storage holds: a Pod, encoded. An
		// original that is no Pod falls back to the stored one, so that
		// every input still exercises its patch.
		var old corev1.Pod
		if _, err := runtime.Decode(original, &old); err != nil {
			old = corev1.Pod{}
			if _, err := runtime.Decode([]byte(stored), &old); err != nil {
				t.Fatalf("Decode of the stored Pod: %v", err)
			}
		}
		current, err := json.Marshal(&old)
		if err != nil {
			t.Fatalf("Marshal of a decoded Pod: %v", err)
		}
		var patched []byte
		switch patchType % 3 {
		case 0:
			jp, err := decodeJSONPatch(patch)
			if err != nil || len(jp) > maxJSONPatchOperations {
				return
			}
			if patched, err = jp.ApplyWithOptions(current, jsonPatchOptions()); err != nil {
				return
			}
		case 1:
			if !json.Valid(patch) {
				return
			}
			if patched, err = jsonpatch.MergePatch(current, patch); err != nil {
				return
			}
			again, err := jsonpatch.MergePatch(patched, patch)
			if err != nil {
				t.Fatalf("merge patch %q applied to %s, but not to its result %s: %v", patch, current, patched, err)
			}
			if !jsonEqual(t, patched, again) {
				t.Fatalf("merge patch %q is not idempotent on %s:\n%s\n%s", patch, current, patched, again)
			}
		case 2:
			if !json.Valid(patch) {
				return
			}
			if patched, err = strategicpatch.StrategicMergePatch(current, patch, podType); err != nil {
				return
			}
		}
		var obj corev1.Pod
		if _, err := runtime.Decode(patched, &obj); err != nil {
			return
		}
		if _, err := runtime.Encode(&obj); err != nil {
			t.Fatalf("Encode of a patched Pod: %v", err)
		}
	})
}

// jsonEqual reports whether two JSON documents hold the same value.
func jsonEqual(t *testing.T, a, b []byte) bool {
	t.Helper()
	var va, vb any
	if err := json.Unmarshal(a, &va); err != nil {
		t.Fatalf("unmarshal %s: %v", a, err)
	}
	if err := json.Unmarshal(b, &vb); err != nil {
		t.Fatalf("unmarshal %s: %v", b, err)
	}
	return reflect.DeepEqual(va, vb)
}
