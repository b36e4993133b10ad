package runtime_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/resource"
	"github.com/minicp/minicp/api/runtime"
)

func ptr[T any](v T) *T { return &v }

// fullWidget sets every field of Widget that can share memory.
func fullWidget() *Widget {
	stopped := metav1.NewTime(time.Date(2024, 5, 6, 8, 0, 0, 0, time.UTC))
	return &Widget{
		TypeMeta: metav1.TypeMeta{Kind: "Widget", APIVersion: "test/v1"},
		ObjectMeta: metav1.ObjectMeta{
			Name:                       "w",
			CreationTimestamp:          metav1.NewTime(time.Date(2024, 5, 6, 7, 8, 9, 0, time.FixedZone("CEST", 2*3600))),
			DeletionTimestamp:          &stopped,
			DeletionGracePeriodSeconds: ptr(int64(30)),
			Labels:                     map[string]string{"app": "w"},
			Annotations:                map[string]string{"a": "b"},
			OwnerReferences:            []metav1.OwnerReference{{Name: "o", Controller: ptr(true)}},
			Finalizers:                 []string{"f"},
			ManagedFields: []metav1.ManagedFieldsEntry{{
				Manager:  "m",
				Time:     &stopped,
				FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:spec":{"f:parts":{}}}`)},
			}},
		},
		Spec: WidgetSpec{
			Parts:    []Part{{Name: "a", Colors: []string{"red"}}},
			ByName:   map[string]*Part{"a": {Name: "a", Colors: []string{"blue"}}},
			Selector: map[string]string{"k": "v"},
			Replicas: ptr(int32(3)),
			Size:     resource.MustParse("1Gi"),
			Started:  metav1.NewTime(time.Date(2024, 5, 6, 7, 8, 10, 0, time.UTC)),
			Stopped:  &stopped,
			Free:     map[string]any{"list": []any{map[string]any{"k": "v"}}},
			Grid:     [2]*int32{ptr(int32(1)), ptr(int32(2))},
			Matrix:   [][]string{{"a"}},
			Extra:    &Extra{Note: "n"},
			Untagged: "u",
		},
	}
}

func TestDeepCopySharesNothing(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(w *Widget)
	}{
		{name: "label", mutate: func(w *Widget) { w.Labels["app"] = "changed" }},
		{name: "new label", mutate: func(w *Widget) { w.Labels["new"] = "x" }},
		{name: "annotation", mutate: func(w *Widget) { w.Annotations["a"] = "changed" }},
		{name: "deletion timestamp", mutate: func(w *Widget) { w.DeletionTimestamp.Time = time.Time{} }},
		{name: "grace period", mutate: func(w *Widget) { *w.DeletionGracePeriodSeconds = 1 }},
		{name: "owner reference", mutate: func(w *Widget) { w.OwnerReferences[0].Name = "changed" }},
		{name: "owner controller flag", mutate: func(w *Widget) { *w.OwnerReferences[0].Controller = false }},
		{name: "finalizer", mutate: func(w *Widget) { w.Finalizers[0] = "changed" }},
		{name: "managed fields time", mutate: func(w *Widget) { w.ManagedFields[0].Time.Time = time.Time{} }},
		{name: "managed fields raw", mutate: func(w *Widget) { w.ManagedFields[0].FieldsV1.Raw[0] = '[' }},
		{name: "list of structs", mutate: func(w *Widget) { w.Spec.Parts[0].Name = "changed" }},
		{name: "slice in a list element", mutate: func(w *Widget) { w.Spec.Parts[0].Colors[0] = "changed" }},
		{name: "pointer map value", mutate: func(w *Widget) { w.Spec.ByName["a"].Colors[0] = "changed" }},
		{name: "string map", mutate: func(w *Widget) { w.Spec.Selector["k"] = "changed" }},
		{name: "pointer to int", mutate: func(w *Widget) { *w.Spec.Replicas = 9 }},
		{name: "pointer to time", mutate: func(w *Widget) { w.Spec.Stopped.Time = time.Time{} }},
		{name: "free-form", mutate: func(w *Widget) {
			w.Spec.Free.(map[string]any)["list"].([]any)[0].(map[string]any)["k"] = "changed"
		}},
		{name: "array of pointers", mutate: func(w *Widget) { *w.Spec.Grid[0] = 9 }},
		{name: "slice of slices", mutate: func(w *Widget) { w.Spec.Matrix[0][0] = "changed" }},
		{name: "embedded pointer", mutate: func(w *Widget) { w.Spec.Note = "changed" }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			orig := fullWidget()
			cp := runtime.DeepCopy(orig)
			require.Equal(t, orig, cp, "DeepCopy must equal its input")
			tc.mutate(cp)
			assert.Equal(t, fullWidget(), orig, "mutating %s of the copy changed the original", tc.name)
		})
	}
}

func TestDeepCopyObject(t *testing.T) {
	orig := fullWidget()
	cp, ok := orig.DeepCopyObject().(*Widget)
	require.True(t, ok, "DeepCopyObject returns %T", orig.DeepCopyObject())
	assert.NotSame(t, orig, cp)
	assert.Equal(t, orig, cp)
}

func TestDeepCopyKeepsTime(t *testing.T) {
	cest := time.FixedZone("CEST", 2*3600)
	in := metav1.Time{Time: time.Date(2024, 5, 6, 7, 8, 9, 123, cest)}
	out := runtime.DeepCopy(in)
	assert.True(t, in.Equal(out.Time), "DeepCopy(%v) = %v", in, out)
	assert.Equal(t, cest, out.Location(), "location of DeepCopy(%v)", in)

	w := fullWidget()
	cp := runtime.DeepCopy(w)
	assert.True(t, w.CreationTimestamp.Equal(cp.CreationTimestamp.Time), "creationTimestamp %v vs %v", w.CreationTimestamp, cp.CreationTimestamp)
	assert.True(t, w.Spec.Stopped.Equal(cp.Spec.Stopped.Time), "stopped %v vs %v", w.Spec.Stopped, cp.Spec.Stopped)
	assert.Equal(t, 0, w.Spec.Size.Cmp(cp.Spec.Size), "size %v vs %v", w.Spec.Size, cp.Spec.Size)
}

func TestDeepCopyNil(t *testing.T) {
	assert.Nil(t, runtime.DeepCopy[*Widget](nil), "DeepCopy(nil *Widget)")
	assert.Nil(t, runtime.DeepCopy[map[string]string](nil), "DeepCopy(nil map)")
	assert.Nil(t, runtime.DeepCopy[[]string](nil), "DeepCopy(nil slice)")
	assert.Nil(t, runtime.DeepCopy[any](nil), "DeepCopy(nil any)")
	assert.Nil(t, runtime.DeepCopy[runtime.Object](nil), "DeepCopy(nil runtime.Object)")

	// Nil stays nil and empty stays empty: the difference shows in JSON
	// ("labels" omitted vs {}) and in reflect.DeepEqual.
	w := &Widget{Spec: WidgetSpec{Parts: []Part{}, Selector: map[string]string{}}}
	cp := runtime.DeepCopy(w)
	assert.Nil(t, cp.Labels, "nil map")
	assert.Nil(t, cp.Finalizers, "nil slice")
	assert.Nil(t, cp.DeletionTimestamp, "nil pointer")
	assert.Nil(t, cp.Spec.Extra, "nil embedded pointer")
	assert.Nil(t, cp.Spec.Free, "nil interface")
	assert.NotNil(t, cp.Spec.Parts, "empty slice")
	assert.Empty(t, cp.Spec.Parts, "empty slice")
	assert.NotNil(t, cp.Spec.Selector, "empty map")
	assert.Empty(t, cp.Spec.Selector, "empty map")
}

func TestDeepCopyThroughInterface(t *testing.T) {
	var orig runtime.Object = fullWidget()
	cp := runtime.DeepCopy(orig)
	require.IsType(t, &Widget{}, cp, "DeepCopy[runtime.Object](*Widget)")
	assert.NotSame(t, orig, cp)
	cp.(*Widget).Labels["app"] = "changed"
	assert.Equal(t, fullWidget(), orig, "mutating the copy changed the original")
}
