package openapi

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"k8s.io/client-go/openapi/openapitest"
)

// upstreamGroupVersions are the documents client-go ships from a real
// kube-apiserver that minicp also serves.
var upstreamGroupVersions = []string{"api/v1", "apis/apps/v1", "apis/batch/v1"}

// TestSchemasMatchUpstream compares, for every definition minicp
// publishes that kube-apiserver publishes too, each property both have:
// the same type and format (or the same referenced definition), the
// same element and value types, the same patch strategy and merge key.
// The documents client-go ships come from an older Kubernetes, so a
// field or definition only minicp has is checked by
// TestSchemasMatchUpstreamGoTypes instead; and since upstream marks
// fields optional in comments too, required-ness is only logged.
func TestSchemasMatchUpstream(t *testing.T) {
	s := newServer(t)
	paths, err := openapitest.NewEmbeddedFileClient().Paths()
	require.NoError(t, err)
	for _, gv := range upstreamGroupVersions {
		t.Run(gv, func(t *testing.T) {
			data, err := paths[gv].Schema("application/json")
			require.NoError(t, err, "upstream %s", gv)
			want := componentSchemas(t, data)
			body, _ := s.get("/openapi/v3/"+gv, "application/json")
			got := componentSchemas(t, body)
			compared := 0
			for name, def := range got {
				up, ok := want[name]
				if !ok {
					continue
				}
				compared++
				compareDefinition(t, name, def, up)
			}
			require.NotZero(t, compared)
			t.Logf("%s: %d definitions compared", gv, compared)
		})
	}
}

func compareDefinition(t *testing.T, name string, got, want map[string]any) {
	t.Helper()
	if gs, ws := shape(got), shape(want); gs != ws {
		t.Errorf("%s: minicp %s, upstream %s", name, gs, ws)
	}
	_, knownGVK := knownDifferences[name+".x-kubernetes-group-version-kind"]
	if g, w := got["x-kubernetes-group-version-kind"], want["x-kubernetes-group-version-kind"]; !knownGVK && fmt.Sprint(g) != fmt.Sprint(w) {
		t.Errorf("%s: x-kubernetes-group-version-kind %v, upstream %v", name, g, w)
	}
	gotProps, _ := got["properties"].(map[string]any)
	wantProps, _ := want["properties"].(map[string]any)
	wantRequired := stringList(want["required"])
	for prop, gp := range gotProps {
		wp, ok := wantProps[prop].(map[string]any)
		if _, known := knownDifferences[name+"."+prop]; !ok || known {
			continue
		}
		g, w := gp.(map[string]any), wp
		if gs, ws := shape(g), shape(w); gs != ws {
			t.Errorf("%s.%s: minicp %s, upstream %s", name, prop, gs, ws)
		}
		for _, ext := range []string{"x-kubernetes-patch-strategy", "x-kubernetes-patch-merge-key"} {
			if g[ext] != w[ext] {
				t.Errorf("%s.%s: %s %v, upstream %v", name, prop, ext, g[ext], w[ext])
			}
		}
		if gr, wr := slices.Contains(stringList(got["required"]), prop), slices.Contains(wantRequired, prop); gr != wr {
			t.Logf("%s.%s: required %v, upstream %v", name, prop, gr, wr)
		}
	}
}

// shape describes what values a schema admits, without its words:
// "string/int-or-string", "[]ref:io.k8s.api.core.v1.Container",
// "map[string]".
func shape(s map[string]any) string {
	if ref, ok := s["$ref"].(string); ok {
		return "ref:" + ref[strings.LastIndex(ref, "/")+1:]
	}
	if all, ok := s["allOf"].([]any); ok && len(all) == 1 {
		return shape(all[0].(map[string]any))
	}
	if one, ok := s["oneOf"].([]any); ok {
		var alts []string
		for _, alt := range one {
			alts = append(alts, shape(alt.(map[string]any)))
		}
		return fmt.Sprintf("%v/%v", alts, s["format"])
	}
	typ, _ := s["type"].(string)
	switch typ {
	case "array":
		items, _ := s["items"].(map[string]any)
		return "[]" + shape(items)
	case "object":
		if ap, ok := s["additionalProperties"].(map[string]any); ok {
			return "map[" + shape(ap) + "]"
		}
		return "object"
	}
	if f, ok := s["format"].(string); ok {
		return typ + "/" + f
	}
	return typ
}

func componentSchemas(t *testing.T, doc []byte) map[string]map[string]any {
	t.Helper()
	var d struct {
		Components struct {
			Schemas map[string]map[string]any `json:"schemas"`
		} `json:"components"`
	}
	require.NoError(t, json.Unmarshal(doc, &d))
	return d.Components.Schemas
}

func stringList(v any) []string {
	list, _ := v.([]any)
	var out []string
	for _, s := range list {
		out = append(out, fmt.Sprint(s))
	}
	return out
}
