package informer_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	apiextensionsv1 "github.com/minicp/minicp/api/apiextensions/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/meta/v1/unstructured"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/apiservertest"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/informer"
	"github.com/minicp/minicp/storage/storagetest"
)

var developersGVR = runtime.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "developers"}

// Developer is a program's Go type for the Developer custom resource.
type Developer struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitzero"`
	Spec              DeveloperSpec `json:"spec,omitzero"`
}

// DeveloperSpec is what a Developer asks for.
type DeveloperSpec struct {
	Language string `json:"language,omitempty"`
}

// DeveloperList is a list of Developers.
type DeveloperList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitzero"`
	Items           []Developer `json:"items"`
}

func (d *Developer) DeepCopyObject() runtime.Object     { return runtime.DeepCopy(d) }
func (d *DeveloperList) DeepCopyObject() runtime.Object { return runtime.DeepCopy(d) }

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

// typeRecorder records each handler call as "add|update|delete NAME
// GOTYPE LANGUAGE", whatever Go type the informer holds.
type typeRecorder struct{ lines chan string }

func newTypeRecorder() *typeRecorder { return &typeRecorder{lines: make(chan string, 100)} }

func (r *typeRecorder) record(verb string, obj any) {
	if tomb, ok := obj.(informer.DeletedFinalStateUnknown); ok {
		obj = tomb.Obj
	}
	lang := ""
	switch o := obj.(type) {
	case *Developer:
		lang = o.Spec.Language
	case *unstructured.Unstructured:
		lang, _ = unstructured.NestedString(o.Content, "spec", "language")
	}
	r.lines <- fmt.Sprintf("%s %s %T %s", verb, metav1.MustAccessor(obj.(runtime.Object)).Name, obj, lang)
}

func (r *typeRecorder) OnAdd(obj runtime.Object, _ bool) { r.record("add", obj) }
func (r *typeRecorder) OnUpdate(_, obj runtime.Object)   { r.record("update", obj) }
func (r *typeRecorder) OnDelete(obj any)                 { r.record("delete", obj) }

func (r *typeRecorder) next(t *testing.T) string {
	t.Helper()
	return clustertest.Receive(t, r.lines, "handler call")
}

// startFactory runs f until the test ends and waits for its informers to
// sync.
func startFactory(t *testing.T, f *informer.SharedInformerFactory) {
	t.Helper()
	clustertest.Start(t, f)
	waitCtx, waitCancel := clustertest.WaitContext(t)
	defer waitCancel()
	require.NoError(t, f.WaitForCacheSync(waitCtx))
}

// An informer of a custom resource holds unstructured objects once the
// dynamic client registered the resource, or the program's own Go types
// when it registered them; either way it follows adds, updates and
// deletes, and survives its CRD being deleted.
func TestInformerOfCustomResource(t *testing.T) {
	tests := []struct {
		name string
		// register makes the client's scheme know developers.
		register func(t *testing.T, scheme *runtime.Scheme, cl *client.Client)
		wantType string
	}{
		{name: "unstructured", wantType: "*unstructured.Unstructured", register: func(t *testing.T, _ *runtime.Scheme, cl *client.Client) {
			_, err := client.NewDynamicResource(t.Context(), cl, developersGVR)
			require.NoError(t, err, "NewDynamicResource registers developers")
		}},
		{name: "go types", wantType: "*informer_test.Developer", register: func(t *testing.T, scheme *runtime.Scheme, _ *client.Client) {
			scheme.AddKnownTypes(developersGVR.GroupVersion(), &Developer{}, &DeveloperList{})
			require.NoError(t, scheme.AddResource(runtime.ResourceInfo{GVR: developersGVR, Kind: "Developer",
				Namespaced: true, Verbs: runtime.AllVerbs}))
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			api := newAPIServer(t, storagetest.Prefix(t))
			scheme, err := client.NewScheme()
			require.NoError(t, err)
			cl, err := client.New(client.Config{Host: "http://in-memory", Transport: client.NewInMemoryTransport(api.Handler()),
				BearerToken: apiservertest.AdminToken, Scheme: scheme})
			require.NoError(t, err)
			installCtx, cancel := clustertest.WaitContext(t)
			defer cancel()
			_, err = cluster.InstallCRDs(installCtx, cl, []*apiextensionsv1.CustomResourceDefinition{developersCRD()})
			require.NoError(t, err, "install the CRD")
			tc.register(t, scheme, cl)

			f, err := informer.NewSharedInformerFactory(informer.SharedInformerFactoryOptions{Client: cl, Backoff: &fastBackoff})
			require.NoError(t, err)
			inf, err := f.InformerFor(developersGVR)
			require.NoError(t, err, "InformerFor(developers)")
			rec := newTypeRecorder()
			_, err = inf.AddEventHandler(rec, informer.HandlerOptions{})
			require.NoError(t, err)
			startFactory(t, f)

			devs, err := client.NewDynamicResource(t.Context(), cl, developersGVR)
			require.NoError(t, err)
			devs = devs.Namespace("default")
			created, err := devs.Create(t.Context(), &unstructured.Unstructured{
				TypeMeta:   metav1.TypeMeta{APIVersion: "example.com/v1", Kind: "Developer"},
				ObjectMeta: metav1.ObjectMeta{Name: "megyo"},
				Content:    map[string]any{"spec": map[string]any{"language": "go"}},
			}, client.WriteOptions{})
			require.NoError(t, err)
			assert.Equal(t, "add megyo "+tc.wantType+" go", rec.next(t))

			unstructured.SetNestedField(created.Content, "rust", "spec", "language")
			_, err = devs.Update(t.Context(), created, client.WriteOptions{})
			require.NoError(t, err)
			assert.Equal(t, "update megyo "+tc.wantType+" rust", rec.next(t))
			obj, exists, err := inf.Indexer().GetByKey("default/megyo")
			require.NoError(t, err)
			require.True(t, exists, "the Indexer holds the custom resource")
			assert.Equal(t, tc.wantType, fmt.Sprintf("%T", obj))

			// Deleting the CRD deletes its objects first: the informer
			// hears it, then keeps retrying a resource that is gone
			// until it is stopped.
			crds, err := client.NewResource[*apiextensionsv1.CustomResourceDefinition, *apiextensionsv1.CustomResourceDefinitionList](
				cl, apiextensionsv1.SchemeGroupVersion.WithResource("customresourcedefinitions"))
			require.NoError(t, err)
			require.NoError(t, crds.Delete(t.Context(), "developers.example.com", metav1.DeleteOptions{}))
			assert.Equal(t, "delete megyo "+tc.wantType+" rust", rec.next(t))
		})
	}
}
