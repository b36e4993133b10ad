package runtime_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/minicp/minicp/api/runtime"
)

func TestGroupVersion(t *testing.T) {
	tests := []struct {
		apiVersion string
		want       runtime.GroupVersion
	}{
		{apiVersion: "v1", want: runtime.GroupVersion{Version: "v1"}},
		{apiVersion: "apps/v1", want: runtime.GroupVersion{Group: "apps", Version: "v1"}},
		{apiVersion: "meta.k8s.io/v1beta1", want: runtime.GroupVersion{Group: "meta.k8s.io", Version: "v1beta1"}},
		{apiVersion: "", want: runtime.GroupVersion{}},
	}
	for _, tc := range tests {
		t.Run(tc.apiVersion, func(t *testing.T) {
			got := runtime.ParseGroupVersion(tc.apiVersion)
			assert.Equal(t, tc.want, got, "ParseGroupVersion(%q)", tc.apiVersion)
			assert.Equal(t, tc.apiVersion, got.String(), "ParseGroupVersion(%q).String()", tc.apiVersion)
			assert.Equal(t, tc.want, runtime.ParseGroupVersion(tc.want.String()), "round trip of %#v", tc.want)
		})
	}
}

func TestSchemaNames(t *testing.T) {
	core := runtime.GroupVersion{Version: "v1"}
	apps := runtime.GroupVersion{Group: "apps", Version: "v1"}
	tests := []struct {
		name string
		got  string
		want string
	}{
		{name: "core GVK", got: core.WithKind("Pod").String(), want: "v1, Kind=Pod"},
		{name: "apps GVK", got: apps.WithKind("Deployment").String(), want: "apps/v1, Kind=Deployment"},
		{name: "core GVR", got: core.WithResource("pods").String(), want: "v1, Resource=pods"},
		{name: "apps GVR", got: apps.WithResource("deployments").String(), want: "apps/v1, Resource=deployments"},
		{name: "core GroupResource", got: core.WithResource("pods").GroupResource().String(), want: "pods"},
		{name: "apps GroupResource", got: apps.WithResource("deployments").GroupResource().String(), want: "deployments.apps"},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, tc.got, tc.name)
	}
	assert.Equal(t, apps, apps.WithKind("Deployment").GroupVersion())
	assert.Equal(t, apps, apps.WithResource("deployments").GroupVersion())
}
