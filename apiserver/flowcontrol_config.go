package apiserver

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"

	flowcontrolv1 "github.com/minicp/minicp/api/flowcontrol/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/apiserver/registry"
	"github.com/minicp/minicp/apiserver/request"
	"github.com/minicp/minicp/clock"
)

// runFlowControlConfig is the API server's flow control configuration
// controller: it reads the FlowSchemas and PriorityLevelConfigurations
// from their watch caches, rebuilds the dispatcher whenever one changes,
// and writes each schema's Dangling condition (whether its priority
// level exists). It closes s.flowControlSyncedCh once the dispatcher
// runs what is stored, and runs until ctx is done, listing again after a
// watch fails.
//
// Upstream: k8s.io/apiserver/pkg/util/flowcontrol (configController.Run).
func (s *Server) runFlowControlConfig(ctx context.Context) {
	schemas, err1 := s.storeOf(gvrFlowSchemas)
	levels, err2 := s.storeOf(gvrPriorityLevels)
	if err1 != nil || err2 != nil {
		close(s.flowControlSyncedCh)
		return
	}
	// The objects are read once the bootstrap has written them: until
	// then the dispatcher runs the same configuration from memory, and
	// statuses written in between would only be rewritten.
	select {
	case <-s.policyReadyCh:
	case <-ctx.Done():
		return
	}
	s.mu.RLock()
	status := s.resources[gvrFlowSchemas].update["status"].Store
	s.mu.RUnlock()
	c := &flowControlConfig{s: s, schemas: schemas, levels: levels, status: status}
	for {
		err := c.listAndWatch(ctx)
		if ctx.Err() != nil {
			return
		}
		s.log.Warn("flow control configuration watch ended, listing again", "err", err)
		// Timed as the CRD controller's retry, and for the same reason.
		t := clock.Real.NewTimer(crdRetryDelay)
		select {
		case <-ctx.Done():
		case <-t.C():
		}
		t.Stop()
	}
}

// flowControlConfig is the state of runFlowControlConfig, touched by its
// goroutine alone.
type flowControlConfig struct {
	s                       *Server
	schemas, levels, status *registry.Store
	// fs and pl hold the latest objects by name: shared objects from the
	// watch caches, never modified.
	fs map[string]*flowcontrolv1.FlowSchema
	pl map[string]*flowcontrolv1.PriorityLevelConfiguration
	// synced is set once the dispatcher runs the stored configuration.
	synced bool
}

func (c *flowControlConfig) listAndWatch(ctx context.Context) error {
	fsList, err := c.schemas.List(ctx, "", registry.ListOptions{ResourceVersion: "0"})
	if err != nil {
		return err
	}
	plList, err := c.levels.List(ctx, "", registry.ListOptions{ResourceVersion: "0"})
	if err != nil {
		return err
	}
	c.fs, c.pl = map[string]*flowcontrolv1.FlowSchema{}, map[string]*flowcontrolv1.PriorityLevelConfiguration{}
	fsl, pll := fsList.(*flowcontrolv1.FlowSchemaList), plList.(*flowcontrolv1.PriorityLevelConfigurationList)
	for i := range fsl.Items {
		c.fs[fsl.Items[i].Name] = &fsl.Items[i]
	}
	for i := range pll.Items {
		c.pl[pll.Items[i].Name] = &pll.Items[i]
	}
	fsWatch, err := c.schemas.Watch(ctx, "", registry.ListOptions{ResourceVersion: fsl.ResourceVersion})
	if err != nil {
		return err
	}
	defer fsWatch.Stop()
	plWatch, err := c.levels.Watch(ctx, "", registry.ListOptions{ResourceVersion: pll.ResourceVersion})
	if err != nil {
		return err
	}
	defer plWatch.Stop()
	for {
		c.digest(ctx)
		var err error
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-fsWatch.ResultChan():
			err = c.apply(ev, ok)
		case ev, ok := <-plWatch.ResultChan():
			err = c.apply(ev, ok)
		}
		if err == nil {
			err = c.drain(fsWatch, plWatch)
		}
		if err != nil {
			return err
		}
	}
}

// drain applies the events already waiting, so that a burst of changes
// costs one rebuild.
func (c *flowControlConfig) drain(fsWatch, plWatch watch.Interface) error {
	for {
		select {
		case ev, ok := <-fsWatch.ResultChan():
			if err := c.apply(ev, ok); err != nil {
				return err
			}
		case ev, ok := <-plWatch.ResultChan():
			if err := c.apply(ev, ok); err != nil {
				return err
			}
		default:
			return nil
		}
	}
}

// apply records one watch event.
func (c *flowControlConfig) apply(ev watch.Event, ok bool) error {
	if !ok {
		return errors.New("watch closed")
	}
	if ev.Type == watch.Error {
		return fmt.Errorf("watch error: %v", ev.Object)
	}
	switch o := ev.Object.(type) {
	case *flowcontrolv1.FlowSchema:
		if ev.Type == watch.Deleted {
			delete(c.fs, o.Name)
		} else if ev.Type != watch.Bookmark {
			c.fs[o.Name] = o
		}
	case *flowcontrolv1.PriorityLevelConfiguration:
		if ev.Type == watch.Deleted {
			delete(c.pl, o.Name)
		} else if ev.Type != watch.Bookmark {
			c.pl[o.Name] = o
		}
	}
	return nil
}

// digest rebuilds the dispatcher from the objects and writes the Dangling
// conditions that changed, all at once: etcd batches concurrent writes.
// A failed write is logged; the next event retries it, and a schema's own
// status write is such an event.
func (c *flowControlConfig) digest(ctx context.Context) {
	fs := slices.Collect(maps.Values(c.fs))
	pl := slices.Collect(maps.Values(c.pl))
	c.s.flowControl.Update(fs, pl)
	if !c.synced {
		c.synced = true
		close(c.s.flowControlSyncedCh)
	}
	ctx = request.WithUser(ctx, loopbackUser)
	var wg sync.WaitGroup
	for _, f := range fs {
		want := danglingCondition(f, c.pl[f.Spec.PriorityLevelConfiguration.Name] != nil)
		if i := slices.IndexFunc(f.Status.Conditions, func(have flowcontrolv1.FlowSchemaCondition) bool {
			return have.Type == want.Type
		}); i >= 0 {
			have := f.Status.Conditions[i]
			if have.Status == want.Status && have.Reason == want.Reason && have.Message == want.Message {
				continue
			}
		}
		wg.Go(func() {
			if err := c.writeCondition(ctx, f.Name, want); err != nil && ctx.Err() == nil {
				c.s.log.Warn("writing a FlowSchema's status failed", "name", f.Name, "err", err)
			}
		})
	}
	wg.Wait()
}

func (c *flowControlConfig) writeCondition(ctx context.Context, name string, want flowcontrolv1.FlowSchemaCondition) error {
	want.LastTransitionTime = metav1.NewTime(c.s.clock.Now())
	_, _, err := c.status.Update(ctx, "", name, func(_ context.Context, old runtime.Object) (runtime.Object, error) {
		if old == nil {
			return nil, errors.New("flowschema is gone")
		}
		fs := old.(*flowcontrolv1.FlowSchema).DeepCopy()
		conds := slices.DeleteFunc(fs.Status.Conditions, func(have flowcontrolv1.FlowSchemaCondition) bool { return have.Type == want.Type })
		fs.Status.Conditions = append(conds, want)
		return fs, nil
	}, nil, nil, registry.UpdateOptions{})
	return err
}

// danglingCondition is a schema's Dangling condition, worded as
// upstream's.
//
// Upstream: k8s.io/apiserver/pkg/util/flowcontrol (apf_controller.go).
func danglingCondition(fs *flowcontrolv1.FlowSchema, found bool) flowcontrolv1.FlowSchemaCondition {
	name := fs.Spec.PriorityLevelConfiguration.Name
	if found {
		return flowcontrolv1.FlowSchemaCondition{
			Type: flowcontrolv1.FlowSchemaConditionDangling, Status: flowcontrolv1.ConditionFalse, Reason: "Found",
			Message: fmt.Sprintf("This FlowSchema references the PriorityLevelConfiguration object named %q and it exists", name),
		}
	}
	return flowcontrolv1.FlowSchemaCondition{
		Type: flowcontrolv1.FlowSchemaConditionDangling, Status: flowcontrolv1.ConditionTrue, Reason: "NotFound",
		Message: fmt.Sprintf("This FlowSchema references the PriorityLevelConfiguration object named %q but there is no such object", name),
	}
}
