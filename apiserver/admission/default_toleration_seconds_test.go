package admission_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/admission"
)

var podsResource = runtime.GroupVersionResource{Version: "v1", Resource: "pods"}

func seconds(n int64) *int64 { return &n }

func notReady(s int64) corev1.Toleration {
	return corev1.Toleration{Key: corev1.TaintNodeNotReady, Operator: corev1.TolerationOpExists,
		Effect: corev1.TaintEffectNoExecute, TolerationSeconds: seconds(s)}
}

func unreachable(s int64) corev1.Toleration {
	return corev1.Toleration{Key: corev1.TaintNodeUnreachable, Operator: corev1.TolerationOpExists,
		Effect: corev1.TaintEffectNoExecute, TolerationSeconds: seconds(s)}
}

func TestDefaultTolerationSeconds(t *testing.T) {
	gpu := corev1.Toleration{Key: "gpu", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule}
	tests := []struct {
		name string
		have []corev1.Toleration
		want []corev1.Toleration
	}{
		{name: "none: both added", have: nil, want: []corev1.Toleration{notReady(300), unreachable(300)}},
		{name: "others kept, both added", have: []corev1.Toleration{gpu}, want: []corev1.Toleration{gpu, notReady(300), unreachable(300)}},
		{name: "own not-ready kept", have: []corev1.Toleration{notReady(60)}, want: []corev1.Toleration{notReady(60), unreachable(300)}},
		{
			name: "own unreachable, any effect, forever",
			have: []corev1.Toleration{{Key: corev1.TaintNodeUnreachable, Operator: corev1.TolerationOpExists}},
			want: []corev1.Toleration{{Key: corev1.TaintNodeUnreachable, Operator: corev1.TolerationOpExists}, notReady(300)},
		},
		{
			name: "every taint tolerated",
			have: []corev1.Toleration{{Operator: corev1.TolerationOpExists}},
			want: []corev1.Toleration{{Operator: corev1.TolerationOpExists}},
		},
		{
			name: "NoSchedule tolerations do not count",
			have: []corev1.Toleration{{Key: corev1.TaintNodeNotReady, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule}},
			want: []corev1.Toleration{
				{Key: corev1.TaintNodeNotReady, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule},
				notReady(300), unreachable(300),
			},
		},
	}
	plugin := admission.DefaultTolerationSeconds{}
	for _, tc := range tests {
		for _, op := range []admission.Operation{admission.Create, admission.Update} {
			t.Run(tc.name+"/"+string(op), func(t *testing.T) {
				require.True(t, plugin.Handles(op))
				pod := &corev1.Pod{Spec: corev1.PodSpec{Tolerations: append([]corev1.Toleration(nil), tc.have...)}}
				err := admission.Chain{plugin}.Admit(t.Context(), &admission.Attributes{Operation: op, Resource: podsResource, Object: pod})
				require.NoError(t, err)
				assert.Equal(t, tc.want, pod.Spec.Tolerations)
			})
		}
	}
}

func TestDefaultTolerationSecondsLeavesOthersAlone(t *testing.T) {
	plugin := admission.DefaultTolerationSeconds{}
	assert.False(t, plugin.Handles(admission.Delete))
	assert.False(t, plugin.Handles(admission.Connect))

	// pods/status and pods/binding are not the pod proper.
	pod := &corev1.Pod{}
	for _, sub := range []string{"status", "binding"} {
		err := plugin.Admit(t.Context(), &admission.Attributes{Operation: admission.Update, Resource: podsResource, Subresource: sub, Object: pod})
		require.NoError(t, err)
		assert.Empty(t, pod.Spec.Tolerations, "subresource %s", sub)
	}
	// Other resources are not pods.
	svc := &corev1.Service{}
	err := plugin.Admit(t.Context(), &admission.Attributes{Operation: admission.Create,
		Resource: runtime.GroupVersionResource{Version: "v1", Resource: "services"}, Object: svc})
	require.NoError(t, err)

	// Bad input is a 400, never a panic.
	for _, obj := range []runtime.Object{nil, svc} {
		err := plugin.Admit(t.Context(), &admission.Attributes{Operation: admission.Create, Resource: podsResource, Object: obj})
		assert.True(t, apierrors.IsBadRequest(err), "object %T: %v", obj, err)
	}
}
