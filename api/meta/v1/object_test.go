package v1_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
)

func TestAccessor(t *testing.T) {
	obj := &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Name: "x", Namespace: "ns"}}
	meta, err := metav1.Accessor(obj)
	require.NoError(t, err, "Accessor(PartialObjectMetadata)")
	assert.Same(t, &obj.ObjectMeta, meta, "Accessor returns the object's own metadata")
	assert.Same(t, &obj.ObjectMeta, metav1.MustAccessor(obj), "MustAccessor returns the object's own metadata")

	meta.Labels = map[string]string{"set": "through accessor"}
	assert.Equal(t, "through accessor", obj.Labels["set"])

	for _, obj := range []runtime.Object{&metav1.Status{}, &metav1.Table{}, &metav1.APIGroupList{}} {
		_, err := metav1.Accessor(obj)
		assert.Error(t, err, "Accessor(%T)", obj)
		assert.Panics(t, func() { metav1.MustAccessor(obj) }, "MustAccessor(%T)", obj)
	}
}

func TestListInterface(t *testing.T) {
	var obj runtime.Object = &metav1.Table{ListMeta: metav1.ListMeta{ResourceVersion: "5"}}
	list, ok := obj.(metav1.ListInterface)
	require.True(t, ok, "Table is a ListInterface")
	assert.Equal(t, "5", list.GetListMeta().ResourceVersion)
}

func TestControllerRef(t *testing.T) {
	yes, no := true, false
	tests := []struct {
		name string
		refs []metav1.OwnerReference
		want string // name of the controller, "" for none
	}{
		{name: "no owners"},
		{name: "owner without the flag", refs: []metav1.OwnerReference{{Name: "a"}}},
		{name: "owner with controller=false", refs: []metav1.OwnerReference{{Name: "a", Controller: &no}}},
		{name: "the only owner", refs: []metav1.OwnerReference{{Name: "a", Controller: &yes}}, want: "a"},
		{name: "after other owners", refs: []metav1.OwnerReference{
			{Name: "a"}, {Name: "b", Controller: &no}, {Name: "c", Controller: &yes},
		}, want: "c"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := metav1.ObjectMeta{OwnerReferences: tc.refs}
			ref := m.ControllerRef()
			if tc.want == "" {
				assert.Nil(t, ref, "ControllerRef(%s)", tc.name)
				return
			}
			require.NotNil(t, ref, "ControllerRef(%s)", tc.name)
			assert.Equal(t, tc.want, ref.Name, "ControllerRef(%s)", tc.name)
			assert.Same(t, &m.OwnerReferences[len(m.OwnerReferences)-1], ref, "ControllerRef points into OwnerReferences")
		})
	}
}
