package podsecurity_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/apierrors"
	appsv1 "github.com/minicp/minicp/api/apps/v1"
	batchv1 "github.com/minicp/minicp/api/batch/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/admission"
	"github.com/minicp/minicp/apiserver/admission/podsecurity"
	"github.com/minicp/minicp/apiserver/request"
)

// plainPodRestricted is what restricted says of plainPod.
const plainPodRestricted = `allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), ` +
	`unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), ` +
	`runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), ` +
	`seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")`

// TestEnforce: a plain pod in a restricted namespace is refused with
// upstream's message, naming the policy as the labels spell it; the
// audit Event records the policy; no warning repeats the refusal.
func TestEnforce(t *testing.T) {
	p := &podsecurity.Plugin{Namespaces: fakeNamespaces{
		"latest": namespace("latest", map[string]string{podsecurity.EnforceLevelLabel: "restricted", podsecurity.WarnLevelLabel: "restricted"}),
		"pinned": namespace("pinned", map[string]string{podsecurity.EnforceLevelLabel: "restricted", podsecurity.EnforceVersionLabel: "v1.25"}),
	}}
	got := validate(t, p, createPod(plainPod("latest")))
	require.Error(t, got.err)
	assert.True(t, apierrors.IsForbidden(got.err), "403: %v", got.err)
	assert.Equal(t, `pods "x" is forbidden: violates PodSecurity "restricted:latest": `+plainPodRestricted, got.err.Error())
	assert.Empty(t, got.warnings, "no warning on a refused request")
	assert.Equal(t, "restricted:latest", got.annotations[podsecurity.EnforcedPolicyAnnotation])

	// An older version is evaluated with the newest checks.
	got = validate(t, p, createPod(plainPod("pinned")))
	require.Error(t, got.err)
	assert.Equal(t, `pods "x" is forbidden: violates PodSecurity "restricted:v1.25": `+plainPodRestricted, got.err.Error())

	got = validate(t, p, createPod(restrictedPod("latest")))
	assert.NoError(t, got.err, "a compliant pod")
	assert.Empty(t, got.warnings)
}

// TestWarnAndAudit: warn and audit admit the pod, the one with a
// warning for the client, the other with an audit annotation.
func TestWarnAndAudit(t *testing.T) {
	p := &podsecurity.Plugin{Namespaces: fakeNamespaces{"ns": namespace("ns", map[string]string{
		podsecurity.EnforceLevelLabel: "baseline", podsecurity.WarnLevelLabel: "restricted", podsecurity.AuditLevelLabel: "restricted",
		podsecurity.AuditVersionLabel: "v1.30",
	})}}
	got := validate(t, p, createPod(plainPod("ns")))
	require.NoError(t, got.err)
	assert.Equal(t, []string{`would violate PodSecurity "restricted:latest": ` + plainPodRestricted}, got.warnings)
	assert.Equal(t, map[string]string{
		podsecurity.EnforcedPolicyAnnotation:  "baseline:latest",
		podsecurity.AuditViolationsAnnotation: `would violate PodSecurity "restricted:v1.30": ` + plainPodRestricted,
	}, got.annotations)
}

// TestWorkloadTemplates: workloads are never refused, but their pod
// templates get the warn and audit policies.
func TestWorkloadTemplates(t *testing.T) {
	p := &podsecurity.Plugin{Namespaces: fakeNamespaces{
		"ns":      namespace("ns", map[string]string{podsecurity.EnforceLevelLabel: "restricted", podsecurity.WarnLevelLabel: "restricted"}),
		"enforce": namespace("enforce", map[string]string{podsecurity.EnforceLevelLabel: "restricted"}),
	}}
	template := corev1.PodTemplateSpec{Spec: plainPod("ns").Spec}
	workloads := []struct {
		resource runtime.GroupVersionResource
		obj      runtime.Object
	}{
		{appsv1.SchemeGroupVersion.WithResource("deployments"), &appsv1.Deployment{Spec: appsv1.DeploymentSpec{Template: template}}},
		{appsv1.SchemeGroupVersion.WithResource("replicasets"), &appsv1.ReplicaSet{Spec: appsv1.ReplicaSetSpec{Template: template}}},
		{appsv1.SchemeGroupVersion.WithResource("statefulsets"), &appsv1.StatefulSet{Spec: appsv1.StatefulSetSpec{Template: template}}},
		{batchv1.SchemeGroupVersion.WithResource("jobs"), &batchv1.Job{Spec: batchv1.JobSpec{Template: template}}},
	}
	for _, w := range workloads {
		t.Run(w.resource.Resource, func(t *testing.T) {
			a := &admission.Attributes{Operation: admission.Create, Resource: w.resource, Namespace: "ns", Name: "w", Object: w.obj}
			got := validate(t, p, a)
			require.NoError(t, got.err, "a workload is never refused")
			assert.Equal(t, []string{`would violate PodSecurity "restricted:latest": ` + plainPodRestricted}, got.warnings)

			a.Namespace = "enforce"
			got = validate(t, p, a)
			assert.NoError(t, got.err)
			assert.Empty(t, got.warnings, "enforce alone says nothing of templates")
		})
	}
	// Objects without a pod template are none of its business.
	cm := &admission.Attributes{Operation: admission.Create, Resource: corev1.SchemeGroupVersion.WithResource("configmaps"),
		Namespace: "ns", Name: "cm", Object: &corev1.ConfigMap{}}
	assert.NoError(t, validate(t, p, cm).err)
}

// TestNamespaceLabels: labels that do not parse are 422 on a namespace,
// and fail closed (enforce) or open (warn) for its pods.
func TestNamespaceLabels(t *testing.T) {
	p := &podsecurity.Plugin{Namespaces: fakeNamespaces{}}
	ns := namespace("bad", map[string]string{podsecurity.EnforceLevelLabel: "strict", podsecurity.WarnVersionLabel: "1.25"})
	a := &admission.Attributes{Operation: admission.Create, Resource: corev1.SchemeGroupVersion.WithResource("namespaces"), Name: "bad", Object: ns,
		Kind: corev1.SchemeGroupVersion.WithKind("Namespace")}
	err := validate(t, p, a).err
	require.Error(t, err)
	assert.True(t, apierrors.IsInvalid(err), "422: %v", err)
	assert.Equal(t, `Namespace "bad" is invalid: [`+
		`metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted, `+
		`metadata.labels[pod-security.kubernetes.io/warn-version]: Invalid value: "1.25": must be "latest" or "v1.x"]`, err.Error())

	// An update that leaves labels as wrong as they were is not blocked.
	a.Operation, a.OldObject = admission.Update, ns
	assert.NoError(t, validate(t, p, a).err)

	policy, errs := podsecurity.PolicyFromLabels(map[string]string{podsecurity.EnforceLevelLabel: "strict", podsecurity.WarnLevelLabel: "strict"})
	assert.Len(t, errs, 2)
	assert.Equal(t, podsecurity.LevelRestricted, policy.Enforce.Level, "a bad enforce level fails closed")
	assert.Equal(t, podsecurity.LevelPrivileged, policy.Warn.Level, "a bad warn level fails open")

	p.Namespaces = fakeNamespaces{"bad": ns}
	got := validate(t, p, createPod(restrictedPod("bad")))
	assert.NoError(t, got.err)
	assert.Contains(t, got.annotations[podsecurity.ErrorAnnotation], "Failed to parse policy: ")
}

// TestNamespaceUpdateWarnsAboutExistingPods: tightening enforce warns
// about the pods already there, grouped by reason, as upstream words it.
func TestNamespaceUpdateWarnsAboutExistingPods(t *testing.T) {
	pod := func(name string, privileged bool, owner string) *corev1.Pod {
		p := plainPod("ns")
		p.Name = name
		if privileged {
			p.Spec.Containers[0].SecurityContext = &corev1.SecurityContext{Privileged: ptr(true)}
		}
		if owner != "" {
			p.OwnerReferences = []metav1.OwnerReference{{Kind: "ReplicaSet", Name: owner, UID: "uid-" + owner, Controller: ptr(true)}}
		}
		return p
	}
	p := &podsecurity.Plugin{Namespaces: fakeNamespaces{}, Pods: fakePods{
		pod("web-2", false, "web"), pod("web-1", false, "web"), pod("root", true, ""), pod("solo", false, ""),
	}}
	old := namespace("ns", nil)
	update := func(labels map[string]string) outcome {
		return validate(t, p, &admission.Attributes{Operation: admission.Update, Resource: corev1.SchemeGroupVersion.WithResource("namespaces"),
			Name: "ns", Object: namespace("ns", labels), OldObject: old})
	}
	got := update(map[string]string{podsecurity.EnforceLevelLabel: "baseline"})
	require.NoError(t, got.err, "a label change is never refused for the pods")
	assert.Equal(t, []string{
		`existing pods in namespace "ns" violate the new PodSecurity enforce level "baseline:latest"`,
		"root: privileged",
	}, got.warnings)

	got = update(map[string]string{podsecurity.EnforceLevelLabel: "restricted"})
	assert.Equal(t, []string{
		`existing pods in namespace "ns" violate the new PodSecurity enforce level "restricted:latest"`,
		"root: privileged, allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile",
		"solo (and 2 other pods): allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile",
	}, got.warnings)

	assert.Empty(t, update(map[string]string{podsecurity.WarnLevelLabel: "restricted"}).warnings, "enforce unchanged")
	old = namespace("ns", map[string]string{podsecurity.EnforceLevelLabel: "restricted"})
	assert.Empty(t, update(map[string]string{podsecurity.EnforceLevelLabel: "baseline"}).warnings, "enforce relaxed")
}

// TestExemptions: exempt users, namespaces and runtime classes are not
// checked, and the audit Event says why.
func TestExemptions(t *testing.T) {
	p := &podsecurity.Plugin{
		Namespaces: fakeNamespaces{
			"ns":     namespace("ns", map[string]string{podsecurity.EnforceLevelLabel: "restricted"}),
			"system": namespace("system", map[string]string{podsecurity.EnforceLevelLabel: "restricted"}),
		},
		Exemptions: podsecurity.Exemptions{Usernames: []string{"ops"}, Namespaces: []string{"system"}, RuntimeClasses: []string{"kata"}},
	}
	byOps := createPod(plainPod("ns"))
	byOps.User = &request.User{Name: "ops"}
	kata := plainPod("ns")
	kata.Spec.RuntimeClassName = ptr("kata")
	tests := []struct {
		name string
		a    *admission.Attributes
		want string
	}{
		{name: "user", a: byOps, want: "user"},
		{name: "namespace", a: createPod(plainPod("system")), want: "namespace"},
		{name: "runtimeClass", a: createPod(kata), want: "runtimeClass"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := validate(t, p, tc.a)
			assert.NoError(t, got.err)
			assert.Equal(t, tc.want, got.annotations[podsecurity.ExemptAnnotation])
		})
	}
	assert.Error(t, validate(t, p, createPod(plainPod("ns"))).err, "no exemption")
}

// TestPodUpdatesAndSubresources: an update is checked only when it
// changes what a policy sees, subresources such as status never, and a
// pod whose namespace is gone is NamespaceLifecycle's to refuse.
func TestPodUpdatesAndSubresources(t *testing.T) {
	p := &podsecurity.Plugin{Namespaces: fakeNamespaces{"ns": namespace("ns", map[string]string{podsecurity.EnforceLevelLabel: "restricted"})}}
	old, pod := plainPod("ns"), plainPod("ns")
	pod.Labels = map[string]string{"a": "b"}
	a := &admission.Attributes{Operation: admission.Update, Resource: gvrPods, Namespace: "ns", Name: "x", Object: pod, OldObject: old}
	assert.NoError(t, validate(t, p, a).err, "a label change")

	pod.Spec.Containers[0].Image = "nginx"
	assert.Error(t, validate(t, p, a).err, "an image change")

	a.Subresource = "status"
	assert.NoError(t, validate(t, p, a).err, "status")

	assert.NoError(t, validate(t, p, createPod(plainPod("gone"))).err, "a missing namespace")
}

// laggingNamespaces is a NamespaceGetter whose cache is behind etcd.
type laggingNamespaces struct {
	cache, live fakeNamespaces
	liveReads   int
}

func (l *laggingNamespaces) GetNamespace(ctx context.Context, name string, opts admission.GetNamespaceOptions) (*corev1.Namespace, error) {
	if opts.Live {
		l.liveReads++
		return l.live.GetNamespace(ctx, name, opts)
	}
	return l.cache.GetNamespace(ctx, name, opts)
}

// TestLabelChangeBeforeTheCacheSeesIt: a pod created right after its
// namespace was labelled meets the new labels, though the cache still
// shows the old ones; once the cache has them, etcd is not read.
func TestLabelChangeBeforeTheCacheSeesIt(t *testing.T) {
	labelled := namespace("ns", map[string]string{podsecurity.EnforceLevelLabel: "restricted"})
	ns := &laggingNamespaces{cache: fakeNamespaces{"ns": namespace("ns", nil)}, live: fakeNamespaces{"ns": labelled}}
	p := &podsecurity.Plugin{Namespaces: ns}
	require.NoError(t, validate(t, p, &admission.Attributes{Operation: admission.Update, Resource: corev1.SchemeGroupVersion.WithResource("namespaces"),
		Name: "ns", Object: labelled, OldObject: namespace("ns", nil)}).err)

	assert.Error(t, validate(t, p, createPod(plainPod("ns"))).err, "the new labels, from etcd")
	assert.Equal(t, 1, ns.liveReads)

	ns.cache["ns"] = labelled
	assert.Error(t, validate(t, p, createPod(plainPod("ns"))).err, "the new labels, from the cache")
	assert.Error(t, validate(t, p, createPod(plainPod("ns"))).err)
	assert.Equal(t, 1, ns.liveReads, "no etcd read once the cache caught up")
}
