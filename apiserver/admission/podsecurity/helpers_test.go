package podsecurity_test

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/admission"
	"github.com/minicp/minicp/apiserver/admission/podsecurity"
	"github.com/minicp/minicp/apiserver/request"
)

// fakeNamespaces is an admission.NamespaceGetter over a map.
type fakeNamespaces map[string]*corev1.Namespace

func (f fakeNamespaces) GetNamespace(_ context.Context, name string, _ admission.GetNamespaceOptions) (*corev1.Namespace, error) {
	if ns, ok := f[name]; ok {
		return ns, nil
	}
	return nil, apierrors.NewNotFound(runtime.GroupResource{Resource: "namespaces"}, name)
}

// fakePods is a podsecurity.PodLister over a slice.
type fakePods []*corev1.Pod

func (f fakePods) ListPods(_ context.Context, ns string) ([]*corev1.Pod, error) {
	var out []*corev1.Pod
	for _, p := range f {
		if p.Namespace == ns {
			out = append(out, p)
		}
	}
	return out, nil
}

// warnings is a request.WarningRecorder that keeps what it gets.
type warnings struct {
	mu   sync.Mutex
	list []string
}

func (w *warnings) AddWarning(text string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.list = append(w.list, text)
}

func (w *warnings) get() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.list)
}

// outcome is what one Validate call did.
type outcome struct {
	err         error
	warnings    []string
	annotations map[string]string
}

// namespace is a namespace with labels.
func namespace(name string, labels map[string]string) *corev1.Namespace {
	return &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels}}
}

// validate runs the plugin on a with a warning recorder and audit
// annotations in the context.
func validate(t *testing.T, p *podsecurity.Plugin, a *admission.Attributes) outcome {
	t.Helper()
	w := &warnings{}
	ctx, annotations := request.WithAuditAnnotations(request.WithWarningRecorder(t.Context(), w))
	err := p.Validate(ctx, a)
	return outcome{err: err, warnings: w.get(), annotations: annotations.Map()}
}

var gvrPods = corev1.SchemeGroupVersion.WithResource("pods")

// createPod is the admission of a pod create.
func createPod(pod *corev1.Pod) *admission.Attributes {
	return &admission.Attributes{Operation: admission.Create, Resource: gvrPods, Namespace: pod.Namespace, Name: pod.Name, Object: pod}
}

// plainPod is `kubectl run x --image=busybox`: one container, no
// security settings.
func plainPod(ns string) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "x", Namespace: ns},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "busybox"}}},
	}
}

func ptr[T any](v T) *T { return &v }

// restrictedPod meets the restricted level: non-root, RuntimeDefault
// seccomp, every capability dropped, no privilege escalation.
func restrictedPod(ns string) *corev1.Pod {
	pod := plainPod(ns)
	pod.Spec.SecurityContext = &corev1.PodSecurityContext{
		RunAsNonRoot:   ptr(true),
		SeccompProfile: &corev1.SeccompProfile{Type: "RuntimeDefault"},
	}
	pod.Spec.Containers[0].SecurityContext = &corev1.SecurityContext{
		AllowPrivilegeEscalation: ptr(false),
		Capabilities:             &corev1.Capabilities{Drop: []corev1.Capability{"ALL"}},
	}
	return pod
}
