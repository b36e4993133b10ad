package apiextensions

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	kapiextensions "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	kapiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/yaml"

	"github.com/minicp/minicp/api/apierrors"
	apiextensionsv1 "github.com/minicp/minicp/api/apiextensions/v1"
)

// schemas decodes a schema written as YAML into both sides' types: the
// minicp v1 type, and upstream's internal type (which is what upstream's
// engine takes, after the conversion the API server does).
func schemas(t *testing.T, y string) (*apiextensionsv1.JSONSchemaProps, *kapiextensions.JSONSchemaProps) {
	t.Helper()
	j, err := yaml.YAMLToJSON([]byte(y))
	require.NoError(t, err, "schema YAML")
	var m apiextensionsv1.JSONSchemaProps
	require.NoError(t, json.Unmarshal(j, &m), "minicp schema")
	var v1 kapiextensionsv1.JSONSchemaProps
	require.NoError(t, json.Unmarshal(j, &v1), "upstream schema")
	var internal kapiextensions.JSONSchemaProps
	require.NoError(t, kapiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(&v1, &internal, nil))
	return &m, &internal
}

// object decodes a JSON or YAML document as the API server decodes a
// custom resource (int64 for integral literals, float64 otherwise).
func object(t *testing.T, doc string) any {
	t.Helper()
	j, err := yaml.YAMLToJSON([]byte(doc))
	require.NoError(t, err, "object YAML")
	var v any
	require.NoError(t, utiljson.Unmarshal(j, &v), "object JSON")
	return v
}

// deepCopy copies a JSON value through its encoding, keeping int64s.
func deepCopy(t *testing.T, v any) any {
	t.Helper()
	j, err := json.Marshal(v)
	require.NoError(t, err)
	var out any
	require.NoError(t, utiljson.Unmarshal(j, &out))
	return out
}

// minicpLines and upstreamLines render field errors as comparable lines:
// type, field and the whole message.
func minicpLines(errs apierrors.FieldErrors) []string {
	var out []string
	for _, e := range errs {
		out = append(out, fmt.Sprintf("%s | %s | %s", e.Type, e.Field, e.Error()))
	}
	slices.Sort(out)
	return out
}

func upstreamLines(errs field.ErrorList) []string {
	var out []string
	for _, e := range errs {
		msg := e.Error()
		out = append(out, fmt.Sprintf("%s | %s | %s", string(e.Type), e.Field, msg))
	}
	slices.Sort(out)
	return out
}

// withoutCEL drops the errors of CEL cost estimation, which minicp's CRD
// validation does not do.
func withoutCEL(errs field.ErrorList) field.ErrorList {
	var out field.ErrorList
	for _, e := range errs {
		if strings.Contains(e.Detail, "estimated rule cost") || strings.Contains(e.Detail, "estimated messageExpression cost") {
			continue
		}
		out = append(out, e)
	}
	return out
}
