package clustertest_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster/clustertest"
)

// Developer is a user's Go type for the custom resource of
// testdata/crds/developers.yaml, as an operator author writes it.
type Developer struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitzero"`
	Spec              DeveloperSpec   `json:"spec,omitzero"`
	Status            DeveloperStatus `json:"status,omitzero"`
}

type DeveloperSpec struct {
	Name     string `json:"name,omitempty"`
	Language string `json:"language,omitempty"`
	Level    int    `json:"level,omitempty"`
}

type DeveloperStatus struct {
	Assigned bool `json:"assigned,omitempty"`
}

type DeveloperList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitzero"`
	Items           []Developer `json:"items"`
}

func (d *Developer) DeepCopyObject() runtime.Object     { return runtime.DeepCopy(d) }
func (d *DeveloperList) DeepCopyObject() runtime.Object { return runtime.DeepCopy(d) }

var developersGVR = runtime.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "developers"}

func addDevelopers(s *runtime.Scheme) error {
	s.AddKnownTypes(developersGVR.GroupVersion(), &Developer{}, &DeveloperList{})
	return s.AddResource(runtime.ResourceInfo{GVR: developersGVR, Kind: "Developer", Namespaced: true,
		Verbs: runtime.AllVerbs, Subresources: []string{"status"}})
}

func TestCRDsFromManifestsWithTheUsersTypes(t *testing.T) {
	c := clustertest.New(t, clustertest.WithNodes(0), clustertest.WithControllers(),
		clustertest.WithCRDPaths("testdata/crds"), clustertest.WithTypes(addDevelopers))
	ctx, cancel := clustertest.WaitContext(t)
	defer cancel()

	devs, err := client.NewResource[*Developer, *DeveloperList](c.Clientset().Client(), developersGVR)
	require.NoError(t, err)
	devs = devs.Namespace("default")
	created, err := devs.Create(ctx, &Developer{
		ObjectMeta: metav1.ObjectMeta{Name: "megyo"},
		Spec:       DeveloperSpec{Name: "Megyo", Language: "go", Level: 7},
		Status:     DeveloperStatus{Assigned: true},
	}, client.WriteOptions{})
	require.NoError(t, err, "create a Developer right after New: the CRD is Established")
	assert.Equal(t, "go", created.Spec.Language)
	assert.False(t, created.Status.Assigned, "status is written through its subresource only")

	created.Status.Assigned = true
	updated, err := devs.UpdateStatus(ctx, created, client.WriteOptions{})
	require.NoError(t, err)
	assert.True(t, updated.Status.Assigned)

	list, err := devs.List(ctx, client.ListOptions{})
	require.NoError(t, err)
	require.Len(t, list.Items, 1)
	assert.Equal(t, "Megyo", list.Items[0].Spec.Name)
}
