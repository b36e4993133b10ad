package client_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	apiextensionsv1 "github.com/minicp/minicp/api/apiextensions/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster"
	"github.com/minicp/minicp/cluster/clustertest"
)

var developersGVR = runtime.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "developers"}

// developersCRD is the CRD of the namespaced Developer kind: v1 (stored,
// and preferred, being listed first) and v1beta1, both with a status
// subresource, a short name and a category.
func developersCRD() *apiextensionsv1.CustomResourceDefinition {
	preserve := true
	version := func(name string, storage bool) apiextensionsv1.CustomResourceDefinitionVersion {
		return apiextensionsv1.CustomResourceDefinitionVersion{
			Name: name, Served: true, Storage: storage,
			Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{
				Type: "object", XPreserveUnknownFields: &preserve,
			}},
			Subresources: &apiextensionsv1.CustomResourceSubresources{Status: &apiextensionsv1.CustomResourceSubresourceStatus{}},
		}
	}
	return &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "developers.example.com"},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: "example.com",
			Scope: apiextensionsv1.NamespaceScoped,
			Names: apiextensionsv1.CustomResourceDefinitionNames{
				Plural: "developers", Singular: "developer", Kind: "Developer",
				ShortNames: []string{"devs"}, Categories: []string{"all"},
			},
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{version("v1", true), version("v1beta1", false)},
		},
	}
}

// installCRD creates crd through cl and returns once it is Established.
func installCRD(t *testing.T, cl *client.Client, crd *apiextensionsv1.CustomResourceDefinition) {
	t.Helper()
	ctx, cancel := clustertest.WaitContext(t)
	defer cancel()
	_, err := cluster.InstallCRDs(ctx, cl, []*apiextensionsv1.CustomResourceDefinition{crd})
	require.NoError(t, err, "install CRD %s", crd.Name)
}
