package schema

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"

	"github.com/minicp/minicp/api/apierrors"
	apiextensionsv1 "github.com/minicp/minicp/api/apiextensions/v1"
)

// props decodes a schema written as YAML.
func props(t *testing.T, y string) *apiextensionsv1.JSONSchemaProps {
	t.Helper()
	j, err := yaml.YAMLToJSON([]byte(y))
	require.NoError(t, err, "schema YAML %s", y)
	var p apiextensionsv1.JSONSchemaProps
	require.NoError(t, json.Unmarshal(j, &p), "schema %s", y)
	return &p
}

// structural builds a Structural from YAML.
func structural(t *testing.T, y string) *Structural {
	t.Helper()
	s, err := NewStructural(props(t, y))
	require.NoError(t, err, "NewStructural(%s)", y)
	return s
}

// value decodes a JSON (or YAML) document as the API server does.
func value(t *testing.T, doc string) any {
	t.Helper()
	j, err := yaml.YAMLToJSON([]byte(doc))
	require.NoError(t, err, "value %s", doc)
	v, err := DecodeJSON(j)
	require.NoError(t, err, "value %s", doc)
	return v
}

// messages renders errors as their whole messages.
func messages(errs apierrors.FieldErrors) []string {
	out := []string{}
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}
