package apiserver

import (
	"context"
	"errors"
	"fmt"

	admissionregistrationv1 "github.com/minicp/minicp/api/admissionregistration/v1"
	"github.com/minicp/minicp/api/apierrors"
	apiextensionsv1 "github.com/minicp/minicp/api/apiextensions/v1"
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
	metricsv1beta1 "github.com/minicp/minicp/api/metrics/v1beta1"
	policyv1 "github.com/minicp/minicp/api/policy/v1"
	rbacv1 "github.com/minicp/minicp/api/rbac/v1"
	"github.com/minicp/minicp/api/runtime"
	schedulingv1 "github.com/minicp/minicp/api/scheduling/v1"
	"github.com/minicp/minicp/apiserver/admission"
	"github.com/minicp/minicp/apiserver/admission/podsecurity"
	"github.com/minicp/minicp/apiserver/handlers"
	"github.com/minicp/minicp/apiserver/printers"
	"github.com/minicp/minicp/apiserver/registry"
	"github.com/minicp/minicp/apiserver/registry/coordination"
	"github.com/minicp/minicp/apiserver/registry/core"
	"github.com/minicp/minicp/storage"
	"github.com/minicp/minicp/watchcache"
)

// defaultTables renders kinds without their own printer.
var defaultTables handlers.TableConvertor = printers.Default

// NewScheme returns a Scheme with every built-in kind and resource. The
// server installs a handler for each resource; discovery lists them.
func NewScheme() (*runtime.Scheme, error) {
	s := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{corev1.AddToScheme, coordinationv1.AddToScheme, appsv1.AddToScheme, batchv1.AddToScheme, autoscalingv1.AddToScheme, apiextensionsv1.AddToScheme, admissionregistrationv1.AddToScheme,
		rbacv1.AddToScheme, authorizationv1.AddToScheme, authenticationv1.AddToScheme, discoveryv1.AddToScheme,
		autoscalingv2.AddToScheme, certificatesv1.AddToScheme, policyv1.AddToScheme, schedulingv1.AddToScheme, metricsv1beta1.AddToScheme, flowcontrolv1.AddToScheme} {
		if err := add(s); err != nil {
			return nil, err
		}
	}
	return s, nil
}

var (
	gvrPods       = corev1.SchemeGroupVersion.WithResource("pods")
	gvrNamespaces = corev1.SchemeGroupVersion.WithResource("namespaces")
)

// installBuiltinResources installs the resources every minicp API server
// serves, with the ResourceInfo the Scheme has for them. Pods come before
// bindings, whose handler writes through the pods' store.
func (s *Server) installBuiltinResources() error {
	install := func(resource string, r Resource) error {
		gvr := corev1.SchemeGroupVersion.WithResource(resource)
		if resource == "leases" {
			gvr = coordinationv1.SchemeGroupVersion.WithResource(resource)
		}
		info, ok := s.scheme.Resource(gvr)
		if !ok {
			return fmt.Errorf("apiserver: the scheme has no resource %s", gvr)
		}
		r.Info = info
		return s.InstallResource(r)
	}
	if err := install("namespaces", Resource{
		Strategy: core.NamespaceStrategy{}, Tables: core.NamespaceTable,
		UpdateSubresources: map[string]registry.Strategy{
			"status": core.NamespaceStatusStrategy{}, "finalize": core.NamespaceFinalizeStrategy{},
		},
	}); err != nil {
		return err
	}
	if err := install("pods", Resource{
		Strategy: core.PodStrategy{}, Tables: core.PodTable, ReturnDeletedObject: true,
		UpdateSubresources: map[string]registry.Strategy{"status": core.PodStatusStrategy{}},
		Indexers: map[string]watchcache.IndexFunc{
			"spec.nodeName": podNodeName, podReferencesIndex: podReferences,
		},
	}); err != nil {
		return err
	}
	pods, _ := s.Store(gvrPods)
	binding := core.Binding(s.clock, pods)
	s.addCreateSubresource(gvrPods, "binding", binding)
	if err := install("bindings", Resource{Strategy: core.PodStrategy{}, CreateOverride: &binding}); err != nil {
		return err
	}
	if err := install("nodes", Resource{
		Strategy: core.NodeStrategy{}, Tables: core.NodeTable,
		UpdateSubresources: map[string]registry.Strategy{"status": core.NodeStatusStrategy{}},
	}); err != nil {
		return err
	}
	nodes, _ := s.Store(corev1.SchemeGroupVersion.WithResource("nodes"))
	if err := s.addGetSubresource(gvrPods, "log", core.NewPodLog(pods, nodes, nil)); err != nil {
		return err
	}
	if err := install("events", Resource{Strategy: core.EventStrategy{}, Tables: core.EventTable}); err != nil {
		return err
	}
	if err := install("leases", Resource{Strategy: coordination.LeaseStrategy{}, Tables: coordination.LeaseTable}); err != nil {
		return err
	}
	if err := s.installWorkloadResources(); err != nil {
		return err
	}
	if err := s.installStreamingSubresources(); err != nil {
		return err
	}
	if err := s.installAdmissionRegistrationResources(); err != nil {
		return err
	}
	if err := s.installRBACResources(); err != nil {
		return err
	}
	if err := s.installDiscoveryResources(); err != nil {
		return err
	}
	if err := s.installAutoscalingResources(); err != nil {
		return err
	}
	if err := s.installCertificatesResources(); err != nil {
		return err
	}
	if err := s.installPolicyResources(); err != nil {
		return err
	}
	if err := s.installSchedulingResources(); err != nil {
		return err
	}
	if err := s.installFlowControlResources(); err != nil {
		return err
	}
	if err := s.installQuotaResources(); err != nil {
		return err
	}
	if err := s.installMetricsResources(); err != nil {
		return err
	}
	return s.installAPIExtensionsResources()
}

// DefaultAdmission is the admission chain of a server whose Options give
// none: defaulting, LimitRanger, DefaultTolerationSeconds, ServiceAccount
// (with Options.ServiceAccountAdmission) and MutatingAdmissionWebhook
// (mutating), then LimitRanger, PodSecurity, NamespaceLifecycle,
// ValidatingAdmissionWebhook and ResourceQuota (validating),
// kube-apiserver's order: the registry's schema validation runs between
// the two halves, and ResourceQuota comes last so that it charges only
// for what every other plugin admitted.
func DefaultAdmission(s *Server) admission.Chain {
	mutatingWebhooks, validatingWebhooks := s.webhookAdmission()
	quotas := quotaAdmission{s}
	chain := admission.Chain{
		&admission.Defaulting{SetDefaults: SetDefaults},
		&admission.LimitRanger{LimitRanges: quotas},
		admission.DefaultTolerationSeconds{},
	}
	if s.serviceAccountAdmission {
		// Before the webhooks, as upstream orders it: they see the pod's
		// service account and token volume.
		chain = append(chain, &admission.ServiceAccount{ServiceAccounts: s, GenerateName: registry.GenerateName})
	}
	// After ServiceAccount and before DefaultTolerationSeconds in
	// upstream's order; the two touch different fields, so after it here
	// is the same.
	return append(chain,
		// Only nodes' requests are its business: it lets a kubelet write
		// its own objects alone.
		&admission.NodeRestriction{Pods: s},
		// Where upstream's order puts it; it only validates, so it sees
		// the pod every mutating plugin has made.
		&podsecurity.Plugin{Namespaces: s, Pods: podSecurityAdmission{s}},
		&admission.Priority{Classes: priorityAdmission{s}},
		mutatingWebhooks,
		&admission.NamespaceLifecycle{Namespaces: s, Clock: s.clock},
		validatingWebhooks,
		&admission.ResourceQuota{Quotas: quotas},
	)
}

// podNodeName indexes pods by the node they are bound to: every kubelet
// watches spec.nodeName=<its node>.
func podNodeName(obj runtime.Object) ([]string, error) {
	return []string{obj.(*corev1.Pod).Spec.NodeName}, nil
}

// GetNamespace implements admission.NamespaceGetter: from the watch cache
// (resourceVersion "0"), as kube-apiserver's admission reads its informer,
// or from etcd with opts.Live. NamespaceLifecycle decides which, and when
// the cache may be behind. The result is shared: callers must not modify
// it.
func (s *Server) GetNamespace(ctx context.Context, name string, opts admission.GetNamespaceOptions) (*corev1.Namespace, error) {
	store, ok := s.Store(gvrNamespaces)
	if !ok {
		return nil, fmt.Errorf("namespaces are not served")
	}
	rv := "0"
	if opts.Live {
		rv = ""
	}
	obj, err := store.Storage.Get(ctx, store.Key("", name), storage.GetOptions{ResourceVersion: rv})
	if errors.Is(err, storage.ErrNotFound) {
		return nil, apierrors.NewNotFound(gvrNamespaces.GroupResource(), name)
	}
	if err != nil {
		return nil, err
	}
	return obj.(*corev1.Namespace), nil
}
