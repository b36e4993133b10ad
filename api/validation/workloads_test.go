package validation

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	appsv1 "github.com/minicp/minicp/api/apps/v1"
	autoscalingv1 "github.com/minicp/minicp/api/autoscaling/v1"
	batchv1 "github.com/minicp/minicp/api/batch/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/intstr"
	metav1 "github.com/minicp/minicp/api/meta/v1"
)

func podTemplate(labels map[string]string) corev1.PodTemplateSpec {
	return corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: labels},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: "nginx:1.27"}}},
	}
}

// validDeployment is `kubectl create deployment web --image=nginx:1.27`
// after defaulting.
func validDeployment() *appsv1.Deployment {
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", Labels: map[string]string{"app": "web"}},
		Spec: appsv1.DeploymentSpec{
			Replicas: ptrTo(int32(2)),
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: podTemplate(map[string]string{"app": "web"}),
		},
	}
	appsv1.SetDefaults(d)
	return d
}

func TestValidateDeployment(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(*appsv1.Deployment)
		want   []string
	}{
		{name: "valid", mutate: func(*appsv1.Deployment) {}, want: []string{}},
		{name: "negative replicas", mutate: func(d *appsv1.Deployment) { d.Spec.Replicas = ptrTo(int32(-1)) },
			want: []string{"FieldValueInvalid spec.replicas"}},
		{name: "no selector", mutate: func(d *appsv1.Deployment) { d.Spec.Selector = nil },
			want: []string{"FieldValueRequired spec.selector"}},
		{name: "empty selector", mutate: func(d *appsv1.Deployment) { d.Spec.Selector = &metav1.LabelSelector{} },
			want: []string{"FieldValueInvalid spec.selector"}},
		{name: "selector misses template", mutate: func(d *appsv1.Deployment) { d.Spec.Selector.MatchLabels["app"] = "api" },
			want: []string{"FieldValueInvalid spec.template.metadata.labels"}},
		{name: "selector expression", mutate: func(d *appsv1.Deployment) {
			d.Spec.Selector.MatchExpressions = []metav1.LabelSelectorRequirement{{Key: "tier", Operator: "NotIn", Values: []string{"db"}}}
		}, want: []string{}},
		{name: "bad selector operator", mutate: func(d *appsv1.Deployment) {
			d.Spec.Selector.MatchExpressions = []metav1.LabelSelectorRequirement{{Key: "tier", Operator: "Near"}}
		}, want: []string{"FieldValueInvalid spec.selector.matchExpressions[0].operator", "FieldValueInvalid spec.selector"}},
		{name: "restart never", mutate: func(d *appsv1.Deployment) { d.Spec.Template.Spec.RestartPolicy = corev1.RestartPolicyNever },
			want: []string{"FieldValueNotSupported spec.template.spec.restartPolicy"}},
		{name: "deadline", mutate: func(d *appsv1.Deployment) { d.Spec.Template.Spec.ActiveDeadlineSeconds = ptrTo(int64(5)) },
			want: []string{"FieldValueForbidden spec.template.spec.activeDeadlineSeconds"}},
		{name: "bad container", mutate: func(d *appsv1.Deployment) { d.Spec.Template.Spec.Containers[0].Image = "" },
			want: []string{"FieldValueRequired spec.template.spec.containers[0].image"}},
		{name: "bad template label", mutate: func(d *appsv1.Deployment) { d.Spec.Template.Labels["bad key"] = "x" },
			want: []string{"FieldValueInvalid spec.template.labels"}},
		{name: "recreate with rolling update", mutate: func(d *appsv1.Deployment) { d.Spec.Strategy.Type = appsv1.RecreateDeploymentStrategyType },
			want: []string{"FieldValueForbidden spec.strategy.rollingUpdate"}},
		{name: "unknown strategy", mutate: func(d *appsv1.Deployment) { d.Spec.Strategy.Type = "BlueGreen" },
			want: []string{"FieldValueNotSupported spec.strategy.type"}},
		{name: "both zero", mutate: func(d *appsv1.Deployment) {
			d.Spec.Strategy.RollingUpdate = &appsv1.RollingUpdateDeployment{MaxSurge: ptrTo(intstr.FromString("0%")), MaxUnavailable: ptrTo(intstr.FromInt32(0))}
		}, want: []string{"FieldValueInvalid spec.strategy.rollingUpdate.maxUnavailable"}},
		{name: "bad percent", mutate: func(d *appsv1.Deployment) { d.Spec.Strategy.RollingUpdate.MaxSurge = ptrTo(intstr.FromString("half")) },
			want: []string{"FieldValueInvalid spec.strategy.rollingUpdate.maxSurge"}},
		{name: "over 100%", mutate: func(d *appsv1.Deployment) {
			d.Spec.Strategy.RollingUpdate.MaxUnavailable = ptrTo(intstr.FromString("150%"))
		},
			want: []string{"FieldValueInvalid spec.strategy.rollingUpdate.maxUnavailable"}},
		{name: "surge over 100% is fine", mutate: func(d *appsv1.Deployment) { d.Spec.Strategy.RollingUpdate.MaxSurge = ptrTo(intstr.FromString("200%")) },
			want: []string{}},
		{name: "deadline not above min ready", mutate: func(d *appsv1.Deployment) { d.Spec.MinReadySeconds = 600 },
			want: []string{"FieldValueInvalid spec.progressDeadlineSeconds"}},
		{name: "negative history", mutate: func(d *appsv1.Deployment) { d.Spec.RevisionHistoryLimit = ptrTo(int32(-1)) },
			want: []string{"FieldValueInvalid spec.revisionHistoryLimit"}},
		{name: "no namespace", mutate: func(d *appsv1.Deployment) { d.Namespace = "" },
			want: []string{"FieldValueRequired metadata.namespace"}},
	}
	for _, tc := range tests {
		d := validDeployment()
		tc.mutate(d)
		got := ValidateDeployment(d)
		assert.Equal(t, tc.want, summary(got), "ValidateDeployment(%s): %v", tc.name, got)
	}

	d := validDeployment()
	d.Spec.Selector.MatchLabels["app"] = "api"
	assert.EqualError(t, ValidateDeployment(d),
		`spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `+"`selector` does not match template `labels`")
	d = validDeployment()
	d.Spec.Strategy.RollingUpdate.MaxSurge = ptrTo(intstr.FromString("half"))
	assert.EqualError(t, ValidateDeployment(d),
		`spec.strategy.rollingUpdate.maxSurge: Invalid value: "half": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`)
}

func TestValidateDeploymentUpdates(t *testing.T) {
	stored := func() *appsv1.Deployment {
		d := validDeployment()
		d.UID, d.ResourceVersion, d.CreationTimestamp = "u", "5", metav1.NewTime(time.Unix(100, 0))
		return d
	}
	old, d := stored(), stored()
	d.Spec.Replicas = ptrTo(int32(7))
	d.Spec.Template.Spec.Containers[0].Image = "nginx:1.28"
	assert.Empty(t, ValidateDeploymentUpdate(d, old), "replicas and template change")

	d = stored()
	d.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web", "v": "2"}}
	d.Spec.Template.Labels["v"] = "2"
	assert.Equal(t, []string{"FieldValueInvalid spec.selector"}, summary(ValidateDeploymentUpdate(d, old)), "the selector is immutable")

	tests := []struct {
		name   string
		mutate func(*appsv1.DeploymentStatus)
		want   []string
	}{
		{name: "valid", mutate: func(s *appsv1.DeploymentStatus) {
			*s = appsv1.DeploymentStatus{Replicas: 3, UpdatedReplicas: 3, ReadyReplicas: 2, AvailableReplicas: 2, UnavailableReplicas: 1, ObservedGeneration: 4}
		}, want: []string{}},
		{name: "negative", mutate: func(s *appsv1.DeploymentStatus) { s.UnavailableReplicas = -1 }, want: []string{"FieldValueInvalid status.unavailableReplicas"}},
		{name: "ready above replicas", mutate: func(s *appsv1.DeploymentStatus) { s.Replicas, s.ReadyReplicas, s.AvailableReplicas = 3, 4, 1 },
			want: []string{"FieldValueInvalid status.readyReplicas"}},
		{name: "available above ready", mutate: func(s *appsv1.DeploymentStatus) { s.Replicas, s.ReadyReplicas, s.AvailableReplicas = 3, 1, 2 },
			want: []string{"FieldValueInvalid status.availableReplicas"}},
		{name: "collision count decremented", mutate: func(s *appsv1.DeploymentStatus) { s.CollisionCount = ptrTo(int32(1)) },
			want: []string{"FieldValueInvalid status.collisionCount"}},
	}
	for _, tc := range tests {
		old, d := stored(), stored()
		old.Status.CollisionCount = nil
		if tc.name == "collision count decremented" {
			old.Status.CollisionCount = ptrTo(int32(2))
		}
		tc.mutate(&d.Status)
		got := ValidateDeploymentStatusUpdate(d, old)
		assert.Equal(t, tc.want, summary(got), "ValidateDeploymentStatusUpdate(%s): %v", tc.name, got)
	}
}

func TestValidateReplicaSet(t *testing.T) {
	valid := func() *appsv1.ReplicaSet {
		rs := &appsv1.ReplicaSet{
			ObjectMeta: metav1.ObjectMeta{Name: "web-6d4cf56db6", Namespace: "default", UID: "u", ResourceVersion: "1"},
			Spec: appsv1.ReplicaSetSpec{
				Replicas: ptrTo(int32(3)),
				Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web", "pod-template-hash": "6d4cf56db6"}},
				Template: podTemplate(map[string]string{"app": "web", "pod-template-hash": "6d4cf56db6"}),
			},
		}
		appsv1.SetDefaults(rs)
		return rs
	}
	tests := []struct {
		name   string
		mutate func(*appsv1.ReplicaSet)
		want   []string
	}{
		{name: "valid", mutate: func(*appsv1.ReplicaSet) {}, want: []string{}},
		{name: "negative min ready", mutate: func(rs *appsv1.ReplicaSet) { rs.Spec.MinReadySeconds = -1 }, want: []string{"FieldValueInvalid spec.minReadySeconds"}},
		{name: "template not selected", mutate: func(rs *appsv1.ReplicaSet) { delete(rs.Spec.Template.Labels, "pod-template-hash") },
			want: []string{"FieldValueInvalid spec.template.metadata.labels"}},
		{name: "bad name", mutate: func(rs *appsv1.ReplicaSet) { rs.Name = "Web" }, want: []string{"FieldValueInvalid metadata.name"}},
	}
	for _, tc := range tests {
		rs := valid()
		tc.mutate(rs)
		got := ValidateReplicaSet(rs)
		assert.Equal(t, tc.want, summary(got), "ValidateReplicaSet(%s): %v", tc.name, got)
	}
	old, rs := valid(), valid()
	rs.Spec.Replicas = ptrTo(int32(0))
	assert.Empty(t, ValidateReplicaSetUpdate(rs, old), "scale to zero")
	rs.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	assert.Equal(t, []string{"FieldValueInvalid spec.selector"}, summary(ValidateReplicaSetUpdate(rs, old)))

	old, rs = valid(), valid()
	rs.Status = appsv1.ReplicaSetStatus{Replicas: 2, FullyLabeledReplicas: 3, ReadyReplicas: 2, AvailableReplicas: 2}
	assert.Equal(t, []string{"FieldValueInvalid status.fullyLabeledReplicas"}, summary(ValidateReplicaSetStatusUpdate(rs, old)))
}

// validJob is `kubectl create job hello --image=busybox` after defaulting
// and the API server's selector generation.
func validJob() *batchv1.Job {
	uid := "3f2e1d0c-9b8a-4765-8432-10fedcba9876"
	labels := map[string]string{
		batchv1.ControllerUidLabel: uid, batchv1.JobNameLabel: "hello",
		batchv1.LegacyControllerUidLabel: uid, batchv1.LegacyJobNameLabel: "hello",
	}
	job := &batchv1.Job{
		ObjectMeta: metav1.ObjectMeta{Name: "hello", Namespace: "default", UID: uid},
		Spec: batchv1.JobSpec{
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{batchv1.ControllerUidLabel: uid}},
			Template: podTemplate(labels),
		},
	}
	job.Spec.Template.Spec.RestartPolicy = corev1.RestartPolicyNever
	batchv1.SetDefaults(job)
	return job
}

func TestValidateJob(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(*batchv1.Job)
		want   []string
	}{
		{name: "valid", mutate: func(*batchv1.Job) {}, want: []string{}},
		{name: "restart always", mutate: func(j *batchv1.Job) { j.Spec.Template.Spec.RestartPolicy = corev1.RestartPolicyAlways },
			want: []string{"FieldValueRequired spec.template.spec.restartPolicy"}},
		{name: "restart on failure", mutate: func(j *batchv1.Job) { j.Spec.Template.Spec.RestartPolicy = corev1.RestartPolicyOnFailure },
			want: []string{}},
		{name: "negative counts", mutate: func(j *batchv1.Job) {
			j.Spec.Parallelism, j.Spec.BackoffLimit, j.Spec.ActiveDeadlineSeconds = ptrTo(int32(-1)), ptrTo(int32(-2)), ptrTo(int64(-3))
		}, want: []string{"FieldValueInvalid spec.parallelism", "FieldValueInvalid spec.activeDeadlineSeconds", "FieldValueInvalid spec.backoffLimit"}},
		{name: "no selector", mutate: func(j *batchv1.Job) { j.Spec.Selector = nil },
			want: []string{"FieldValueRequired spec.selector"}},
		{name: "selector not generated", mutate: func(j *batchv1.Job) {
			j.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{batchv1.JobNameLabel: "hello"}}
		}, want: []string{"FieldValueInvalid spec.selector"}},
		{name: "generated label missing", mutate: func(j *batchv1.Job) { delete(j.Spec.Template.Labels, batchv1.LegacyJobNameLabel) },
			want: []string{"FieldValueRequired spec.template.metadata.labels[job-name]"}},
		{name: "generated label wrong", mutate: func(j *batchv1.Job) { j.Spec.Template.Labels[batchv1.JobNameLabel] = "other" },
			want: []string{"FieldValueInvalid spec.template.metadata.labels[batch.kubernetes.io/job-name]"}},
		{name: "manual selector", mutate: func(j *batchv1.Job) {
			j.Spec.ManualSelector = ptrTo(true)
			j.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "hello"}}
			j.Spec.Template.Labels = map[string]string{"app": "hello"}
		}, want: []string{}},
		{name: "manual selector misses template", mutate: func(j *batchv1.Job) {
			j.Spec.ManualSelector = ptrTo(true)
			j.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "other"}}
		}, want: []string{"FieldValueInvalid spec.template.metadata.labels"}},
		{name: "indexed without completions", mutate: func(j *batchv1.Job) {
			j.Spec.CompletionMode, j.Spec.Completions = ptrTo(batchv1.IndexedCompletion), nil
		}, want: []string{"FieldValueRequired spec.completions"}},
		{name: "unknown completion mode", mutate: func(j *batchv1.Job) { j.Spec.CompletionMode = ptrTo(batchv1.CompletionMode("Random")) },
			want: []string{"FieldValueNotSupported spec.completionMode"}},
		{name: "pod failure policy", mutate: func(j *batchv1.Job) {
			j.Spec.PodReplacementPolicy = ptrTo(batchv1.Failed)
			j.Spec.PodFailurePolicy = &batchv1.PodFailurePolicy{Rules: []batchv1.PodFailurePolicyRule{
				{Action: batchv1.PodFailurePolicyActionFailJob, OnExitCodes: &batchv1.PodFailurePolicyOnExitCodesRequirement{Operator: "In", Values: []int32{1, 42}}},
				{Action: "Explode", OnPodConditions: []batchv1.PodFailurePolicyOnPodConditionsPattern{{Type: "DisruptionTarget", Status: "True"}}},
				{Action: batchv1.PodFailurePolicyActionIgnore},
				{Action: batchv1.PodFailurePolicyActionCount, OnExitCodes: &batchv1.PodFailurePolicyOnExitCodesRequirement{Operator: "In", Values: []int32{0, 3, 2}}},
			}}
		}, want: []string{"FieldValueNotSupported spec.podFailurePolicy.rules[1].action", "FieldValueInvalid spec.podFailurePolicy.rules[2]",
			"FieldValueInvalid spec.podFailurePolicy.rules[3].onExitCodes.values[0]", "FieldValueInvalid spec.podFailurePolicy.rules[3].onExitCodes.values[2]"}},
		{name: "replacement policy with failure policy", mutate: func(j *batchv1.Job) {
			j.Spec.PodFailurePolicy = &batchv1.PodFailurePolicy{Rules: []batchv1.PodFailurePolicyRule{{Action: batchv1.PodFailurePolicyActionIgnore,
				OnPodConditions: []batchv1.PodFailurePolicyOnPodConditionsPattern{{Type: "DisruptionTarget", Status: "True"}}}}}
		}, want: []string{"FieldValueNotSupported spec.podReplacementPolicy"}},
	}
	for _, tc := range tests {
		j := validJob()
		tc.mutate(j)
		got := ValidateJob(j)
		assert.Equal(t, tc.want, summary(got), "ValidateJob(%s): %v", tc.name, got)
	}
	j := validJob()
	j.Spec.Template.Spec.RestartPolicy = corev1.RestartPolicyAlways
	assert.EqualError(t, ValidateJob(j), `spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"`)
	j = validJob()
	delete(j.Spec.Template.Labels, batchv1.LegacyJobNameLabel)
	assert.EqualError(t, ValidateJob(j), `spec.template.metadata.labels[job-name]: Required value: must be 'hello'`)
}

func TestValidateJobUpdates(t *testing.T) {
	stored := func() *batchv1.Job {
		j := validJob()
		j.ResourceVersion, j.CreationTimestamp = "9", metav1.NewTime(time.Unix(100, 0))
		return j
	}
	old, j := stored(), stored()
	j.Spec.Parallelism = ptrTo(int32(3))
	j.Spec.BackoffLimit = ptrTo(int32(1))
	assert.Empty(t, ValidateJobUpdate(j, old), "parallelism and backoffLimit may change")

	old, j = stored(), stored()
	j.Spec.Completions = ptrTo(int32(5))
	j.Spec.Template.Spec.Containers[0].Image = "busybox:2"
	assert.Equal(t, []string{"FieldValueInvalid spec.completions", "FieldValueInvalid spec.template"}, summary(ValidateJobUpdate(j, old)))

	// A suspended Job that never started may be placed by a queue.
	old, j = stored(), stored()
	old.Spec.Suspend, j.Spec.Suspend = ptrTo(true), ptrTo(true)
	j.Spec.Template.Spec.NodeSelector = map[string]string{"pool": "batch"}
	assert.Empty(t, ValidateJobUpdate(j, old))
	old.Status.StartTime = &metav1.Time{Time: time.Unix(200, 0)}
	assert.Equal(t, []string{"FieldValueInvalid spec.template"}, summary(ValidateJobUpdate(j, old)), "once started, never")

	old, j = stored(), stored()
	j.Status = batchv1.JobStatus{Active: 1, Succeeded: -1, Ready: ptrTo(int32(-1))}
	assert.Equal(t, []string{"FieldValueInvalid status.succeeded", "FieldValueInvalid status.ready"}, summary(ValidateJobStatusUpdate(j, old)))
}

func TestValidateScale(t *testing.T) {
	scale := &autoscalingv1.Scale{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default"}, Spec: autoscalingv1.ScaleSpec{Replicas: 3}}
	assert.Empty(t, ValidateScale(scale))
	scale.Spec.Replicas = -1
	assert.EqualError(t, ValidateScale(scale), "spec.replicas: Invalid value: -1: must be greater than or equal to 0")
	scale.Name = strings.Repeat("x", 300)
	assert.Equal(t, []string{"FieldValueInvalid metadata.name", "FieldValueInvalid spec.replicas"}, summary(ValidateScale(scale)))
}
