package protobuf

import (
	"reflect"
	"strings"
	"testing"

	kappsv1 "k8s.io/api/apps/v1"
	kauthenticationv1 "k8s.io/api/authentication/v1"
	kauthorizationv1 "k8s.io/api/authorization/v1"
	kautoscalingv1 "k8s.io/api/autoscaling/v1"
	kautoscalingv2 "k8s.io/api/autoscaling/v2"
	kbatchv1 "k8s.io/api/batch/v1"
	kcertificatesv1 "k8s.io/api/certificates/v1"
	kcoordinationv1 "k8s.io/api/coordination/v1"
	kcorev1 "k8s.io/api/core/v1"
	kdiscoveryv1 "k8s.io/api/discovery/v1"
	kflowcontrolv1 "k8s.io/api/flowcontrol/v1"
	kpolicyv1 "k8s.io/api/policy/v1"
	krbacv1 "k8s.io/api/rbac/v1"
	kschedulingv1 "k8s.io/api/scheduling/v1"
	kmetav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	appsv1 "github.com/minicp/minicp/api/apps/v1"
	authenticationv1 "github.com/minicp/minicp/api/authentication/v1"
	authorizationv1 "github.com/minicp/minicp/api/authorization/v1"
	autoscalingv1 "github.com/minicp/minicp/api/autoscaling/v1"
	autoscalingv2 "github.com/minicp/minicp/api/autoscaling/v2"
	batchv1 "github.com/minicp/minicp/api/batch/v1"
	certificatesv1 "github.com/minicp/minicp/api/certificates/v1"
	coordinationv1 "github.com/minicp/minicp/api/coordination/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	discoveryv1 "github.com/minicp/minicp/api/discovery/v1"
	flowcontrolv1 "github.com/minicp/minicp/api/flowcontrol/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	policyv1 "github.com/minicp/minicp/api/policy/v1"
	rbacv1 "github.com/minicp/minicp/api/rbac/v1"
	schedulingv1 "github.com/minicp/minicp/api/scheduling/v1"
)

// TestTagsMatchKubernetes walks each minicp kind and its Kubernetes twin
// side by side and checks that every field minicp has carries the
// `protobuf` tag of the same field upstream, word for word, and that a
// field upstream does not have carries none. Field shapes (pointer, slice,
// map) must match too, since they decide what is written.
func TestTagsMatchKubernetes(t *testing.T) {
	pairs := []struct{ minicp, k8s reflect.Type }{
		{reflect.TypeFor[corev1.NamespaceList](), reflect.TypeFor[kcorev1.NamespaceList]()},
		{reflect.TypeFor[corev1.PodList](), reflect.TypeFor[kcorev1.PodList]()},
		{reflect.TypeFor[corev1.PodTemplateSpec](), reflect.TypeFor[kcorev1.PodTemplateSpec]()},
		{reflect.TypeFor[corev1.NodeList](), reflect.TypeFor[kcorev1.NodeList]()},
		{reflect.TypeFor[corev1.Binding](), reflect.TypeFor[kcorev1.Binding]()},
		{reflect.TypeFor[corev1.EventList](), reflect.TypeFor[kcorev1.EventList]()},
		{reflect.TypeFor[corev1.TypedLocalObjectReference](), reflect.TypeFor[kcorev1.TypedLocalObjectReference]()},
		{reflect.TypeFor[metav1.Status](), reflect.TypeFor[kmetav1.Status]()},
		{reflect.TypeFor[metav1.DeleteOptions](), reflect.TypeFor[kmetav1.DeleteOptions]()},
		{reflect.TypeFor[metav1.LabelSelector](), reflect.TypeFor[kmetav1.LabelSelector]()},
		{reflect.TypeFor[metav1.PartialObjectMetadata](), reflect.TypeFor[kmetav1.PartialObjectMetadata]()},
		{reflect.TypeFor[metav1.APIVersions](), reflect.TypeFor[kmetav1.APIVersions]()},
		{reflect.TypeFor[metav1.APIGroupList](), reflect.TypeFor[kmetav1.APIGroupList]()},
		{reflect.TypeFor[metav1.APIResourceList](), reflect.TypeFor[kmetav1.APIResourceList]()},
		{reflect.TypeFor[metav1.WatchEvent](), reflect.TypeFor[kmetav1.WatchEvent]()},
		{reflect.TypeFor[metav1.Table](), reflect.TypeFor[kmetav1.Table]()},
		{reflect.TypeFor[metav1.TypeMeta](), reflect.TypeFor[kmetav1.TypeMeta]()},
		{reflect.TypeFor[metav1.Condition](), reflect.TypeFor[kmetav1.Condition]()},
		{reflect.TypeFor[corev1.ServiceList](), reflect.TypeFor[kcorev1.ServiceList]()},
		{reflect.TypeFor[corev1.EndpointsList](), reflect.TypeFor[kcorev1.EndpointsList]()},
		{reflect.TypeFor[corev1.ConfigMapList](), reflect.TypeFor[kcorev1.ConfigMapList]()},
		{reflect.TypeFor[corev1.SecretList](), reflect.TypeFor[kcorev1.SecretList]()},
		{reflect.TypeFor[corev1.ServiceAccountList](), reflect.TypeFor[kcorev1.ServiceAccountList]()},
		{reflect.TypeFor[corev1.ResourceQuotaList](), reflect.TypeFor[kcorev1.ResourceQuotaList]()},
		{reflect.TypeFor[corev1.LimitRangeList](), reflect.TypeFor[kcorev1.LimitRangeList]()},
		{reflect.TypeFor[appsv1.DeploymentList](), reflect.TypeFor[kappsv1.DeploymentList]()},
		{reflect.TypeFor[appsv1.ReplicaSetList](), reflect.TypeFor[kappsv1.ReplicaSetList]()},
		{reflect.TypeFor[batchv1.JobList](), reflect.TypeFor[kbatchv1.JobList]()},
		{reflect.TypeFor[autoscalingv1.Scale](), reflect.TypeFor[kautoscalingv1.Scale]()},
		{reflect.TypeFor[appsv1.StatefulSetList](), reflect.TypeFor[kappsv1.StatefulSetList]()},
		{reflect.TypeFor[autoscalingv1.HorizontalPodAutoscalerList](), reflect.TypeFor[kautoscalingv1.HorizontalPodAutoscalerList]()},
		{reflect.TypeFor[autoscalingv1.MetricSpec](), reflect.TypeFor[kautoscalingv1.MetricSpec]()},
		{reflect.TypeFor[autoscalingv1.MetricStatus](), reflect.TypeFor[kautoscalingv1.MetricStatus]()},
		{reflect.TypeFor[autoscalingv1.HorizontalPodAutoscalerCondition](), reflect.TypeFor[kautoscalingv1.HorizontalPodAutoscalerCondition]()},
		{reflect.TypeFor[autoscalingv2.HorizontalPodAutoscalerList](), reflect.TypeFor[kautoscalingv2.HorizontalPodAutoscalerList]()},
		{reflect.TypeFor[certificatesv1.CertificateSigningRequestList](), reflect.TypeFor[kcertificatesv1.CertificateSigningRequestList]()},
		{reflect.TypeFor[coordinationv1.LeaseList](), reflect.TypeFor[kcoordinationv1.LeaseList]()},
		{reflect.TypeFor[rbacv1.RoleList](), reflect.TypeFor[krbacv1.RoleList]()},
		{reflect.TypeFor[discoveryv1.EndpointSliceList](), reflect.TypeFor[kdiscoveryv1.EndpointSliceList]()},
		{reflect.TypeFor[policyv1.PodDisruptionBudgetList](), reflect.TypeFor[kpolicyv1.PodDisruptionBudgetList]()},
		{reflect.TypeFor[policyv1.Eviction](), reflect.TypeFor[kpolicyv1.Eviction]()},
		{reflect.TypeFor[schedulingv1.PriorityClassList](), reflect.TypeFor[kschedulingv1.PriorityClassList]()},
		{reflect.TypeFor[flowcontrolv1.FlowSchemaList](), reflect.TypeFor[kflowcontrolv1.FlowSchemaList]()},
		{reflect.TypeFor[flowcontrolv1.PriorityLevelConfigurationList](), reflect.TypeFor[kflowcontrolv1.PriorityLevelConfigurationList]()},
		{reflect.TypeFor[rbacv1.RoleBindingList](), reflect.TypeFor[krbacv1.RoleBindingList]()},
		{reflect.TypeFor[rbacv1.ClusterRoleList](), reflect.TypeFor[krbacv1.ClusterRoleList]()},
		{reflect.TypeFor[rbacv1.ClusterRoleBindingList](), reflect.TypeFor[krbacv1.ClusterRoleBindingList]()},
		{reflect.TypeFor[authorizationv1.SubjectAccessReview](), reflect.TypeFor[kauthorizationv1.SubjectAccessReview]()},
		{reflect.TypeFor[authorizationv1.SelfSubjectAccessReview](), reflect.TypeFor[kauthorizationv1.SelfSubjectAccessReview]()},
		{reflect.TypeFor[authorizationv1.LocalSubjectAccessReview](), reflect.TypeFor[kauthorizationv1.LocalSubjectAccessReview]()},
		{reflect.TypeFor[authorizationv1.SelfSubjectRulesReview](), reflect.TypeFor[kauthorizationv1.SelfSubjectRulesReview]()},
		{reflect.TypeFor[authenticationv1.SelfSubjectReview](), reflect.TypeFor[kauthenticationv1.SelfSubjectReview]()},
		{reflect.TypeFor[authenticationv1.TokenRequest](), reflect.TypeFor[kauthenticationv1.TokenRequest]()},
		{reflect.TypeFor[authenticationv1.TokenReview](), reflect.TypeFor[kauthenticationv1.TokenReview]()},
	}
	w := tagWalker{t: t, seen: map[reflect.Type]bool{}}
	for _, p := range pairs {
		w.walk(p.minicp, p.k8s, p.minicp.Name())
	}
	if w.fields < 400 {
		t.Errorf("checked only %d fields; the walk is missing types", w.fields)
	}
}

// shapeExceptions are fields whose Go shape differs from upstream's on
// purpose; the codec writes the same bytes for them.
var shapeExceptions = map[string]bool{
	// json.RawMessage for upstream's RawExtension{Raw}: both are {1: raw}.
	"WatchEvent.Object": true,
	"TableRow.Object":   true,
}

type tagWalker struct {
	t      *testing.T
	seen   map[reflect.Type]bool
	fields int
}

func (w *tagWalker) walk(m, k reflect.Type, path string) {
	for {
		if m.Kind() != k.Kind() {
			w.t.Errorf("%s: minicp %s, Kubernetes %s", path, m, k)
			return
		}
		if m.Kind() != reflect.Pointer && m.Kind() != reflect.Slice && m.Kind() != reflect.Map {
			break
		}
		m, k = m.Elem(), k.Elem()
	}
	if m.Kind() != reflect.Struct || w.seen[m] || !strings.HasPrefix(m.PkgPath(), "github.com/minicp/") {
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
			if tag, tagged := f.Tag.Lookup("protobuf"); tagged {
				w.t.Errorf("%s has protobuf tag %q but Kubernetes' %s has no such field", name, tag, k)
			}
			continue
		}
		w.fields++
		if got, want := f.Tag.Get("protobuf"), kf.Tag.Get("protobuf"); got != want {
			w.t.Errorf("%s: protobuf tag %q, Kubernetes has %q", name, got, want)
		}
		if shapeExceptions[name] {
			continue
		}
		w.walk(f.Type, kf.Type, name)
	}
}
