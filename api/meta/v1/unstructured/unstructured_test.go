package unstructured_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/meta/v1/unstructured"
	"github.com/minicp/minicp/api/runtime"
)

func TestRoundTrip(t *testing.T) {
	in := `{"apiVersion":"example.com/v1","kind":"Developer","metadata":{"name":"megyo","namespace":"default","labels":{"team":"a"}},` +
		`"spec":{"big":9007199254740993,"langs":["go","rust"],"ratio":0.5,"ready":true,"none":null}}`
	var u unstructured.Unstructured
	require.NoError(t, json.Unmarshal([]byte(in), &u))
	assert.Equal(t, "Developer", u.Kind)
	assert.Equal(t, "megyo", u.Name)
	assert.Equal(t, map[string]string{"team": "a"}, u.Labels)
	big, ok := unstructured.NestedInt64(u.Content, "spec", "big")
	require.True(t, ok, "spec.big is an int64")
	assert.Equal(t, int64(9007199254740993), big, "integers above 2^53 survive")
	ratio, _ := unstructured.NestedField(u.Content, "spec", "ratio")
	assert.Equal(t, 0.5, ratio)

	out, err := json.Marshal(&u)
	require.NoError(t, err)
	assert.JSONEq(t, in, string(out))
	assert.Contains(t, string(out), "9007199254740993")
}

func TestUnmarshalRejectsBadShapes(t *testing.T) {
	tests := []struct {
		name string
		in   string
	}{
		{"not an object", `[1,2]`},
		{"null", `null`},
		{"kind not a string", `{"kind":3}`},
		{"apiVersion not a string", `{"apiVersion":{}}`},
		{"metadata not an object", `{"metadata":"x"}`},
		{"bad labels", `{"metadata":{"labels":{"a":1}}}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var u unstructured.Unstructured
			assert.Error(t, json.Unmarshal([]byte(tc.in), &u), "Unmarshal(%s)", tc.in)
		})
	}
}

func TestDeepCopyIsIndependent(t *testing.T) {
	u := &unstructured.Unstructured{Content: map[string]any{"spec": map[string]any{"n": int64(1), "l": []any{"a"}}}}
	c := u.DeepCopy()
	unstructured.SetNestedField(c.Content, int64(2), "spec", "n")
	c.Content["spec"].(map[string]any)["l"].([]any)[0] = "b"
	n, _ := unstructured.NestedInt64(u.Content, "spec", "n")
	assert.Equal(t, int64(1), n)
	assert.Equal(t, "a", u.Content["spec"].(map[string]any)["l"].([]any)[0])
}

func TestSchemeKindsShareTheType(t *testing.T) {
	s := runtime.NewScheme()
	dev := runtime.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Developer"}
	db := runtime.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Database"}
	s.AddKind(dev, &unstructured.Unstructured{})
	s.AddKind(db, &unstructured.Unstructured{})

	obj, err := s.New(db)
	require.NoError(t, err)
	gvk, err := s.ObjectKind(obj)
	require.NoError(t, err)
	assert.Equal(t, db, gvk, "ObjectKind reads the object's own TypeMeta")

	_, err = s.ObjectKind(&unstructured.Unstructured{})
	assert.Error(t, err, "an object that says nothing is not recognized")
}

func TestNestedHelpers(t *testing.T) {
	m := map[string]any{}
	unstructured.SetNestedField(m, "x", "a", "b")
	s, ok := unstructured.NestedString(m, "a", "b")
	assert.True(t, ok)
	assert.Equal(t, "x", s)
	_, ok = unstructured.NestedString(m, "a", "b", "c")
	assert.False(t, ok, "a path through a string")
	unstructured.RemoveNestedField(m, "a", "b")
	_, ok = unstructured.NestedField(m, "a", "b")
	assert.False(t, ok)
}
