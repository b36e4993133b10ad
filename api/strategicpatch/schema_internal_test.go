package strategicpatch

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
)

func TestLookupField(t *testing.T) {
	type inner struct {
		Shadowed string `json:"shadowed" patchStrategy:"inner"`
		Deep     string `json:"deep"`
	}
	type outer struct {
		inner    `json:",inline"`
		Shadowed []string `json:"shadowed" patchStrategy:"merge"`
		Skipped  string   `json:"-"`
	}
	tests := []struct {
		name      string
		t         reflect.Type
		key       string
		wantType  reflect.Type
		wantMeta  fieldSchema
		wantElem  reflect.Type
		wantKnown bool
	}{
		{name: "merge list", t: reflect.TypeFor[corev1.PodSpec](), key: "containers",
			wantType: reflect.TypeFor[[]corev1.Container](), wantElem: reflect.TypeFor[corev1.Container](),
			wantMeta: fieldSchema{strategies: []string{"merge"}, mergeKey: "name"}, wantKnown: true},
		{name: "two strategies", t: reflect.TypeFor[*corev1.PodSpec](), key: "volumes",
			wantType: reflect.TypeFor[[]corev1.Volume](), wantElem: reflect.TypeFor[corev1.Volume](),
			wantMeta: fieldSchema{strategies: []string{"merge", "retainKeys"}, mergeKey: "name"}, wantKnown: true},
		{name: "named embedded struct", t: reflect.TypeFor[corev1.Pod](), key: "metadata",
			wantType: reflect.TypeFor[metav1.ObjectMeta](), wantKnown: true},
		{name: "inline embedded struct", t: reflect.TypeFor[corev1.Volume](), key: "hostPath",
			wantType: reflect.TypeFor[*corev1.HostPathVolumeSource](), wantKnown: true},
		{name: "inline TypeMeta", t: reflect.TypeFor[corev1.Pod](), key: "kind",
			wantType: reflect.TypeFor[string](), wantKnown: true},
		{name: "case-insensitive like encoding/json", t: reflect.TypeFor[corev1.PodSpec](), key: "Containers",
			wantType: reflect.TypeFor[[]corev1.Container](), wantElem: reflect.TypeFor[corev1.Container](),
			wantMeta: fieldSchema{strategies: []string{"merge"}, mergeKey: "name"}, wantKnown: true},
		{name: "shallower field wins", t: reflect.TypeFor[outer](), key: "shadowed",
			wantType: reflect.TypeFor[[]string](), wantElem: reflect.TypeFor[string](),
			wantMeta: fieldSchema{strategies: []string{"merge"}}, wantKnown: true},
		{name: "embedded field", t: reflect.TypeFor[outer](), key: "deep", wantType: reflect.TypeFor[string](), wantKnown: true},
		{name: "json:\"-\"", t: reflect.TypeFor[outer](), key: "Skipped"},
		{name: "unknown field", t: reflect.TypeFor[corev1.PodSpec](), key: "colour"},
		{name: "map value", t: reflect.TypeFor[map[string]corev1.Container](), key: "any",
			wantType: reflect.TypeFor[corev1.Container](), wantKnown: true},
		{name: "type that decodes itself", t: reflect.TypeFor[metav1.Time](), key: "Time"},
		{name: "nil", t: nil, key: "x"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := lookupField(tc.t, tc.key)
			assert.Equal(t, tc.wantKnown, f.typ != nil, "known")
			assert.Equal(t, tc.wantType, f.typ, "type")
			assert.Equal(t, tc.wantMeta.strategies, f.strategies, "strategies")
			assert.Equal(t, tc.wantMeta.mergeKey, f.mergeKey, "merge key")
			assert.Equal(t, tc.wantElem, f.elem(), "elem")
		})
	}
}

func TestFieldStrategy(t *testing.T) {
	tests := []struct {
		strategies []string
		want       string
		wantErr    bool
	}{
		{nil, "", false},
		{[]string{"merge"}, "merge", false},
		{[]string{"retainKeys"}, "", false},
		{[]string{"merge", "retainKeys"}, "merge", false},
		{[]string{"retainKeys", "replace"}, "replace", false},
		{[]string{"merge", "replace"}, "", true},
		{[]string{"merge", "retainKeys", "replace"}, "", true},
	}
	for _, tc := range tests {
		got, err := fieldSchema{strategies: tc.strategies}.strategy("f")
		assert.Equal(t, tc.wantErr, err != nil, "strategy(%q): %v", tc.strategies, err)
		assert.Equal(t, tc.want, got, "strategy(%q)", tc.strategies)
	}
}
