package admission

import (
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/clock"
)

// NamespaceGetter reads namespaces.
type NamespaceGetter interface {
	// GetNamespace returns the namespace name, or a NotFound error. Without
	// opts.Live it may answer from a cache (the watch cache, upstream's
	// namespace lister) that can be a moment behind etcd; with it, it
	// reads etcd (upstream's client Get). The result is shared: callers
	// must not modify it.
	GetNamespace(ctx context.Context, name string, opts GetNamespaceOptions) (*corev1.Namespace, error)
}

// GetNamespaceOptions tunes GetNamespace.
type GetNamespaceOptions struct {
	// Live asks for etcd's current state instead of a cached one.
	Live bool
}

// ImmortalNamespaces can never be deleted.
var ImmortalNamespaces = []string{metav1.NamespaceDefault, metav1.NamespaceSystem, metav1.NamespacePublic}

const (
	// forceLiveLookupTTL is how long, after this server admitted the
	// delete of a namespace, creates in it read the namespace from etcd
	// whenever the cache still shows it active: upstream's 30s, far longer
	// than the cache takes to see the change even on a loaded machine.
	forceLiveLookupTTL = 30 * time.Second
	// forceLiveLookupSize bounds the namespaces remembered, as upstream's
	// LRU of 100: namespace deletes are rare, and one forgotten early only
	// loses the shortcut, since the cache catches up by itself.
	forceLiveLookupSize = 100
)

// NamespaceLifecycle rejects new objects in a namespace that does not
// exist (404) or is being terminated (403), and the deletion of the
// namespaces every cluster needs (403).
//
// It reads namespaces from the watch cache, as kube-apiserver reads its
// informer, so a create costs no etcd read. The cache may lag etcd in
// three ways; the first two are covered as upstream covers them:
//
//   - a namespace created a moment ago is not in the cache yet: a
//     namespace the cache does not have is looked up in etcd before the
//     create is refused;
//   - a namespace whose delete this server just admitted may still look
//     active in the cache: for forceLiveLookupTTL after it, the namespace
//     is looked up in etcd unless the cache already shows it terminating;
//   - a namespace deleted and created again may still look terminating in
//     the cache: unlike upstream, a namespace the cache shows terminating
//     is looked up in etcd before the create is refused, so every 403
//     rests on etcd's state (refusals are rare; the reads are few).
//
// What can still slip through is a create on another API server, whose
// cache has not seen the delete yet; the namespace controller deletes
// such content before it removes the namespace, as in Kubernetes.
//
// The zero value with Namespaces set is ready to use; it is safe for
// concurrent use.
//
// Upstream: k8s.io/apiserver/pkg/admission/plugin/namespace/lifecycle (Lifecycle).
type NamespaceLifecycle struct {
	Namespaces NamespaceGetter
	// Clock times the forced live lookups. Defaults to clock.Real.
	Clock clock.Clock

	// mu guards forceLiveLookup.
	mu sync.Mutex
	// forceLiveLookup (upstream: forceLiveLookupCache) holds the
	// namespaces this server admitted a delete of, with the time their
	// live lookups end; at most forceLiveLookupSize of them.
	forceLiveLookup map[string]time.Time
}

var _ ValidationInterface = (*NamespaceLifecycle)(nil)

// Name implements Plugin.
func (*NamespaceLifecycle) Name() string { return "NamespaceLifecycle" }

// Handles implements Plugin: creates, and deletes of namespaces.
func (*NamespaceLifecycle) Handles(op Operation) bool { return op == Create || op == Delete }

// Validate implements ValidationInterface.
func (p *NamespaceLifecycle) Validate(ctx context.Context, a *Attributes) error {
	nsResource := a.Resource.Group == "" && a.Resource.Resource == "namespaces"
	if a.Operation == Delete {
		if nsResource && a.Subresource == "" {
			if slices.Contains(ImmortalNamespaces, a.Name) {
				return apierrors.NewForbidden(a.Resource.GroupResource(), a.Name, errors.New("this namespace may not be deleted"))
			}
			// The cache will show it terminating in a moment; until then,
			// creates in it must ask etcd.
			p.forceLiveLookupFor(a.Name)
		}
		return nil
	}
	// A namespace itself, cluster-scoped objects, and writes to a
	// subresource of an object that already exists (a binding) are not
	// new content of a namespace.
	if nsResource || a.Namespace == "" || a.Subresource != "" {
		return nil
	}
	ns, err := p.Namespaces.GetNamespace(ctx, a.Namespace, GetNamespaceOptions{})
	var live bool
	switch {
	case apierrors.IsNotFound(err):
		live = true
	case err != nil:
		return apierrors.NewInternalError(err)
	case terminating(ns):
		// Refusals are rare: confirm them, since the cache may still
		// hold a namespace whose recreation it has not seen yet.
		live = true
	default:
		live = p.mustLookUpLive(a.Namespace)
	}
	if live {
		ns, err = p.Namespaces.GetNamespace(ctx, a.Namespace, GetNamespaceOptions{Live: true})
		if apierrors.IsNotFound(err) {
			return apierrors.NewNotFound(runtime.GroupResource{Resource: "namespaces"}, a.Namespace)
		}
		if err != nil {
			return apierrors.NewInternalError(err)
		}
	}
	if terminating(ns) {
		se := apierrors.NewForbidden(a.Resource.GroupResource(), a.Name,
			errors.New("unable to create new content in namespace "+a.Namespace+" because it is being terminated"))
		se.ErrStatus.Details.Causes = []metav1.StatusCause{{Type: corev1.NamespaceTerminatingCause, Message: "namespace " + a.Namespace + " is terminating", Field: "metadata.namespace"}}
		return se
	}
	return nil
}

// terminating reports a namespace whose deletion has begun.
func terminating(ns *corev1.Namespace) bool {
	return ns.Status.Phase == corev1.NamespaceTerminating || ns.DeletionTimestamp != nil
}

func (p *NamespaceLifecycle) now() time.Time {
	if p.Clock == nil {
		return clock.Real.Now()
	}
	return p.Clock.Now()
}

// forceLiveLookupFor makes creates in namespace name look it up in etcd
// for the next forceLiveLookupTTL.
func (p *NamespaceLifecycle) forceLiveLookupFor(name string) {
	now := p.now()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.forceLiveLookup == nil {
		p.forceLiveLookup = map[string]time.Time{}
	}
	if _, ok := p.forceLiveLookup[name]; !ok && len(p.forceLiveLookup) >= forceLiveLookupSize {
		p.evictLocked(now)
	}
	p.forceLiveLookup[name] = now.Add(forceLiveLookupTTL)
}

// evictLocked makes room for one entry: it drops the expired ones, or,
// when none has expired, the one that expires first (the oldest).
func (p *NamespaceLifecycle) evictLocked(now time.Time) {
	var oldest string
	var oldestEnd time.Time
	for name, end := range p.forceLiveLookup {
		if !now.Before(end) {
			delete(p.forceLiveLookup, name)
			continue
		}
		if oldest == "" || end.Before(oldestEnd) {
			oldest, oldestEnd = name, end
		}
	}
	if len(p.forceLiveLookup) >= forceLiveLookupSize {
		delete(p.forceLiveLookup, oldest)
	}
}

// mustLookUpLive reports whether this server admitted the delete of
// namespace name less than forceLiveLookupTTL ago.
func (p *NamespaceLifecycle) mustLookUpLive(name string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	end, ok := p.forceLiveLookup[name]
	if !ok {
		return false
	}
	if !p.now().Before(end) {
		delete(p.forceLiveLookup, name)
		return false
	}
	return true
}
