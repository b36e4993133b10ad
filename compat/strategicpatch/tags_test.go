package strategicpatch

import (
	"reflect"
	"strings"
	"testing"

	kappsv1 "k8s.io/api/apps/v1"
	kautoscalingv1 "k8s.io/api/autoscaling/v1"
	kbatchv1 "k8s.io/api/batch/v1"
	kcorev1 "k8s.io/api/core/v1"
	kmetav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	appsv1 "github.com/minicp/minicp/api/apps/v1"
	autoscalingv1 "github.com/minicp/minicp/api/autoscaling/v1"
	batchv1 "github.com/minicp/minicp/api/batch/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
)

// TestPatchTagsMatchKubernetes walks each minicp kind next to its
// Kubernetes twin and checks that every field carries the upstream
// `patchStrategy` and `patchMergeKey` tags, word for word, and that a field
// upstream does not have carries neither.
func TestPatchTagsMatchKubernetes(t *testing.T) {
	pairs := []struct{ minicp, k8s reflect.Type }{
		{reflect.TypeFor[corev1.PodList](), reflect.TypeFor[kcorev1.PodList]()},
		{reflect.TypeFor[corev1.PodTemplateSpec](), reflect.TypeFor[kcorev1.PodTemplateSpec]()},
		{reflect.TypeFor[corev1.NodeList](), reflect.TypeFor[kcorev1.NodeList]()},
		{reflect.TypeFor[corev1.NamespaceList](), reflect.TypeFor[kcorev1.NamespaceList]()},
		{reflect.TypeFor[corev1.EventList](), reflect.TypeFor[kcorev1.EventList]()},
		{reflect.TypeFor[corev1.Binding](), reflect.TypeFor[kcorev1.Binding]()},
		{reflect.TypeFor[corev1.TypedLocalObjectReference](), reflect.TypeFor[kcorev1.TypedLocalObjectReference]()},
		{reflect.TypeFor[metav1.Status](), reflect.TypeFor[kmetav1.Status]()},
		{reflect.TypeFor[metav1.DeleteOptions](), reflect.TypeFor[kmetav1.DeleteOptions]()},
		{reflect.TypeFor[metav1.PartialObjectMetadata](), reflect.TypeFor[kmetav1.PartialObjectMetadata]()},
		{reflect.TypeFor[metav1.LabelSelector](), reflect.TypeFor[kmetav1.LabelSelector]()},
		{reflect.TypeFor[metav1.APIResourceList](), reflect.TypeFor[kmetav1.APIResourceList]()},
		{reflect.TypeFor[metav1.APIGroupList](), reflect.TypeFor[kmetav1.APIGroupList]()},
		{reflect.TypeFor[metav1.APIVersions](), reflect.TypeFor[kmetav1.APIVersions]()},
		{reflect.TypeFor[corev1.ServiceList](), reflect.TypeFor[kcorev1.ServiceList]()},
		{reflect.TypeFor[corev1.EndpointsList](), reflect.TypeFor[kcorev1.EndpointsList]()},
		{reflect.TypeFor[corev1.ConfigMapList](), reflect.TypeFor[kcorev1.ConfigMapList]()},
		{reflect.TypeFor[corev1.SecretList](), reflect.TypeFor[kcorev1.SecretList]()},
		{reflect.TypeFor[corev1.ServiceAccountList](), reflect.TypeFor[kcorev1.ServiceAccountList]()},
		{reflect.TypeFor[appsv1.DeploymentList](), reflect.TypeFor[kappsv1.DeploymentList]()},
		{reflect.TypeFor[appsv1.ReplicaSetList](), reflect.TypeFor[kappsv1.ReplicaSetList]()},
		{reflect.TypeFor[batchv1.JobList](), reflect.TypeFor[kbatchv1.JobList]()},
		{reflect.TypeFor[autoscalingv1.Scale](), reflect.TypeFor[kautoscalingv1.Scale]()},
	}
	w := tagWalker{t: t, seen: map[reflect.Type]bool{}}
	for _, p := range pairs {
		w.walk(p.minicp, p.k8s)
	}
	if w.fields < 400 {
		t.Errorf("checked only %d fields; the walk is missing types", w.fields)
	}
	// The tags that matter most to kubectl, named so a walk that silently
	// stops descending cannot pass.
	for _, name := range []string{
		"PodSpec.Containers", "PodSpec.Volumes", "Container.Env", "Container.Ports", "Container.VolumeMounts",
		"ObjectMeta.Finalizers", "ObjectMeta.OwnerReferences", "PodStatus.Conditions", "NodeStatus.Conditions",
		"NodeStatus.Addresses", "NodeSpec.PodCIDRs", "NamespaceStatus.Conditions",
		"DeploymentSpec.Strategy", "DeploymentStatus.Conditions", "ReplicaSetStatus.Conditions", "JobStatus.Conditions",
		"ServiceSpec.Ports", "ServiceStatus.Conditions", "ServiceAccount.Secrets",
	} {
		if !w.tagged[name] {
			t.Errorf("%s: no patch tags checked; upstream has them", name)
		}
	}
}

// shapeExceptions are fields whose Go shape differs from upstream's on
// purpose (see compat/protobuf); the walk does not descend into them.
var shapeExceptions = map[string]bool{
	"WatchEvent.Object": true,
	"TableRow.Object":   true,
}

type tagWalker struct {
	t      *testing.T
	seen   map[reflect.Type]bool
	fields int
	// tagged holds the fields checked that carry a patch tag upstream.
	tagged map[string]bool
}

func (w *tagWalker) walk(m, k reflect.Type) {
	if w.tagged == nil {
		w.tagged = map[string]bool{}
	}
	for m.Kind() == k.Kind() && (m.Kind() == reflect.Pointer || m.Kind() == reflect.Slice || m.Kind() == reflect.Map) {
		m, k = m.Elem(), k.Elem()
	}
	if m.Kind() != reflect.Struct || k.Kind() != reflect.Struct || w.seen[m] || !strings.HasPrefix(m.PkgPath(), "github.com/minicp/") {
		return
	}
	w.seen[m] = true
	for i := range m.NumField() {
		f := m.Field(i)
		if !f.IsExported() {
			continue
		}
		name := m.Name() + "." + f.Name
		kf, ok := k.FieldByName(f.Name)
		if !ok || len(kf.Index) != 1 {
			for _, key := range []string{"patchStrategy", "patchMergeKey"} {
				if tag, tagged := f.Tag.Lookup(key); tagged {
					w.t.Errorf("%s has %s tag %q but Kubernetes' %s has no such field", name, key, tag, k)
				}
			}
			continue
		}
		w.fields++
		for _, key := range []string{"patchStrategy", "patchMergeKey"} {
			got, want := f.Tag.Get(key), kf.Tag.Get(key)
			if got != want {
				w.t.Errorf("%s: %s tag %q, Kubernetes has %q", name, key, got, want)
			}
			if want != "" {
				w.tagged[name] = true
			}
		}
		if !shapeExceptions[name] {
			w.walk(f.Type, kf.Type)
		}
	}
}
