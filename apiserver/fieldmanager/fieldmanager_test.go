package fieldmanager_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/apierrors"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/meta/v1/unstructured"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/fieldmanager"
	"github.com/minicp/minicp/clock/clocktest"
)

// widgetModels is a small OpenAPI v3 model: a Widget with a granular
// label map, an atomic list, a list-map keyed by port and protocol (with
// protocol defaulted), and a status.
func widgetModels() map[string]map[string]any {
	ref := func(name string) map[string]any { return map[string]any{"$ref": "#/components/schemas/" + name} }
	return map[string]map[string]any{
		"test.Widget": {
			"type": "object",
			"properties": map[string]any{
				"apiVersion": map[string]any{"type": "string"},
				"kind":       map[string]any{"type": "string"},
				"metadata":   map[string]any{"allOf": []any{ref("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta")}},
				"spec":       ref("test.WidgetSpec"),
				"status":     map[string]any{"type": "object", "properties": map[string]any{"ready": map[string]any{"type": "boolean"}}},
			},
			"x-kubernetes-group-version-kind": []any{map[string]any{"group": "example.com", "version": "v1", "kind": "Widget"}},
		},
		"test.WidgetSpec": {
			"type": "object",
			"properties": map[string]any{
				"replicas": map[string]any{"type": "integer", "format": "int32"},
				"color":    map[string]any{"type": "string"},
				"args":     map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
				"ports": map[string]any{
					"type": "array", "items": ref("test.Port"),
					"x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": []any{"port", "protocol"},
				},
			},
		},
		"test.Port": {
			"type": "object",
			"properties": map[string]any{
				"port":     map[string]any{"type": "integer"},
				"protocol": map[string]any{"type": "string", "default": "TCP"},
				"name":     map[string]any{"type": "string"},
			},
		},
		"io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta": {
			"type": "object",
			"properties": map[string]any{
				"name":            map[string]any{"type": "string"},
				"namespace":       map[string]any{"type": "string"},
				"uid":             map[string]any{"type": "string"},
				"resourceVersion": map[string]any{"type": "string"},
				"labels":          map[string]any{"type": "object", "additionalProperties": map[string]any{"type": "string"}},
				"annotations":     map[string]any{"type": "object", "additionalProperties": map[string]any{"type": "string"}},
				"managedFields":   map[string]any{"type": "array", "items": map[string]any{"type": "object"}},
			},
		},
	}
}

var widgetKind = runtime.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}

func newWidgetManager(t *testing.T, subresource string, reset ...string) (*fieldmanager.FieldManager, *clocktest.Fake) {
	t.Helper()
	tc, err := fieldmanager.NewTypeConverter(widgetModels(), false)
	require.NoError(t, err, "NewTypeConverter")
	clk := clocktest.NewFake(time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC))
	fm, err := fieldmanager.New(fieldmanager.Options{TypeConverter: tc, Kind: widgetKind, Subresource: subresource, ResetFields: reset, Clock: clk})
	require.NoError(t, err, "New")
	return fm, clk
}

func widget(t *testing.T, doc string) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal([]byte(doc), &m), "widget(%s)", doc)
	return jsonInts(m).(map[string]any)
}

// jsonInts turns the float64 integers encoding/json decodes into int64,
// as the handlers' decoder gives them.
func jsonInts(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			t[k] = jsonInts(e)
		}
	case []any:
		for i, e := range t {
			t[i] = jsonInts(e)
		}
	case float64:
		if t == float64(int64(t)) {
			return int64(t)
		}
	}
	return v
}

// store turns a merged object into the stored one: an Unstructured with
// the managedFields, and a uid as storage would have given it.
func store(t *testing.T, merged map[string]any, managed []metav1.ManagedFieldsEntry) *unstructured.Unstructured {
	t.Helper()
	data, err := json.Marshal(merged)
	require.NoError(t, err)
	u := &unstructured.Unstructured{}
	_, err = runtime.Decode(data, u)
	require.NoError(t, err)
	u.UID = "uid-1"
	u.ManagedFields = managed
	return u
}

func fieldsOf(t *testing.T, entries []metav1.ManagedFieldsEntry, manager string) string {
	t.Helper()
	for _, e := range entries {
		if e.Manager == manager {
			return string(e.FieldsV1.Raw)
		}
	}
	return ""
}

func TestApplyCreatesAndOwns(t *testing.T) {
	fm, _ := newWidgetManager(t, "", "status")
	merged, managed, err := fm.Apply(nil, widget(t, `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","labels":{"a":"1"}},
		"spec":{"replicas":3,"ports":[{"port":80},{"port":443,"name":"https"}]},"status":{"ready":true}}`), "alice", false)
	require.NoError(t, err)
	assert.Equal(t, int64(3), merged["spec"].(map[string]any)["replicas"])
	require.Len(t, managed, 1)
	assert.Equal(t, metav1.ManagedFieldsEntry{
		Manager: "alice", Operation: "Apply", APIVersion: "example.com/v1",
		Time: &metav1.Time{Time: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)}, FieldsType: "FieldsV1",
		FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:metadata":{"f:labels":{"f:a":{}}},"f:spec":{"f:ports":{"k:{\"port\":80,\"protocol\":\"TCP\"}":{".":{},"f:port":{}},"k:{\"port\":443,\"protocol\":\"TCP\"}":{".":{},"f:name":{},"f:port":{}}},"f:replicas":{}}}`)},
	}, managed[0], "ports sort by value (80 before 443), status is reset")
}

func TestApplySequence(t *testing.T) {
	const base = `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":%s}`
	tests := []struct {
		name string
		// steps run in order; each applies spec as manager (or updates
		// when update is set) on the result of the previous one.
		steps []step
		// wantSpec is the final spec, wantFields each manager's fields.
		wantSpec   string
		wantFields map[string]string
		wantErr    string
	}{
		{
			name:       "two managers share a field",
			steps:      []step{{manager: "a", spec: `{"replicas":3}`}, {manager: "b", spec: `{"replicas":3,"color":"red"}`}},
			wantSpec:   `{"color":"red","replicas":3}`,
			wantFields: map[string]string{"a": `{"f:spec":{"f:replicas":{}}}`, "b": `{"f:spec":{"f:color":{},"f:replicas":{}}}`},
		},
		{
			name:    "conflict",
			steps:   []step{{manager: "a", spec: `{"replicas":3}`}, {manager: "b", spec: `{"replicas":5}`}},
			wantErr: `Apply failed with 1 conflict: conflict with "a": .spec.replicas`,
		},
		{
			name:       "force takes ownership",
			steps:      []step{{manager: "a", spec: `{"replicas":3,"color":"red"}`}, {manager: "b", spec: `{"replicas":5}`, force: true}},
			wantSpec:   `{"color":"red","replicas":5}`,
			wantFields: map[string]string{"a": `{"f:spec":{"f:color":{}}}`, "b": `{"f:spec":{"f:replicas":{}}}`},
		},
		{
			name:       "a dropped field is removed",
			steps:      []step{{manager: "a", spec: `{"replicas":3,"color":"red"}`}, {manager: "a", spec: `{"replicas":3}`}},
			wantSpec:   `{"replicas":3}`,
			wantFields: map[string]string{"a": `{"f:spec":{"f:replicas":{}}}`},
		},
		{
			name:       "a dropped field someone else owns stays",
			steps:      []step{{manager: "a", spec: `{"color":"red"}`}, {manager: "b", spec: `{"color":"red"}`}, {manager: "a", spec: `{"replicas":1}`}},
			wantSpec:   `{"color":"red","replicas":1}`,
			wantFields: map[string]string{"a": `{"f:spec":{"f:replicas":{}}}`, "b": `{"f:spec":{"f:color":{}}}`},
		},
		{
			name:       "update after apply",
			steps:      []step{{manager: "a", spec: `{"replicas":3}`}, {manager: "kubectl-edit", spec: `{"replicas":4}`, update: true}},
			wantSpec:   `{"replicas":4}`,
			wantFields: map[string]string{"kubectl-edit": `{"f:spec":{"f:replicas":{}}}`},
		},
		{
			name: "conflict with an updater names its version",
			steps: []step{{manager: "a", spec: `{"replicas":3}`}, {manager: "kubectl-edit", spec: `{"replicas":4}`, update: true},
				{manager: "a", spec: `{"replicas":5}`}},
			wantErr: `Apply failed with 1 conflict: conflict with "kubectl-edit" using example.com/v1: .spec.replicas`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fm, _ := newWidgetManager(t, "", "status")
			var live *unstructured.Unstructured
			var err error
			for _, s := range tc.steps {
				doc := widget(t, fmt.Sprintf(base, s.spec))
				if s.update {
					obj := store(t, doc, live.ManagedFields)
					obj.ManagedFields = nil
					fm.Update(live, obj, s.manager)
					live = obj
					continue
				}
				var in runtime.Object
				if live != nil {
					in = live
				}
				var merged map[string]any
				var managed []metav1.ManagedFieldsEntry
				merged, managed, err = fm.Apply(in, doc, s.manager, s.force)
				if err != nil {
					break
				}
				live = store(t, merged, managed)
			}
			if tc.wantErr != "" {
				require.Error(t, err)
				assert.Equal(t, tc.wantErr, err.Error())
				assert.True(t, apierrors.IsConflict(err), "409 Conflict")
				assert.True(t, apierrors.HasStatusCause(err, metav1.CauseTypeFieldManagerConflict), "FieldManagerConflict cause")
				return
			}
			require.NoError(t, err)
			spec, _ := json.Marshal(live.Content["spec"])
			assert.JSONEq(t, tc.wantSpec, string(spec), "spec")
			got := map[string]string{}
			for _, e := range live.ManagedFields {
				got[e.Manager] = string(e.FieldsV1.Raw)
			}
			assert.Equal(t, tc.wantFields, got, "managed fields")
		})
	}
}

type step struct {
	manager, spec string
	force, update bool
}
