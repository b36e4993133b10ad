package strategicpatch_test

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/strategicpatch"
)

var podType = reflect.TypeFor[corev1.Pod]()

// pod is the original of most cases: two containers with env, ports and
// mounts, volumes, finalizers, labels, tolerations.
const pod = `{
  "metadata": {"name": "web", "labels": {"app": "web", "tier": "fe"}, "annotations": {"a": "1"},
    "finalizers": ["x.io/a", "x.io/b"]},
  "spec": {
    "containers": [
      {"name": "web", "image": "nginx:1", "args": ["-v"],
       "env": [{"name": "A", "value": "1"}, {"name": "B", "value": "2"}],
       "ports": [{"containerPort": 80, "name": "http"}],
       "volumeMounts": [{"name": "cache", "mountPath": "/cache"}]},
      {"name": "log", "image": "busybox:1"}
    ],
    "volumes": [{"name": "cache", "emptyDir": {}}],
    "tolerations": [{"key": "a", "operator": "Exists"}, {"key": "b", "operator": "Exists"}],
    "nodeSelector": {"disk": "ssd"}
  }
}`

func TestStrategicMergePatch(t *testing.T) {
	tests := []struct {
		name     string
		original string // pod when empty
		patch    string
		want     string
	}{
		{
			name:  "set image by container name keeps the rest",
			patch: `{"spec":{"containers":[{"name":"log","image":"busybox:2"}]}}`,
			want: `{"spec":{"containers":[
				{"name":"web","image":"nginx:1","args":["-v"],"env":[{"name":"A","value":"1"},{"name":"B","value":"2"}],"ports":[{"containerPort":80,"name":"http"}],"volumeMounts":[{"name":"cache","mountPath":"/cache"}]},
				{"name":"log","image":"busybox:2"}]}}`,
		},
		{
			// Upstream puts items the original did not have before the
			// original's other items.
			name:  "new container goes first",
			patch: `{"spec":{"containers":[{"name":"sidecar","image":"envoy"}]}}`,
			want:  `{"spec":{"containers":[{"name":"sidecar","image":"envoy"},{"name":"web"},{"name":"log"}]}}`,
		},
		{
			name:  "delete a container by name",
			patch: `{"spec":{"containers":[{"name":"web","$patch":"delete"}]}}`,
			want:  `{"spec":{"containers":[{"name":"log","image":"busybox:1"}]}}`,
		},
		{
			name:  "replace the container list",
			patch: `{"spec":{"containers":[{"$patch":"replace"},{"name":"only","image":"x"}]}}`,
			want:  `{"spec":{"containers":[{"name":"only","image":"x"}]}}`,
		},
		{
			name:  "change, add and delete env vars",
			patch: `{"spec":{"containers":[{"name":"web","env":[{"name":"B","value":"22"},{"name":"C","value":"3"},{"name":"A","$patch":"delete"}]}]}}`,
			want:  `{"spec":{"containers":[{"name":"web","env":[{"name":"B","value":"22"},{"name":"C","value":"3"}]},{"name":"log"}]}}`,
		},
		{
			name:  "ports merge by number",
			patch: `{"spec":{"containers":[{"name":"web","ports":[{"containerPort":80,"protocol":"TCP"},{"containerPort":443}]}]}}`,
			want:  `{"spec":{"containers":[{"name":"web","ports":[{"containerPort":80,"name":"http","protocol":"TCP"},{"containerPort":443}]},{"name":"log"}]}}`,
		},
		{
			// kubectl apply of a manifest that gained env var C between
			// A and B.
			name:  "setElementOrder from kubectl apply",
			patch: `{"spec":{"$setElementOrder/containers":[{"name":"web"},{"name":"log"}],"containers":[{"$setElementOrder/env":[{"name":"A"},{"name":"C"},{"name":"B"}],"env":[{"name":"C","value":"3"}],"name":"web"}]}}`,
			want:  `{"spec":{"containers":[{"name":"web","env":[{"name":"A","value":"1"},{"name":"C","value":"3"},{"name":"B","value":"2"}]},{"name":"log"}]}}`,
		},
		{
			name:  "setElementOrder reorders without changes",
			patch: `{"spec":{"$setElementOrder/containers":[{"name":"log"},{"name":"web"}]}}`,
			want:  `{"spec":{"containers":[{"name":"log"},{"name":"web"}]}}`,
		},
		{
			name:  "finalizers are a set",
			patch: `{"metadata":{"finalizers":["x.io/c","x.io/a"]}}`,
			want:  `{"metadata":{"finalizers":["x.io/c","x.io/a","x.io/b"]}}`,
		},
		{
			name:  "deleteFromPrimitiveList removes finalizers",
			patch: `{"metadata":{"$deleteFromPrimitiveList/finalizers":["x.io/a"],"$setElementOrder/finalizers":["x.io/b"]}}`,
			want:  `{"metadata":{"finalizers":["x.io/b"]}}`,
		},
		{
			name:  "lists without a strategy are replaced",
			patch: `{"spec":{"tolerations":[{"key":"c","operator":"Exists"}],"containers":[{"name":"web","args":["-q"]}]}}`,
			want:  `{"spec":{"tolerations":[{"key":"c","operator":"Exists"}],"containers":[{"name":"web","args":["-q"]},{"name":"log"}]}}`,
		},
		{
			name:  "labels and annotations merge, null deletes",
			patch: `{"metadata":{"labels":{"tier":null,"v":"2"},"annotations":{"b":"2"}}}`,
			want:  `{"metadata":{"labels":{"app":"web","v":"2"},"annotations":{"a":"1","b":"2"}}}`,
		},
		{
			name:  "null deletes a whole field",
			patch: `{"spec":{"nodeSelector":null,"tolerations":null}}`,
			want:  `{"spec":{"containers":[{"name":"web"},{"name":"log"}],"volumes":[{"name":"cache","emptyDir":{}}]}}`,
		},
		{
			name:  "$patch replace on a map",
			patch: `{"spec":{"nodeSelector":{"$patch":"replace","zone":"a"}}}`,
			want:  `{"spec":{"nodeSelector":{"zone":"a"}}}`,
		},
		{
			name:  "$patch delete on a map",
			patch: `{"metadata":{"annotations":{"$patch":"delete"}}}`,
			want:  `{"metadata":{"annotations":{}}}`,
		},
		{
			// kubectl apply switching a volume from emptyDir to hostPath:
			// the volume keeps only the listed keys.
			name:  "retainKeys switches a volume source",
			patch: `{"spec":{"volumes":[{"$retainKeys":["hostPath","name"],"hostPath":{"path":"/data"},"name":"cache"}]}}`,
			want:  `{"spec":{"volumes":[{"name":"cache","hostPath":{"path":"/data"}}]}}`,
		},
		{
			// Fields the schema does not know merge as in a JSON merge
			// patch: maps merge, lists are replaced.
			name:     "unknown fields merge like a JSON merge patch",
			original: `{"spec":{"colour":{"a":[1,2],"b":"x"}}}`,
			patch:    `{"spec":{"colour":{"a":[3],"b":null,"c":true}}}`,
			want:     `{"spec":{"colour":{"a":[3],"c":true}}}`,
		},
		{
			// A value with nothing to merge into loses its nulls and any
			// map that carries a directive.
			name:     "new subtree drops nulls and directives",
			original: `{"spec":{}}`,
			patch:    `{"spec":{"affinity":{"nodeAffinity":null,"podAffinity":{"$patch":"delete"},"podAntiAffinity":{}}}}`,
			want:     `{"spec":{"affinity":{"podAntiAffinity":{}}}}`,
		},
		{
			name:  "null patch changes nothing",
			patch: `null`,
			want:  `{"spec":{"containers":[{"name":"web"},{"name":"log"}]}}`,
		},
		{
			name:     "nil original is the empty object",
			original: "nil",
			patch:    `{"metadata":{"name":"x","finalizers":["a"]}}`,
			want:     `{"metadata":{"name":"x","finalizers":["a"]}}`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var original []byte
			switch tc.original {
			case "":
				original = []byte(pod)
			case "nil":
			default:
				original = []byte(tc.original)
			}
			got, err := strategicpatch.StrategicMergePatch(original, []byte(tc.patch), podType)
			require.NoError(t, err, "patch %s", tc.patch)
			assertContains(t, tc.want, string(got))
		})
	}
}

// assertContains checks that every key of want is in got with the same
// value, lists item by item; maps in got may have more keys. It keeps the
// cases short: they name what the patch changes and what must be kept.
func assertContains(t *testing.T, want, got string) {
	t.Helper()
	var w, g any
	require.NoError(t, jsonUnmarshal(want, &w), "want %s", want)
	require.NoError(t, jsonUnmarshal(got, &g), "got %s", got)
	if diff := contains(w, g, ""); diff != "" {
		t.Errorf("%s\nwant %s\ngot  %s", diff, want, got)
	}
}

func contains(want, got any, path string) string {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return path + ": not an object"
		}
		for k, wv := range w {
			gv, ok := g[k]
			if !ok {
				return path + "." + k + ": missing"
			}
			if diff := contains(wv, gv, path+"."+k); diff != "" {
				return diff
			}
		}
		if len(w) == 0 && len(g) != 0 {
			return path + ": not empty"
		}
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return path + ": list differs"
		}
		for i := range w {
			if diff := contains(w[i], g[i], path); diff != "" {
				return diff
			}
		}
	default:
		if !reflect.DeepEqual(want, got) {
			return path + ": value differs"
		}
	}
	return ""
}

func TestStrategicMergePatchErrors(t *testing.T) {
	tests := []struct {
		name     string
		original string // pod when empty
		patch    string
		schema   reflect.Type
		// wantIs is the sentinel the error wraps, nil for "not a
		// malformed patch".
		wantIs error
	}{
		{name: "invalid json", patch: `{"spec":`, wantIs: strategicpatch.ErrBadJSONDoc},
		{name: "not an object", patch: `[1]`, wantIs: strategicpatch.ErrBadJSONDoc},
		{name: "trailing data", patch: `{}x`, wantIs: strategicpatch.ErrBadJSONDoc},
		{name: "setElementOrder without field", patch: `{"spec":{"$setElementOrder":[]}}`, wantIs: strategicpatch.ErrBadPatchFormatForSetElementOrderList},
		{name: "deleteFromPrimitiveList without field", patch: `{"metadata":{"$deleteFromPrimitiveListX":["a"]}}`, wantIs: strategicpatch.ErrBadPatchFormatForPrimitiveList},
		{name: "retainKeys not a list", patch: `{"spec":{"$retainKeys":"a"}}`, wantIs: strategicpatch.ErrBadPatchFormatForRetainKeys},
		{name: "retainKeys drops a patched key", patch: `{"spec":{"$retainKeys":["nodeSelector"],"hostname":"h"}}`, wantIs: strategicpatch.ErrBadPatchFormatForRetainKeys},
		{name: "list of lists", original: `{"metadata":{"finalizers":[]}}`, patch: `{"metadata":{"finalizers":[["a"]]}}`, wantIs: strategicpatch.ErrNoListOfLists},
		{name: "missing merge key", patch: `{"spec":{"containers":[{"image":"x"}]}}`},
		{name: "delete without merge key", patch: `{"spec":{"containers":[{"$patch":"delete"}]}}`},
		{name: "merge directive on a map", patch: `{"spec":{"$patch":"merge"}}`},
		{name: "merge directive in a list", patch: `{"spec":{"containers":[{"$patch":"merge"}]}}`},
		{name: "unknown directive", patch: `{"spec":{"$patch":"drop"}}`},
		{name: "order does not match the patch", patch: `{"spec":{"$setElementOrder/containers":[{"name":"web"}],"containers":[{"name":"log"}]}}`},
		{name: "mixed item types", patch: `{"metadata":{"finalizers":[1]}}`},
		{name: "null item", patch: `{"metadata":{"finalizers":[null]}}`},
		{name: "object as merge key", patch: `{"spec":{"containers":[{"name":{"a":1}},{"name":{"a":1}}]}}`},
		{name: "schema not a struct", patch: `{}`, schema: reflect.TypeFor[map[string]any]()},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			schema := tc.schema
			if schema == nil {
				schema = podType
			}
			original := tc.original
			if original == "" {
				original = pod
			}
			out, err := strategicpatch.StrategicMergePatch([]byte(original), []byte(tc.patch), schema)
			require.Error(t, err, "patch %s gave %s", tc.patch, out)
			malformed := []error{
				strategicpatch.ErrBadJSONDoc, strategicpatch.ErrBadPatchFormatForPrimitiveList,
				strategicpatch.ErrBadPatchFormatForRetainKeys, strategicpatch.ErrBadPatchFormatForSetElementOrderList,
				strategicpatch.ErrNoListOfLists,
			}
			for _, sentinel := range malformed {
				assert.Equal(t, sentinel == tc.wantIs, errorsIs(err, sentinel), "patch %s: error %v is %v", tc.patch, err, sentinel)
			}
		})
	}
}

// TestErrorsNameThePath checks that an error says where in the object the
// patch went wrong.
func TestErrorsNameThePath(t *testing.T) {
	_, err := strategicpatch.StrategicMergePatch([]byte(pod),
		[]byte(`{"spec":{"containers":[{"name":"web","env":[{"value":"x"}]}]}}`), podType)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "spec.containers[0].env[0]")
	assert.Contains(t, err.Error(), "merge key name")
}

// TestOriginalIsNotChanged checks that the inputs are only read.
func TestOriginalIsNotChanged(t *testing.T) {
	original, patch := []byte(pod), []byte(`{"spec":{"containers":[{"name":"web","$patch":"delete"}]}}`)
	keepOriginal, keepPatch := string(original), string(patch)
	_, err := strategicpatch.StrategicMergePatch(original, patch, podType)
	require.NoError(t, err)
	assert.Equal(t, keepOriginal, string(original))
	assert.Equal(t, keepPatch, string(patch))
}
