package apiextensions

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	kapiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	apiextensionsv1 "github.com/minicp/minicp/api/apiextensions/v1"
)

// conversionReviews are ConversionReviews as a webhook sees and answers
// them: requests with objects, responses with converted objects or a
// failure, and the empty forms.
var conversionReviews = map[string]string{
	"request": `{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"0b4b5b2e","desiredAPIVersion":"example.com/v2",
		"objects":[{"apiVersion":"example.com/v1","kind":"Gizmo","metadata":{"name":"a","namespace":"default"},"spec":{"color":"red"}},
		{"apiVersion":"example.com/v1","kind":"Gizmo","metadata":{"name":"b"}}]}}`,
	"success": `{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","response":{"uid":"0b4b5b2e",
		"convertedObjects":[{"apiVersion":"example.com/v2","kind":"Gizmo","metadata":{"name":"a"},"spec":{"colour":"red"}}],
		"result":{"status":"Success"}}}`,
	"failure": `{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","response":{"uid":"0b4b5b2e",
		"result":{"status":"Failure","message":"no colour","reason":"Invalid","code":422}}}`,
	"empty request":  `{"request":{}}`,
	"empty response": `{"response":{}}`,
	"empty":          `{}`,
}

// TestConversionReviewJSONMatchesKubernetes decodes each review with
// minicp's types and with upstream's, encodes both and requires the same
// bytes; then each side must read what the other wrote alike.
func TestConversionReviewJSONMatchesKubernetes(t *testing.T) {
	for name, doc := range conversionReviews {
		t.Run(name, func(t *testing.T) {
			var k kapiextensionsv1.ConversionReview
			require.NoError(t, json.Unmarshal([]byte(doc), &k), "upstream decode")
			want, err := json.Marshal(&k)
			require.NoError(t, err)

			var m apiextensionsv1.ConversionReview
			require.NoError(t, json.Unmarshal([]byte(doc), &m), "minicp decode")
			got, err := json.Marshal(&m)
			require.NoError(t, err)
			assert.JSONEq(t, string(want), string(got), "minicp encodes what upstream encodes")
			assert.Equal(t, string(want), string(got), "byte for byte")

			var fromMinicp kapiextensionsv1.ConversionReview
			require.NoError(t, json.Unmarshal(got, &fromMinicp), "upstream decodes minicp's bytes")
			again, err := json.Marshal(&fromMinicp)
			require.NoError(t, err)
			assert.Equal(t, string(want), string(again))
		})
	}
}

// TestConversionReviewTagsMatchKubernetes checks the json and protobuf
// tags of the review types field by field. The objects are
// json.RawMessage where upstream has runtime.RawExtension; the JSON test
// covers that they are written alike.
func TestConversionReviewTagsMatchKubernetes(t *testing.T) {
	pairs := []struct{ m, k reflect.Type }{
		{reflect.TypeFor[apiextensionsv1.ConversionReview](), reflect.TypeFor[kapiextensionsv1.ConversionReview]()},
		{reflect.TypeFor[apiextensionsv1.ConversionRequest](), reflect.TypeFor[kapiextensionsv1.ConversionRequest]()},
		{reflect.TypeFor[apiextensionsv1.ConversionResponse](), reflect.TypeFor[kapiextensionsv1.ConversionResponse]()},
	}
	for _, p := range pairs {
		require.Equal(t, p.k.NumField(), p.m.NumField(), "%s: number of fields", p.m.Name())
		for i := range p.m.NumField() {
			f := p.m.Field(i)
			kf, ok := p.k.FieldByName(f.Name)
			if !assert.True(t, ok, "%s.%s: upstream has no such field", p.m.Name(), f.Name) || f.Name == "TypeMeta" {
				continue
			}
			for _, key := range []string{"json", "protobuf"} {
				assert.Equal(t, kf.Tag.Get(key), f.Tag.Get(key), "%s.%s: %s tag", p.m.Name(), f.Name, key)
			}
		}
	}
}
