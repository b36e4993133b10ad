package apiserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/minicp/minicp/api/apierrors"
	apiextensionsv1 "github.com/minicp/minicp/api/apiextensions/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/apiserver/registry"
	"github.com/minicp/minicp/apiserver/registry/apiextensions"
	"github.com/minicp/minicp/clock"
)

// crdRetryDelay is how long the CRD controller waits before it lists
// again after its watch failed, or retries a CRD it could not sync: the
// watch cache's own relist is what usually ends such a failure, within
// about a second. It is timed on the real clock even when the server's is
// a fake: a retry is the server recovering, which must not wait for a
// test to step its cluster's clock.
const crdRetryDelay = time.Second

// crdController serves what the CustomResourceDefinitions define, inside
// the API server, as kube-apiserver's apiextensions controllers do: it
// accepts each CRD's names unless another CRD of the group holds them
// (naming controller), installs its REST endpoints, watch caches and
// discovery entries and then marks it Established (establishing
// controller), and, when a CRD is deleted, deletes every object of it
// before letting it go (finalizer controller). It reads the CRDs from
// their watch cache and writes them through their registry store, like
// any client but without HTTP.
//
// Only its run goroutine touches crds and served; the finalizers run in
// goroutines of their own, one per terminating CRD.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/controller/status
// (NamingConditionController), .../establish (EstablishingController),
// .../finalizer (CRDFinalizer).
type crdController struct {
	s      *Server
	store  *registry.Store
	status *registry.Store
	// crds holds the latest state of every CRD, by name: shared objects
	// from the watch cache, never modified.
	crds map[string]*apiextensionsv1.CustomResourceDefinition
	// served holds what is installed for each CRD, by name.
	served map[string]*servedCRD
	// finalizing holds the CRDs whose finalizer goroutine runs, by name.
	finalizing map[string]bool
	// finalized holds the UIDs of the CRDs whose finalizer succeeded:
	// they are about to go, and events still on their way about them
	// must not start the finalizer again.
	finalized map[string]bool
	// finalizedCh receives the end of a finalizer goroutine; buffered so
	// a finalizer never waits for the run loop.
	finalizedCh chan finalizeResult
}

// finalizeResult is how a finalizer goroutine ended.
type finalizeResult struct {
	name, uid string
	ok        bool
}

// servedCRD is what the server serves for one CRD.
type servedCRD struct {
	gvrs []runtime.GroupVersionResource
	// fingerprint is the spec and accepted names it was installed from:
	// a change reinstalls it, a status write of the controller does not.
	fingerprint string
}

// runCRDController runs the CRD controller until ctx is done. It closes
// s.crdsSyncedCh once it has synced every CRD of its first list.
func (s *Server) runCRDController(ctx context.Context) {
	store, ok := s.Store(gvrCRDs)
	if !ok {
		close(s.crdsSyncedCh)
		return
	}
	s.mu.RLock()
	status := s.resources[gvrCRDs].update["status"].Store
	s.mu.RUnlock()
	c := &crdController{
		s: s, store: store, status: status,
		crds:        map[string]*apiextensionsv1.CustomResourceDefinition{},
		served:      map[string]*servedCRD{},
		finalizing:  map[string]bool{},
		finalized:   map[string]bool{},
		finalizedCh: make(chan finalizeResult, 16),
	}
	for {
		err := c.listAndWatch(ctx)
		if ctx.Err() != nil {
			return
		}
		s.log.Warn("CRD watch ended, listing again", "err", err)
		t := clock.Real.NewTimer(crdRetryDelay)
		select {
		case <-ctx.Done():
		case <-t.C():
		}
		t.Stop()
	}
}

// listAndWatch lists the CRDs, syncs each, and then syncs every CRD that
// changes until the watch fails or ctx is done.
func (c *crdController) listAndWatch(ctx context.Context) error {
	list, err := c.store.List(ctx, "", registry.ListOptions{ResourceVersion: "0"})
	if err != nil {
		return err
	}
	crds := list.(*apiextensionsv1.CustomResourceDefinitionList)
	c.crds = map[string]*apiextensionsv1.CustomResourceDefinition{}
	for i := range crds.Items {
		c.crds[crds.Items[i].Name] = &crds.Items[i]
	}
	for name := range c.served {
		if _, ok := c.crds[name]; !ok {
			c.uninstall(name)
		}
	}
	for name := range c.crds {
		c.sync(ctx, name)
	}
	c.synced()
	w, err := c.store.Watch(ctx, "", registry.ListOptions{ResourceVersion: crds.ResourceVersion})
	if err != nil {
		return err
	}
	defer w.Stop()
	// A CRD that could not be synced is retried after crdRetryDelay; one
	// timer serves them all.
	timer := clock.Real.NewTimer(crdRetryDelay)
	timer.Stop() // armed by later
	defer timer.Stop()
	var retry <-chan time.Time
	pending := map[string]bool{}
	later := func(name string) {
		pending[name] = true
		if retry == nil {
			timer.Reset(crdRetryDelay)
			retry = timer.C()
		}
	}
	for {
		select {
		case <-ctx.Done():
			return nil
		case res := <-c.finalizedCh:
			delete(c.finalizing, res.name)
			if res.ok {
				c.finalized[res.uid] = true
				continue
			}
			// Failed: try again, unless the CRD is gone meanwhile.
			if _, ok := c.crds[res.name]; ok {
				later(res.name)
			}
		case <-retry:
			retry = nil
			for name := range pending {
				delete(pending, name)
				if !c.sync(ctx, name) {
					later(name)
				}
			}
		case ev, ok := <-w.ResultChan():
			if !ok {
				return errors.New("watch closed")
			}
			crd, isCRD := ev.Object.(*apiextensionsv1.CustomResourceDefinition)
			switch {
			case ev.Type == watch.Error:
				return fmt.Errorf("watch error: %v", ev.Object)
			case ev.Type == watch.Bookmark || !isCRD:
				continue
			case ev.Type == watch.Deleted:
				delete(c.crds, crd.Name)
				delete(c.finalized, crd.UID)
				c.uninstall(crd.Name)
				// The names it held are free: CRDs of its group that
				// wanted them may take them now.
				for name, other := range c.crds {
					if other.Spec.Group == crd.Spec.Group && !c.sync(ctx, name) {
						later(name)
					}
				}
			default:
				c.crds[crd.Name] = crd
				if !c.sync(ctx, crd.Name) {
					later(crd.Name)
				}
			}
		}
	}
}

// sync brings the server and the CRD's status in line with the CRD, and
// reports whether it succeeded (false: retry later).
func (c *crdController) sync(ctx context.Context, name string) bool {
	crd, ok := c.crds[name]
	if !ok {
		return true
	}
	if crd.DeletionTimestamp != nil {
		// Still served while its objects are deleted, so their own
		// finalizers can run: after a restart, this is the first install.
		if apiextensionsv1.IsCRDConditionTrue(crd, apiextensionsv1.Established) {
			if err := c.install(crd); err != nil {
				c.s.log.Error("custom resource not served", "name", name, "err", err)
			}
		}
		c.s.setTerminating(c.servedGVRs(name))
		if slices.Contains(crd.Finalizers, apiextensionsv1.CustomResourceCleanupFinalizer) && !c.finalizing[name] && !c.finalized[crd.UID] {
			c.finalizing[name] = true
			c.s.goUnlessStopping(func() {
				res := finalizeResult{name: name, uid: crd.UID, ok: c.finalize(ctx, crd)}
				select {
				case c.finalizedCh <- res:
				case <-ctx.Done():
				}
			})
		}
		return true
	}
	want := crd.DeepCopy()
	names, namesAccepted := c.acceptedNames(crd)
	want.Status.AcceptedNames = names
	apiextensionsv1.SetCRDCondition(want, namesAccepted, c.now())
	established := apiextensionsv1.FindCRDCondition(crd, apiextensionsv1.Established)
	switch {
	case namesAccepted.Status == apiextensionsv1.ConditionTrue:
		if err := c.install(want); err != nil {
			c.s.log.Error("custom resource not served", "name", name, "err", err)
			apiextensionsv1.SetCRDCondition(want, apiextensionsv1.CustomResourceDefinitionCondition{
				Type: apiextensionsv1.Established, Status: apiextensionsv1.ConditionFalse,
				Reason: apiextensionsv1.ReasonInstalling, Message: err.Error(),
			}, c.now())
			break
		}
		if established == nil || established.Status != apiextensionsv1.ConditionTrue {
			apiextensionsv1.SetCRDCondition(want, apiextensionsv1.CustomResourceDefinitionCondition{
				Type: apiextensionsv1.Established, Status: apiextensionsv1.ConditionTrue,
				Reason: apiextensionsv1.ReasonInitialNamesAccepted, Message: "the initial names have been accepted",
			}, c.now())
		}
	case established == nil:
		apiextensionsv1.SetCRDCondition(want, apiextensionsv1.CustomResourceDefinitionCondition{
			Type: apiextensionsv1.Established, Status: apiextensionsv1.ConditionFalse,
			Reason: apiextensionsv1.ReasonNotAccepted, Message: "not all names are accepted",
		}, c.now())
	}
	return c.writeStatus(ctx, crd, want)
}

// synced closes the server's crdsSyncedCh after the first list's sync;
// later relists leave it closed.
func (c *crdController) synced() {
	select {
	case <-c.s.crdsSyncedCh:
	default:
		close(c.s.crdsSyncedCh)
	}
}

// install serves crd (whose status holds the names to serve under) unless
// it is served already as it is now.
func (c *crdController) install(crd *apiextensionsv1.CustomResourceDefinition) error {
	fp, err := json.Marshal(struct {
		Spec  apiextensionsv1.CustomResourceDefinitionSpec
		Names apiextensionsv1.CustomResourceDefinitionNames
	}{crd.Spec, crd.Status.AcceptedNames})
	if err != nil {
		return err
	}
	old := c.served[crd.Name]
	if old != nil && old.fingerprint == string(fp) {
		return nil
	}
	gvrs, err := c.s.installCRD(crd)
	if old != nil {
		// Versions no longer served, or served under another plural.
		c.s.uninstallCRD(slices.DeleteFunc(old.gvrs, func(g runtime.GroupVersionResource) bool { return slices.Contains(gvrs, g) }))
	}
	c.served[crd.Name] = &servedCRD{gvrs: gvrs, fingerprint: string(fp)}
	if err != nil {
		// Serve nothing rather than part of it; the next change retries.
		c.uninstall(crd.Name)
	}
	return err
}

// uninstall stops serving what the CRD named defined.
func (c *crdController) uninstall(name string) {
	if served, ok := c.served[name]; ok {
		c.s.uninstallCRD(served.gvrs)
		delete(c.served, name)
	}
}

// servedGVRs returns what is installed for the CRD named.
func (c *crdController) servedGVRs(name string) []runtime.GroupVersionResource {
	if served, ok := c.served[name]; ok {
		return served.gvrs
	}
	return nil
}

// writeStatus writes want's status if it differs from crd's, and reports
// whether the CRD is as wanted now (false: a conflict, retry).
func (c *crdController) writeStatus(ctx context.Context, crd, want *apiextensionsv1.CustomResourceDefinition) bool {
	if statusEqual(crd.Status, want.Status) {
		return true
	}
	_, _, err := c.status.Update(ctx, "", crd.Name, func(_ context.Context, old runtime.Object) (runtime.Object, error) {
		if old == nil {
			return nil, apierrors.NewNotFound(gvrCRDs.GroupResource(), crd.Name)
		}
		cur := old.(*apiextensionsv1.CustomResourceDefinition)
		if cur.ResourceVersion != crd.ResourceVersion {
			// Changed since this sync read it: its own event syncs it.
			return nil, errStale
		}
		out := cur.DeepCopy()
		out.Status = want.Status
		return out, nil
	}, nil, nil, registry.UpdateOptions{})
	switch {
	case err == nil, errors.Is(err, errStale), apierrors.IsNotFound(err):
		return true
	default:
		c.s.log.Warn("CRD status not written, retrying", "name", crd.Name, "err", err)
		return false
	}
}

// errStale ends a status write whose CRD changed since it was read.
var errStale = errors.New("the CRD changed")

func statusEqual(a, b apiextensionsv1.CustomResourceDefinitionStatus) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}

func (c *crdController) now() metav1.Time { return metav1.NewTime(c.s.clock.Now()) }

// Ensure the status subresource's strategy is the one the controller
// writes through.
var _ registry.Strategy = apiextensions.StatusStrategy{}
