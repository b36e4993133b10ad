package apiserver

import (
	"context"
	"fmt"
	"reflect"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/minicp/minicp/api/apierrors"
	flowcontrolv1 "github.com/minicp/minicp/api/flowcontrol/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/filters"
	"github.com/minicp/minicp/apiserver/flowcontrol"
	"github.com/minicp/minicp/apiserver/registry"
	registryflowcontrol "github.com/minicp/minicp/apiserver/registry/flowcontrol"
	"github.com/minicp/minicp/clock"
)

var (
	gvrFlowSchemas    = flowcontrolv1.FlowSchemas().GVR
	gvrPriorityLevels = flowcontrolv1.PriorityLevelConfigurations().GVR
)

// installFlowControlResources installs flowcontrol.apiserver.k8s.io/v1
// flowschemas and prioritylevelconfigurations, each with its status.
//
// Upstream: k8s.io/kubernetes/pkg/registry/flowcontrol/rest.
func (s *Server) installFlowControlResources() error {
	for _, r := range []Resource{
		{Strategy: registryflowcontrol.FlowSchemaStrategy{}, Tables: registryflowcontrol.FlowSchemaTable,
			UpdateSubresources: map[string]registry.Strategy{"status": registryflowcontrol.FlowSchemaStatusStrategy{}}},
		{Strategy: registryflowcontrol.PriorityLevelConfigurationStrategy{}, Tables: registryflowcontrol.PriorityLevelConfigurationTable,
			UpdateSubresources: map[string]registry.Strategy{"status": registryflowcontrol.PriorityLevelConfigurationStatusStrategy{}}},
	} {
		gvr := gvrFlowSchemas
		if _, ok := r.Strategy.(registryflowcontrol.PriorityLevelConfigurationStrategy); ok {
			gvr = gvrPriorityLevels
		}
		info, ok := s.scheme.Resource(gvr)
		if !ok {
			return fmt.Errorf("apiserver: the scheme has no resource %s", gvr)
		}
		r.Info = info
		if err := s.InstallResource(r); err != nil {
			return err
		}
	}
	return nil
}

// newFlowControl is the server's API Priority and Fairness. A queued
// request waits at most a quarter of the request timeout, as in
// kube-apiserver, on the real clock: like the connection deadline, it
// bounds what a client holds of the server, whatever clock the cluster
// runs on.
func newFlowControl(l filters.Limits, reg prometheus.Registerer) *flowcontrol.Controller {
	timeout := l.RequestTimeout
	if timeout <= 0 {
		timeout = filters.DefaultRequestTimeout
	}
	return flowcontrol.New(flowcontrol.Options{
		ServerConcurrencyLimit: l.ConcurrencyLimit, QueueWaitLimit: timeout / 4,
		Clock: clock.Real, Registerer: reg,
	})
}

// bootstrapWrite is one object the server reconciles at start, with the
// resource it is of.
type bootstrapWrite struct {
	store *registry.Store
	// run reconciles the object, given the objects of store as
	// readStored found them.
	run func(ctx context.Context, stored storedObjects) (rev int64, err error)
}

// flowControlBootstrap is the reconciliation of the default flow control
// configuration, for ensureBootstrapPolicy to run with the default RBAC
// policy: the mandatory objects get their spec back whenever it differs;
// the suggested ones are created when missing and updated while they
// carry apf.kubernetes.io/autoupdate-spec "true", so an administrator's
// change survives a restart once it sets the annotation to "false".
//
// Upstream: k8s.io/kubernetes/pkg/registry/flowcontrol/ensurer.
func (s *Server) flowControlBootstrap() []bootstrapWrite {
	schemas, err1 := s.storeOf(gvrFlowSchemas)
	levels, err2 := s.storeOf(gvrPriorityLevels)
	if err1 != nil || err2 != nil {
		return nil // not served by this server
	}
	var out []bootstrapWrite
	add := func(fs []*flowcontrolv1.FlowSchema, pls []*flowcontrolv1.PriorityLevelConfiguration, mandatory bool) {
		for _, want := range pls {
			out = append(out, bootstrapWriteOf(s, levels, want, want.Name, func(existing, want *flowcontrolv1.PriorityLevelConfiguration) *flowcontrolv1.PriorityLevelConfiguration {
				if !autoUpdateSpec(existing.Annotations, mandatory) || reflect.DeepEqual(existing.Spec, want.Spec) {
					return nil
				}
				out := existing.DeepCopy()
				out.Spec, out.Annotations = want.Spec, setAutoUpdate(out.Annotations)
				return out
			}))
		}
		for _, want := range fs {
			out = append(out, bootstrapWriteOf(s, schemas, want, want.Name, func(existing, want *flowcontrolv1.FlowSchema) *flowcontrolv1.FlowSchema {
				if !autoUpdateSpec(existing.Annotations, mandatory) || reflect.DeepEqual(existing.Spec, want.Spec) {
					return nil
				}
				out := existing.DeepCopy()
				out.Spec, out.Annotations = want.Spec, setAutoUpdate(out.Annotations)
				return out
			}))
		}
	}
	add(flowcontrolv1.MandatoryFlowSchemas(), flowcontrolv1.MandatoryPriorityLevelConfigurations(), true)
	add(flowcontrolv1.SuggestedFlowSchemas(), flowcontrolv1.SuggestedPriorityLevelConfigurations(), false)
	return out
}

// bootstrapWriteOf reconciles want in store, as merge says, creating it
// when it is missing.
func bootstrapWriteOf[T runtime.Object](s *Server, store *registry.Store, want T, name string, merge func(existing, want T) T) bootstrapWrite {
	return bootstrapWrite{store, func(ctx context.Context, stored storedObjects) (int64, error) {
		if rev, created, err := createMissing(ctx, store, stored, want, name); created || err != nil {
			return rev, err
		}
		return reconcile(ctx, store, stored, want, merge)
	}}
}

// createMissing creates want when stored has no object of its name, and
// reports whether it did: reconcile creates through an update, which
// these resources refuse to a missing object, as upstream's do.
func createMissing(ctx context.Context, store *registry.Store, stored storedObjects, want runtime.Object, name string) (rev int64, created bool, err error) {
	if _, ok := stored[name]; ok {
		return 0, false, nil
	}
	obj, err := store.Create(ctx, want.DeepCopyObject(), nil, registry.CreateOptions{})
	if apierrors.IsAlreadyExists(err) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, err
	}
	return revisionOf(obj), true, nil
}

// autoUpdateSpec reports whether the bootstrap configuration may rewrite
// an object's spec: always a mandatory one's, a suggested one's while
// its annotation says "true".
func autoUpdateSpec(annotations map[string]string, mandatory bool) bool {
	return mandatory || annotations[flowcontrolv1.AutoUpdateAnnotationKey] == "true"
}

func setAutoUpdate(annotations map[string]string) map[string]string {
	if annotations == nil {
		annotations = map[string]string{}
	}
	annotations[flowcontrolv1.AutoUpdateAnnotationKey] = "true"
	return annotations
}
