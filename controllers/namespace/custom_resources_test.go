package namespace_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	apiextensionsv1 "github.com/minicp/minicp/api/apiextensions/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/meta/v1/unstructured"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster"
	"github.com/minicp/minicp/cluster/clustertest"
)

var developersGVR = runtime.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "developers"}

// developersCRD is the CRD of the namespaced Developer kind.
func developersCRD() *apiextensionsv1.CustomResourceDefinition {
	preserve := true
	return &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "developers.example.com"},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: "example.com",
			Scope: apiextensionsv1.NamespaceScoped,
			Names: apiextensionsv1.CustomResourceDefinitionNames{Plural: "developers", Kind: "Developer"},
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{Name: "v1", Served: true, Storage: true,
				Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{
					Type: "object", XPreserveUnknownFields: &preserve}}}},
		},
	}
}

// installDevelopers installs the Developer CRD through a client of its
// own (whose scheme the controller does not share), waits until it is
// Established, and returns the dynamic client of developers.
func (h *harness) installDevelopers(t *testing.T, ctx context.Context) *client.DynamicResource {
	t.Helper()
	cl := clustertest.InMemoryClient(t, h.api)
	_, err := cluster.InstallCRDs(ctx, cl, []*apiextensionsv1.CustomResourceDefinition{developersCRD()})
	require.NoError(t, err, "install the Developer CRD")
	devs, err := client.NewDynamicResource(ctx, cl, developersGVR)
	require.NoError(t, err, "the dynamic client of developers")
	return devs
}

// TestNamespaceDeletionDeletesCustomResources: the custom resources of a
// CRD installed after the controller started are deleted with their
// namespace, are reported while a finalizer holds one, and other
// namespaces keep theirs.
func TestNamespaceDeletionDeletesCustomResources(t *testing.T) {
	h := newAPIHarness(t)
	ctx := testContext(t)
	for _, name := range []string{"team", "bystander"} {
		_, err := h.cs.Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}, client.WriteOptions{})
		require.NoError(t, err, "create namespace %s", name)
	}
	devs := h.installDevelopers(t, ctx)
	create := func(ns, name string, finalizers ...string) {
		_, err := devs.Namespace(ns).Create(ctx, &unstructured.Unstructured{
			TypeMeta:   metav1.TypeMeta{APIVersion: "example.com/v1", Kind: "Developer"},
			ObjectMeta: metav1.ObjectMeta{Name: name, Finalizers: finalizers},
		}, client.WriteOptions{})
		require.NoError(t, err, "create developer %s/%s", ns, name)
	}
	create("team", "megyo")
	create("team", "pinned", "example.com/hold")
	create("bystander", "keep")
	w := h.watchNamespaces(t, ctx)

	h.deleting(t, ctx, "team")
	h.step(t, ctx, 5*time.Second)
	ns, err := h.cs.Namespaces().Get(ctx, "team", client.GetOptions{})
	require.NoError(t, err, "the namespace waits for the finalizer")
	assert.Equal(t, "Some resources are remaining: developers.example.com has 1 resource instances",
		condition(t, ns, corev1.NamespaceContentRemaining).Message)
	assert.Equal(t, corev1.ConditionFalse, condition(t, ns, corev1.NamespaceDeletionDiscoveryFailure).Status)
	list, err := devs.Namespace("team").List(ctx, client.ListOptions{})
	require.NoError(t, err, "list developers in team")
	require.Len(t, list.Items, 1, "only the held developer is left")
	pinned := &list.Items[0]
	assert.Equal(t, "pinned", pinned.Name)
	assert.NotNil(t, pinned.DeletionTimestamp, "pinned is being deleted")

	pinned.Finalizers = nil
	_, err = devs.Namespace("team").Update(ctx, pinned, client.WriteOptions{})
	require.NoError(t, err, "release pinned")
	h.stepUntilGone(t, ctx, w, "team", 5*time.Second)
	list, err = devs.Namespace("team").List(ctx, client.ListOptions{})
	require.NoError(t, err)
	assert.Empty(t, list.Items, "no developer outlives its namespace")
	_, err = devs.Namespace("bystander").Get(ctx, "keep", client.GetOptions{})
	assert.NoError(t, err, "another namespace keeps its developers")
}
