package builder

import (
	"errors"
	"fmt"
	"strings"

	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/controllers/controller"
	"github.com/minicp/minicp/controllers/handler"
	"github.com/minicp/minicp/controllers/manager"
	"github.com/minicp/minicp/controllers/reconcile"
	"github.com/minicp/minicp/controllers/source"
)

// Builder collects a controller's description; Complete or Build makes
// it. Its methods return the Builder for chaining and record the first
// mistake, which Complete returns. A Builder is not safe for concurrent
// use and builds one controller.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/builder (Builder).
type Builder struct {
	mgr        *manager.Manager
	forObj     runtime.Object
	owns       []runtime.Object
	watches    []watchInput
	rawSources []source.Source
	name       string
	opts       controller.Options
	// err is the first mistake; it sticks.
	err error
}

// watchInput is one Watches call.
type watchInput struct {
	obj     runtime.Object
	handler handler.EventHandler
}

// ControllerManagedBy starts the description of a controller that mgr
// will run.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/builder (ControllerManagedBy).
func ControllerManagedBy(mgr *manager.Manager) *Builder {
	return &Builder{mgr: mgr}
}

// For names the kind the controller reconciles, by a prototype such as
// &corev1.Node{}: every change to one of its objects enqueues that object's
// Request. It may be called once.
func (b *Builder) For(obj runtime.Object) *Builder {
	switch {
	case obj == nil:
		b.fail(errors.New("builder: For(nil)"))
	case b.forObj != nil:
		b.fail(errors.New("builder: For may only be called once"))
	default:
		b.forObj = obj
	}
	return b
}

// Owns watches the objects of obj's kind and enqueues, for each change,
// the object's controller: the owner named by its ownerReference with
// controller=true, when that owner is of the For kind.
func (b *Builder) Owns(obj runtime.Object) *Builder {
	if obj == nil {
		b.fail(errors.New("builder: Owns(nil)"))
		return b
	}
	b.owns = append(b.owns, obj)
	return b
}

// Watches watches the objects of obj's kind and enqueues what h says for
// each change, for example
// handler.EnqueueRequestsFromMapFunc(podToNode).
func (b *Builder) Watches(obj runtime.Object, h handler.EventHandler) *Builder {
	if obj == nil || h == nil {
		b.fail(errors.New("builder: Watches needs an object and a handler"))
		return b
	}
	b.watches = append(b.watches, watchInput{obj: obj, handler: h})
	return b
}

// WatchesRawSource adds a source made by hand, such as a source.Channel
// of events from outside the cluster.
func (b *Builder) WatchesRawSource(src source.Source) *Builder {
	if src == nil {
		b.fail(errors.New("builder: WatchesRawSource(nil)"))
		return b
	}
	b.rawSources = append(b.rawSources, src)
	return b
}

// Named sets the controller's name, which appears in its logs. Defaults to
// the For kind in lowercase ("node"); required without For.
func (b *Builder) Named(name string) *Builder {
	b.name = name
	return b
}

// WithOptions sets the controller's options (MaxConcurrentReconciles,
// RateLimiter, NeedLeaderElection); the Reconciler is Complete's.
func (b *Builder) WithOptions(opts controller.Options) *Builder {
	b.opts = opts
	return b
}

// Complete builds the controller with r and adds it to the Manager. It
// returns the first mistake made on the Builder, if any, and then adds
// nothing.
func (b *Builder) Complete(r reconcile.Reconciler) error {
	_, err := b.Build(r)
	return err
}

// Build is Complete, returning the controller too.
func (b *Builder) Build(r reconcile.Reconciler) (*controller.Controller, error) {
	if b.err != nil {
		return nil, b.err
	}
	switch {
	case b.mgr == nil:
		return nil, errors.New("builder: nil manager")
	case r == nil:
		return nil, errors.New("builder: Complete(nil): a Reconciler is required")
	case b.forObj == nil && b.name == "":
		return nil, errors.New("builder: a controller needs For, or a name with Named")
	case b.forObj == nil && len(b.owns) > 0:
		return nil, errors.New("builder: Owns needs For: the owner is of the For kind")
	}
	// Check every type before making anything, so a mistake adds nothing
	// to the Manager, and EnqueueRequestForOwner cannot panic.
	c := b.mgr.GetCache()
	var objs []runtime.Object
	if b.forObj != nil {
		objs = append(objs, b.forObj)
	}
	objs = append(objs, b.owns...)
	for _, w := range b.watches {
		objs = append(objs, w.obj)
	}
	for _, obj := range objs {
		if _, err := c.ResourceFor(obj); err != nil {
			return nil, fmt.Errorf("builder: %w", err)
		}
	}
	name := b.name
	if name == "" {
		gvk, err := b.mgr.GetScheme().ObjectKind(b.forObj)
		if err != nil {
			return nil, fmt.Errorf("builder: %w", err)
		}
		name = strings.ToLower(gvk.Kind)
	}

	opts := b.opts
	opts.Reconciler = r
	// NewUnmanaged, then the watches, then Add: a Manager that runs
	// already starts the controller at once, and it must start with all
	// its sources, so its workers wait for them to sync.
	ctrl, err := controller.NewUnmanaged(name, b.mgr, opts)
	if err != nil {
		return nil, err
	}
	var srcs []source.Source
	if b.forObj != nil {
		srcs = append(srcs, source.Kind(c, b.forObj, handler.EnqueueRequestForObject{}))
	}
	for _, owned := range b.owns {
		owner := handler.EnqueueRequestForOwner(b.mgr.GetScheme(), b.forObj, handler.OnlyControllerOwner())
		srcs = append(srcs, source.Kind(c, owned, owner))
	}
	for _, w := range b.watches {
		srcs = append(srcs, source.Kind(c, w.obj, w.handler))
	}
	srcs = append(srcs, b.rawSources...)
	for _, src := range srcs {
		if err := ctrl.Watch(src); err != nil {
			return nil, err
		}
	}
	if err := b.mgr.Add(ctrl); err != nil {
		return nil, fmt.Errorf("builder: %w", err)
	}
	return ctrl, nil
}

// fail records err unless a mistake is recorded already.
func (b *Builder) fail(err error) {
	if b.err == nil {
		b.err = err
	}
}
