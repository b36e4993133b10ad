package garbagecollector_test

import (
	"testing"

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
	"github.com/minicp/minicp/informer"
)

var developersGVR = runtime.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "developers"}

// developersCRD is the CRD of the namespaced Developer kind, whose
// objects may hold any field.
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

// crdClient is a client of the API server with a scheme of its own: the
// test's view, which shares nothing with the collector's.
func (e *env) crdClient(t *testing.T) *client.Client {
	t.Helper()
	return clustertest.InMemoryClient(t, e.api)
}

// installDevelopers installs the Developer CRD, waits until it is
// Established, and returns the dynamic client of developers in default.
func (e *env) installDevelopers(t *testing.T) *client.DynamicResource {
	t.Helper()
	cl := e.crdClient(t)
	ctx, cancel := clustertest.WaitContext(t)
	defer cancel()
	_, err := cluster.InstallCRDs(ctx, cl, []*apiextensionsv1.CustomResourceDefinition{developersCRD()})
	require.NoError(t, err, "install the Developer CRD")
	devs, err := client.NewDynamicResource(ctx, cl, developersGVR)
	require.NoError(t, err, "the dynamic client of developers")
	return devs.Namespace("default")
}

func createDeveloper(t *testing.T, devs *client.DynamicResource, name string, owners ...metav1.OwnerReference) *unstructured.Unstructured {
	t.Helper()
	created, err := devs.Create(t.Context(), &unstructured.Unstructured{
		TypeMeta:   metav1.TypeMeta{APIVersion: "example.com/v1", Kind: "Developer"},
		ObjectMeta: metav1.ObjectMeta{Name: name, OwnerReferences: owners},
		Content:    map[string]any{"spec": map[string]any{"language": "go"}},
	}, client.WriteOptions{})
	require.NoError(t, err, "create developer %s", name)
	return created
}

func devRef(dev *unstructured.Unstructured, block *bool) metav1.OwnerReference {
	return ref(dev, "example.com/v1", "Developer", block)
}

// A custom resource whose CRD was installed after the collector started
// is collected with its owner, a ConfigMap.
func TestCustomResourceIsCollectedWithItsConfigMapOwner(t *testing.T) {
	e := newStartedEnv(t)
	devs := e.installDevelopers(t)
	owner := e.createConfigMap(t, "default", "team")
	createDeveloper(t, devs, "megyo", cmRef(owner, nil))

	require.NoError(t, e.cs.ConfigMaps("default").Delete(t.Context(), "team", metav1.DeleteOptions{}))
	waitGone(t, devs, "megyo")
}

// A custom resource owns a ConfigMap and another custom resource: they go
// with it, and, deleted in the foreground, it waits for them.
func TestCustomResourceOwner(t *testing.T) {
	tests := []struct {
		name   string
		policy metav1.DeletionPropagation
	}{
		{name: "background", policy: metav1.DeletePropagationBackground},
		{name: "foreground", policy: metav1.DeletePropagationForeground},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newStartedEnv(t)
			devs := e.installDevelopers(t)
			cms := e.cs.ConfigMaps("default")
			lead := createDeveloper(t, devs, "lead")
			// A finalizer holds the ConfigMap, so a foreground deletion
			// can be seen waiting for it.
			notes, err := cms.Create(t.Context(), &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "notes",
				OwnerReferences: []metav1.OwnerReference{devRef(lead, ptr(true))}, Finalizers: []string{"example.com/hold"}}},
				client.WriteOptions{})
			require.NoError(t, err, "create configmap notes")
			e.seen.created(t, "configmaps", notes)
			createDeveloper(t, devs, "apprentice", devRef(lead, ptr(true)))
			// The graph must know notes as lead's dependent before lead's
			// deletion is processed, or lead would not wait for it.
			e.waitIdle(t)

			deleteWith(t, devs, "lead", tc.policy)
			held := waitFor(t, cms, "notes", "deleted by the collector", func(cm *corev1.ConfigMap, exists bool) bool {
				return exists && cm.DeletionTimestamp != nil
			})
			assert.Equal(t, notes.UID, held.UID)
			waitGone(t, devs, "apprentice")
			if tc.policy == metav1.DeletePropagationForeground {
				owner, ok := get(t, devs, "lead")
				require.True(t, ok, "a foreground deletion waits for its blocking dependents")
				assert.Contains(t, owner.Finalizers, metav1.FinalizerDeleteDependents)
			}

			held.Finalizers = nil
			_, err = cms.Update(t.Context(), held, client.WriteOptions{})
			require.NoError(t, err, "release configmap notes")
			waitGone(t, cms, "notes")
			waitGone(t, devs, "lead")
		})
	}
}

// Orphaning a custom resource's dependents removes their reference to it
// and keeps them.
func TestCustomResourceOwnerOrphansItsDependents(t *testing.T) {
	e := newStartedEnv(t)
	devs := e.installDevelopers(t)
	cms := e.cs.ConfigMaps("default")
	lead := createDeveloper(t, devs, "lead")
	notes := e.createConfigMap(t, "default", "notes", devRef(lead, nil))
	// The graph must know notes as lead's dependent before lead's
	// deletion is processed, or notes would be collected, not orphaned.
	e.waitIdle(t)

	deleteWith(t, devs, "lead", metav1.DeletePropagationOrphan)
	orphan := waitFor(t, cms, "notes", "orphaned", func(cm *corev1.ConfigMap, exists bool) bool {
		return exists && len(cm.OwnerReferences) == 0
	})
	assert.Equal(t, notes.UID, orphan.UID)
	waitGone(t, devs, "lead")
	_, ok := get(t, cms, "notes")
	assert.True(t, ok, "an orphan stays")
}

// When a CRD is deleted, the collector stops watching its resource and
// stops the informer it ran for it; when it comes back, the collector
// watches it again.
func TestCRDDeletedAndInstalledAgain(t *testing.T) {
	e := newStartedEnv(t)
	ctx, cancel := clustertest.WaitContext(t)
	defer cancel()
	devs := e.installDevelopers(t)
	require.NoError(t, e.gc.WaitMonitored(ctx, developersGVR, true), "the collector watches developers")
	inf := e.gc.MonitorInformer(developersGVR)
	require.NotNil(t, inf)
	owner := e.createConfigMap(t, "default", "team")
	createDeveloper(t, devs, "first", cmRef(owner, nil))

	crds, err := client.NewResource[*apiextensionsv1.CustomResourceDefinition, *apiextensionsv1.CustomResourceDefinitionList](
		e.crdClient(t), apiextensionsv1.SchemeGroupVersion.WithResource("customresourcedefinitions"))
	require.NoError(t, err)
	require.NoError(t, crds.Delete(ctx, "developers.example.com", metav1.DeleteOptions{}))
	clustertest.WaitFor(t, crds, "developers.example.com", "to be gone",
		func(_ *apiextensionsv1.CustomResourceDefinition, found bool) bool { return !found })
	require.NoError(t, e.gc.WaitMonitored(ctx, developersGVR, false), "the monitor goes with the CRD")
	_, err = inf.AddEventHandler(informer.ResourceEventHandlerFuncs{}, informer.HandlerOptions{})
	assert.ErrorContains(t, err, "stopped", "the collector stopped its informer of developers")

	devs = e.installDevelopers(t)
	require.NoError(t, e.gc.WaitMonitored(ctx, developersGVR, true), "the collector watches developers again")
	createDeveloper(t, devs, "second", cmRef(owner, nil))
	require.NoError(t, e.cs.ConfigMaps("default").Delete(ctx, "team", metav1.DeleteOptions{}))
	waitGone(t, devs, "second")
}
