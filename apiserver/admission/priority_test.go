package admission_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	schedulingv1 "github.com/minicp/minicp/api/scheduling/v1"
	"github.com/minicp/minicp/apiserver/admission"
)

// fakeClasses is a PriorityClasses over a map.
type fakeClasses map[string]*schedulingv1.PriorityClass

func (f fakeClasses) GetPriorityClass(_ context.Context, name string) (*schedulingv1.PriorityClass, error) {
	if pc, ok := f[name]; ok {
		return pc, nil
	}
	return nil, apierrors.NewNotFound(schedulingv1.Resource().GVR.GroupResource(), name)
}

func (f fakeClasses) ListPriorityClasses(context.Context) ([]*schedulingv1.PriorityClass, error) {
	var out []*schedulingv1.PriorityClass
	for _, pc := range f {
		out = append(out, pc)
	}
	return out, nil
}

func class(name string, value int32, globalDefault bool, policy corev1.PreemptionPolicy) *schedulingv1.PriorityClass {
	return &schedulingv1.PriorityClass{ObjectMeta: metav1.ObjectMeta{Name: name}, Value: value, GlobalDefault: globalDefault, PreemptionPolicy: &policy}
}

func priorityPodCreate(pod *corev1.Pod) *admission.Attributes {
	return &admission.Attributes{Operation: admission.Create, Resource: corev1.SchemeGroupVersion.WithResource("pods"),
		Name: pod.Name, Object: pod}
}

func int32p(v int32) *int32 { return &v }

func TestPriorityAdmit(t *testing.T) {
	high := class("high", 1000, false, corev1.PreemptNever)
	tests := []struct {
		name       string
		classes    fakeClasses
		pod        corev1.PodSpec
		want       int32
		wantClass  string
		wantPolicy corev1.PreemptionPolicy
		wantErr    string
	}{
		{name: "no class, no default", classes: fakeClasses{}, want: 0, wantPolicy: corev1.PreemptLowerPriority},
		{name: "the global default", classes: fakeClasses{"high": high, "low": class("low", 10, true, corev1.PreemptLowerPriority)},
			want: 10, wantClass: "low", wantPolicy: corev1.PreemptLowerPriority},
		{name: "the lowest of two defaults", classes: fakeClasses{"a": class("a", 20, true, corev1.PreemptLowerPriority), "b": class("b", 5, true, corev1.PreemptNever)},
			want: 5, wantClass: "b", wantPolicy: corev1.PreemptNever},
		{name: "a named class", classes: fakeClasses{"high": high}, pod: corev1.PodSpec{PriorityClassName: "high"},
			want: 1000, wantClass: "high", wantPolicy: corev1.PreemptNever},
		{name: "the class's own value given", classes: fakeClasses{"high": high}, pod: corev1.PodSpec{PriorityClassName: "high", Priority: int32p(1000)},
			want: 1000, wantClass: "high", wantPolicy: corev1.PreemptNever},
		{name: "a missing class", classes: fakeClasses{}, pod: corev1.PodSpec{PriorityClassName: "nope"},
			wantErr: `pods "p" is forbidden: no PriorityClass with name nope was found`},
		{name: "another value", classes: fakeClasses{"high": high}, pod: corev1.PodSpec{PriorityClassName: "high", Priority: int32p(7)},
			wantErr: `pods "p" is forbidden: the integer value of priority (7) must not be provided in pod spec; priority admission controller computed 1000 from the given PriorityClass name`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns"}, Spec: tc.pod}
			err := (&admission.Priority{Classes: tc.classes}).Admit(context.Background(), priorityPodCreate(pod))
			if tc.wantErr != "" {
				require.Error(t, err)
				assert.True(t, apierrors.IsForbidden(err), "403: %v", err)
				assert.Equal(t, tc.wantErr, err.Error())
				return
			}
			require.NoError(t, err)
			require.NotNil(t, pod.Spec.Priority)
			assert.Equal(t, tc.want, *pod.Spec.Priority)
			assert.Equal(t, tc.wantClass, pod.Spec.PriorityClassName)
			require.NotNil(t, pod.Spec.PreemptionPolicy)
			assert.Equal(t, tc.wantPolicy, *pod.Spec.PreemptionPolicy)
		})
	}
}

func TestPriorityKeepsValuesOnUpdate(t *testing.T) {
	old := &corev1.Pod{Spec: corev1.PodSpec{Priority: int32p(5)}}
	pod := &corev1.Pod{}
	a := &admission.Attributes{Operation: admission.Update, Resource: corev1.SchemeGroupVersion.WithResource("pods"), Object: pod, OldObject: old}
	require.NoError(t, (&admission.Priority{Classes: fakeClasses{}}).Admit(context.Background(), a))
	require.NotNil(t, pod.Spec.Priority)
	assert.Equal(t, int32(5), *pod.Spec.Priority)
}

func TestPriorityOneGlobalDefault(t *testing.T) {
	p := &admission.Priority{Classes: fakeClasses{"low": class("low", 10, true, corev1.PreemptLowerPriority)}}
	attrs := func(pc *schedulingv1.PriorityClass) *admission.Attributes {
		return &admission.Attributes{Operation: admission.Create, Resource: schedulingv1.Resource().GVR, Name: pc.Name, Object: pc}
	}
	err := p.Validate(context.Background(), attrs(class("other", 1, true, corev1.PreemptLowerPriority)))
	require.Error(t, err)
	assert.Equal(t, `priorityclasses.scheduling.k8s.io "other" is forbidden: PriorityClass low is already marked as default. Only one default can exist`, err.Error())
	assert.NoError(t, p.Validate(context.Background(), attrs(class("low", 10, true, corev1.PreemptLowerPriority))), "the default itself")
	assert.NoError(t, p.Validate(context.Background(), attrs(class("plain", 1, false, corev1.PreemptLowerPriority))))
}
