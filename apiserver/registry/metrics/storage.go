package metrics

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	metricsv1beta1 "github.com/minicp/minicp/api/metrics/v1beta1"
	apiresource "github.com/minicp/minicp/api/resource"
	"github.com/minicp/minicp/api/runtime"
	statsv1alpha1 "github.com/minicp/minicp/api/stats/v1alpha1"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/apiserver/registry"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/storage"
)

// Options configure NodeStorage and PodStorage. Pods and Nodes are
// required.
type Options struct {
	// Pods and Nodes are the registry stores of core/v1 pods and nodes:
	// what there is to measure, and where its kubelet listens.
	Pods, Nodes *registry.Store
	// Transport reaches the kubelets. Defaults to core.NewKubeletTransport().
	Transport http.RoundTripper
	// Clock stamps the objects' creationTimestamp. Defaults to clock.Real.
	Clock clock.Clock
}

func (o *Options) validate() error {
	if o.Pods == nil || o.Nodes == nil {
		return errors.New("metrics: Pods and Nodes are required")
	}
	if o.Clock == nil {
		o.Clock = clock.Real
	}
	return nil
}

// The resources errors about metrics name, as metrics-server names
// them.
var (
	nodeMetricsResource = runtime.GroupResource{Group: metricsv1beta1.GroupName, Resource: "nodemetrics"}
	podMetricsResource  = runtime.GroupResource{Group: metricsv1beta1.GroupName, Resource: "podmetrics"}
)

// readOnly is the part of storage.Interface that metrics do not serve:
// every write and watch is refused. The resources' verbs are get and
// list, so the handlers never call these; they answer 405 if something
// in-process does.
type readOnly struct {
	resource runtime.GroupResource
}

func (r readOnly) refuse(verb string) error {
	return apierrors.NewMethodNotSupported(r.resource, verb)
}

// Create implements storage.Interface: refused.
func (r readOnly) Create(context.Context, string, runtime.Object) (runtime.Object, error) {
	return nil, r.refuse("create")
}

// GuaranteedUpdate implements storage.Interface: refused.
func (r readOnly) GuaranteedUpdate(context.Context, string, storage.UpdateOptions, storage.UpdateFunc) (runtime.Object, error) {
	return nil, r.refuse("update")
}

// Delete implements storage.Interface: refused.
func (r readOnly) Delete(context.Context, string, storage.DeleteOptions) (runtime.Object, error) {
	return nil, r.refuse("delete")
}

// Watch implements storage.Interface: refused.
func (r readOnly) Watch(context.Context, string, storage.ListOptions) (watch.Interface, error) {
	return nil, r.refuse("watch")
}

// keyParts splits a key below root into its segments: [name] or
// [namespace, name] for an object, [] or [namespace] for a list.
func keyParts(root, key string) ([]string, error) {
	rest, ok := strings.CutPrefix(key, root)
	if !ok || rest != "" && !strings.HasPrefix(rest, "/") {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("key %q is not under %q", key, root))
	}
	rest = strings.TrimPrefix(rest, "/")
	if rest == "" {
		return nil, nil
	}
	return strings.Split(rest, "/"), nil
}

// filter keeps the objects that match p, in order.
func filter[T runtime.Object](objs []T, p storage.Predicate) ([]runtime.Object, error) {
	out := make([]runtime.Object, 0, len(objs))
	for _, obj := range objs {
		ok, err := p.Matches(obj)
		if err != nil {
			return nil, apierrors.NewInternalError(err)
		}
		if ok {
			out = append(out, obj)
		}
	}
	return out, nil
}

// cpuQuantity is nanocores as a Quantity of millicores, rounded up so
// that a container that used any CPU shows some.
func cpuQuantity(s *statsv1alpha1.CPUStats) (apiresource.Quantity, bool) {
	if s == nil || s.UsageNanoCores == nil {
		return apiresource.Quantity{}, false
	}
	return apiresource.NewMilliQuantity(int64((*s.UsageNanoCores+999_999)/1_000_000), apiresource.DecimalSI), true
}

// memoryQuantity is the working set in bytes.
func memoryQuantity(s *statsv1alpha1.MemoryStats) (apiresource.Quantity, bool) {
	if s == nil || s.WorkingSetBytes == nil {
		return apiresource.Quantity{}, false
	}
	return apiresource.NewQuantity(int64(*s.WorkingSetBytes), apiresource.BinarySI), true
}

// usageList is the usage of cpu and memory as a ResourceList, false
// when either is missing: metrics-server reports a container or node
// only with both.
func usageList(cpu *statsv1alpha1.CPUStats, mem *statsv1alpha1.MemoryStats) (corev1.ResourceList, bool) {
	c, ok1 := cpuQuantity(cpu)
	m, ok2 := memoryQuantity(mem)
	if !ok1 || !ok2 {
		return nil, false
	}
	return corev1.ResourceList{corev1.ResourceCPU: c, corev1.ResourceMemory: m}, true
}

// window is the window every measurement is over.
var window = metav1.Duration{Duration: statsv1alpha1.Window}
