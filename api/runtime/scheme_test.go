package runtime_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/runtime"
)

var testGV = runtime.GroupVersion{Group: "test.minicp.io", Version: "v1"}

func newTestScheme(t *testing.T) *runtime.Scheme {
	t.Helper()
	s := runtime.NewScheme()
	s.AddKnownTypes(testGV, &Widget{}, &WidgetList{}, &Gadget{})
	return s
}

func widgetsInfo() runtime.ResourceInfo {
	return runtime.ResourceInfo{
		GVR: testGV.WithResource("widgets"), Kind: "Widget", SingularName: "widget",
		Namespaced: true, Verbs: runtime.AllVerbs,
	}
}

func TestSchemeNew(t *testing.T) {
	s := newTestScheme(t)
	tests := []struct {
		gvk  runtime.GroupVersionKind
		want runtime.Object
	}{
		{gvk: testGV.WithKind("Widget"), want: &Widget{}},
		{gvk: testGV.WithKind("WidgetList"), want: &WidgetList{}},
		{gvk: testGV.WithKind("Gadget"), want: &Gadget{}},
	}
	for _, tc := range tests {
		t.Run(tc.gvk.String(), func(t *testing.T) {
			assert.True(t, s.Recognizes(tc.gvk), "Recognizes(%v)", tc.gvk)
			obj, err := s.New(tc.gvk)
			require.NoError(t, err, "New(%v)", tc.gvk)
			assert.IsType(t, tc.want, obj, "New(%v)", tc.gvk)
			assert.Equal(t, runtime.TypeMeta{APIVersion: "test.minicp.io/v1", Kind: tc.gvk.Kind}, *obj.GetTypeMeta(), "New(%v)", tc.gvk)

			gvk, err := s.ObjectKind(obj)
			require.NoError(t, err, "ObjectKind(%T)", obj)
			assert.Equal(t, tc.gvk, gvk, "ObjectKind(%T)", obj)
		})
	}
}

func TestSchemeNewUnregistered(t *testing.T) {
	s := newTestScheme(t)
	for _, gvk := range []runtime.GroupVersionKind{
		testGV.WithKind("Nope"),
		{Group: "test.minicp.io", Version: "v2", Kind: "Widget"},
		{Version: "v1", Kind: "Widget"},
	} {
		assert.False(t, s.Recognizes(gvk), "Recognizes(%v)", gvk)
		obj, err := s.New(gvk)
		assert.Nil(t, obj, "New(%v)", gvk)
		var nre *runtime.NotRegisteredError
		require.ErrorAs(t, err, &nre, "New(%v)", gvk)
		assert.Equal(t, gvk, nre.GVK, "New(%v)", gvk)
	}
}

func TestSchemeObjectKindUnregistered(t *testing.T) {
	s := runtime.NewScheme()
	s.AddKnownTypes(testGV, &Widget{})
	_, err := s.ObjectKind(&Gadget{})
	assert.Error(t, err, "ObjectKind(*Gadget)")
	assert.Error(t, s.SetTypeMeta(&Gadget{}), "SetTypeMeta(*Gadget)")
}

func TestSchemeSetTypeMeta(t *testing.T) {
	s := newTestScheme(t)
	tests := []struct {
		name string
		obj  runtime.Object
		want runtime.TypeMeta
	}{
		{name: "empty", obj: &Widget{}, want: runtime.TypeMeta{Kind: "Widget", APIVersion: "test.minicp.io/v1"}},
		{name: "wrong kind and version are overwritten",
			obj:  &Widget{TypeMeta: runtime.TypeMeta{Kind: "Gadget", APIVersion: "v9"}},
			want: runtime.TypeMeta{Kind: "Widget", APIVersion: "test.minicp.io/v1"}},
		{name: "list", obj: &WidgetList{}, want: runtime.TypeMeta{Kind: "WidgetList", APIVersion: "test.minicp.io/v1"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.NoError(t, s.SetTypeMeta(tc.obj), "SetTypeMeta(%T)", tc.obj)
			assert.Equal(t, tc.want, *tc.obj.GetTypeMeta(), "SetTypeMeta(%T)", tc.obj)
		})
	}
}

// valueKind is an Object whose methods have value receivers, so a value
// of it can be passed where AddKnownTypes wants a pointer.
type valueKind struct{}

func (valueKind) GetTypeMeta() *runtime.TypeMeta   { return &runtime.TypeMeta{} }
func (v valueKind) DeepCopyObject() runtime.Object { return v }

func TestAddKnownTypesRejectsNonPointers(t *testing.T) {
	s := runtime.NewScheme()
	assert.Panics(t, func() { s.AddKnownTypes(testGV, valueKind{}) }, "AddKnownTypes(valueKind{})")
}

func TestAddResource(t *testing.T) {
	tests := []struct {
		name    string
		info    func(runtime.ResourceInfo) runtime.ResourceInfo
		wantErr bool
		// wantNotRegistered is the kind AddResource reports missing.
		wantNotRegistered string
	}{
		{name: "listable with list kind", info: func(i runtime.ResourceInfo) runtime.ResourceInfo { return i }},
		{name: "create-only needs no list kind", info: func(i runtime.ResourceInfo) runtime.ResourceInfo {
			i.GVR, i.Kind, i.SingularName, i.Verbs = testGV.WithResource("gadgets"), "Gadget", "gadget", []string{"create"}
			return i
		}},
		{name: "get-only needs no list kind", info: func(i runtime.ResourceInfo) runtime.ResourceInfo {
			i.GVR, i.Kind, i.SingularName, i.Verbs = testGV.WithResource("gadgets"), "Gadget", "gadget", []string{"get"}
			return i
		}},
		{name: "listable without list kind", info: func(i runtime.ResourceInfo) runtime.ResourceInfo {
			i.GVR, i.Kind, i.SingularName = testGV.WithResource("gadgets"), "Gadget", "gadget"
			return i
		}, wantErr: true, wantNotRegistered: "GadgetList"},
		{name: "unregistered kind", info: func(i runtime.ResourceInfo) runtime.ResourceInfo {
			i.GVR, i.Kind, i.SingularName, i.Verbs = testGV.WithResource("things"), "Thing", "thing", []string{"create"}
			return i
		}, wantErr: true, wantNotRegistered: "Thing"},
		{name: "kind registered in another version", info: func(i runtime.ResourceInfo) runtime.ResourceInfo {
			i.GVR.Version = "v2"
			return i
		}, wantErr: true, wantNotRegistered: "Widget"},
		{name: "no resource", info: func(i runtime.ResourceInfo) runtime.ResourceInfo {
			i.GVR.Resource = ""
			return i
		}, wantErr: true},
		{name: "no version", info: func(i runtime.ResourceInfo) runtime.ResourceInfo {
			i.GVR.Version = ""
			return i
		}, wantErr: true},
		{name: "no kind", info: func(i runtime.ResourceInfo) runtime.ResourceInfo {
			i.Kind = ""
			return i
		}, wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newTestScheme(t)
			info := tc.info(widgetsInfo())
			err := s.AddResource(info)
			if !tc.wantErr {
				require.NoError(t, err, "AddResource(%+v)", info)
				got, ok := s.Resource(info.GVR)
				require.True(t, ok, "Resource(%v) after AddResource", info.GVR)
				assert.Equal(t, info, got, "Resource(%v)", info.GVR)
				return
			}
			require.Error(t, err, "AddResource(%+v)", info)
			if tc.wantNotRegistered != "" {
				var nre *runtime.NotRegisteredError
				require.ErrorAs(t, err, &nre, "AddResource(%+v)", info)
				assert.Equal(t, tc.wantNotRegistered, nre.GVK.Kind, "AddResource(%+v)", info)
			}
			_, ok := s.Resource(info.GVR)
			assert.False(t, ok, "Resource(%v) after a failed AddResource", info.GVR)
			assert.Empty(t, s.Resources(), "Resources() after a failed AddResource")
		})
	}
}

// ResourceInfo.SingularName documents "Defaults to the kind in lowercase".
func TestAddResourceDefaultsSingularName(t *testing.T) {
	s := newTestScheme(t)
	info := widgetsInfo()
	info.SingularName = ""
	require.NoError(t, s.AddResource(info), "AddResource without SingularName")
	got, ok := s.Resource(info.GVR)
	require.True(t, ok)
	assert.Equal(t, "widget", got.SingularName)
}

func TestSchemeResources(t *testing.T) {
	s := newTestScheme(t)
	widgets := widgetsInfo()
	gadgets := runtime.ResourceInfo{GVR: testGV.WithResource("gadgets"), Kind: "Gadget", SingularName: "gadget", Verbs: []string{"create"}}
	// A second resource for the Widget kind, registered in between.
	other := widgetsInfo()
	other.GVR.Resource = "otherwidgets"
	for _, info := range []runtime.ResourceInfo{gadgets, widgets, other} {
		require.NoError(t, s.AddResource(info), "AddResource(%v)", info.GVR)
	}
	names := func() []string {
		var out []string
		for _, info := range s.Resources() {
			out = append(out, info.GVR.Resource)
		}
		return out
	}
	assert.Equal(t, []string{"gadgets", "widgets", "otherwidgets"}, names(), "registration order")

	// Registering again replaces the info and keeps the position.
	updated := widgets
	updated.ShortNames = []string{"wd"}
	require.NoError(t, s.AddResource(updated), "AddResource(widgets) again")
	assert.Equal(t, []string{"gadgets", "widgets", "otherwidgets"}, names(), "order after re-registering")
	got, _ := s.Resource(widgets.GVR)
	assert.Equal(t, []string{"wd"}, got.ShortNames, "re-registered info")

	// ResourceForKind finds the first resource registered for the kind.
	info, ok := s.ResourceForKind(testGV.WithKind("Widget"))
	require.True(t, ok, "ResourceForKind(Widget)")
	assert.Equal(t, "widgets", info.GVR.Resource, "ResourceForKind(Widget)")
	info, ok = s.ResourceForKind(testGV.WithKind("Gadget"))
	require.True(t, ok, "ResourceForKind(Gadget)")
	assert.Equal(t, "gadgets", info.GVR.Resource, "ResourceForKind(Gadget)")
	for _, gvk := range []runtime.GroupVersionKind{
		testGV.WithKind("WidgetList"),
		{Group: "test.minicp.io", Version: "v2", Kind: "Widget"},
		{Version: "v1", Kind: "Widget"},
	} {
		_, ok := s.ResourceForKind(gvk)
		assert.False(t, ok, "ResourceForKind(%v)", gvk)
	}

	s.RemoveResource(widgets.GVR)
	assert.Equal(t, []string{"gadgets", "otherwidgets"}, names(), "after RemoveResource(widgets)")
	_, ok = s.Resource(widgets.GVR)
	assert.False(t, ok, "Resource(widgets) after RemoveResource")
	info, ok = s.ResourceForKind(testGV.WithKind("Widget"))
	require.True(t, ok, "ResourceForKind(Widget) after removing one of two")
	assert.Equal(t, "otherwidgets", info.GVR.Resource)
	assert.True(t, s.Recognizes(testGV.WithKind("Widget")), "the kind outlives its resource")

	s.RemoveResource(testGV.WithResource("never-added"))
	assert.Equal(t, []string{"gadgets", "otherwidgets"}, names(), "after removing an unknown resource")

	// A removed resource can come back; it goes to the end.
	require.NoError(t, s.AddResource(widgets))
	assert.Equal(t, []string{"gadgets", "otherwidgets", "widgets"}, names(), "after adding widgets back")
}

func TestResourceInfo(t *testing.T) {
	info := runtime.ResourceInfo{
		GVR: runtime.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}, Kind: "Deployment",
		Verbs: []string{"get", "list"}, Subresources: []string{"status", "scale"},
	}
	assert.Equal(t, "DeploymentList", info.ListKind())
	assert.Equal(t, runtime.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}, info.GVK())
	assert.Equal(t, runtime.GroupVersionKind{Group: "apps", Version: "v1", Kind: "DeploymentList"}, info.ListGVK())
	assert.True(t, info.HasVerb("list"), "HasVerb(list)")
	assert.False(t, info.HasVerb("create"), "HasVerb(create)")
	assert.True(t, info.HasSubresource("scale"), "HasSubresource(scale)")
	assert.False(t, info.HasSubresource("binding"), "HasSubresource(binding)")
}
