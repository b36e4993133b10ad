package registry

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
)

func TestSpecChanged(t *testing.T) {
	pod := func(mutate func(*corev1.Pod)) *corev1.Pod {
		p := &corev1.Pod{}
		p.Name, p.Namespace = "p", "ns"
		p.Spec.Containers = []corev1.Container{{Name: "c", Image: "i"}}
		mutate(p)
		return p
	}
	same := func(*corev1.Pod) {}
	tests := []struct {
		name     string
		obj, old runtime.Object
		want     bool
	}{
		{name: "identical", obj: pod(same), old: pod(same)},
		{name: "spec field changed", obj: pod(func(p *corev1.Pod) { p.Spec.NodeName = "n" }), old: pod(same), want: true},
		{name: "nested spec field changed",
			obj: pod(func(p *corev1.Pod) { p.Spec.Containers[0].Image = "j" }), old: pod(same), want: true},
		{name: "metadata only",
			obj: pod(func(p *corev1.Pod) { p.Labels = map[string]string{"a": "b"}; p.ResourceVersion = "7" }), old: pod(same)},
		{name: "status only", obj: pod(func(p *corev1.Pod) { p.Status.Phase = corev1.PodRunning }), old: pod(same)},
		{name: "type meta only",
			obj: pod(func(p *corev1.Pod) { p.TypeMeta = metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"} }), old: pod(same)},
		// omitempty encodes nil and empty alike, so neither is a change.
		{name: "nil and empty omitempty slice",
			obj: pod(func(p *corev1.Pod) { p.Spec.Volumes = []corev1.Volume{} }), old: pod(same)},
		{name: "nil and empty omitempty map",
			obj: pod(func(p *corev1.Pod) { p.Spec.NodeSelector = map[string]string{} }), old: pod(same)},
		{name: "nil and empty top-level map",
			obj: &corev1.ConfigMap{Data: map[string]string{}}, old: &corev1.ConfigMap{}},
		// Without omitempty nil encodes as null and empty as [].
		{name: "nil and empty slice without omitempty",
			obj: pod(func(p *corev1.Pod) { p.Spec.Containers = []corev1.Container{} }),
			old: pod(func(p *corev1.Pod) { p.Spec.Containers = nil }), want: true},
		{name: "top-level field other than spec",
			obj: &corev1.ConfigMap{Data: map[string]string{"k": "v"}}, old: &corev1.ConfigMap{}, want: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, specChanged(tc.obj, tc.old), "specChanged(obj, old)")
			assert.Equal(t, tc.want, specChanged(tc.old, tc.obj), "specChanged(old, obj)")
			// The shortcut may only ever answer "unchanged".
			assert.Equal(t, tc.want, !reflect.DeepEqual(desiredState(tc.obj), desiredState(tc.old)), "JSON comparison")
		})
	}
}

func BenchmarkSpecChanged(b *testing.B) {
	old := &corev1.Pod{}
	old.Name, old.Namespace = "p", "ns"
	old.Spec.Containers = []corev1.Container{{Name: "c", Image: "i", Args: []string{"a", "b"}}}
	old.Spec.NodeSelector = map[string]string{"zone": "a"}
	obj := old.DeepCopyObject().(*corev1.Pod)
	obj.Status.Phase = corev1.PodRunning
	b.Run("status-only", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			specChanged(obj, old)
		}
	})
	b.Run("json-fallback", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = !reflect.DeepEqual(desiredState(obj), desiredState(old))
		}
	})
}
