package framework

import (
	"errors"
	"sync"
	"sync/atomic"
)

// ErrNotFound is returned by CycleState.Read for a key nobody wrote.
var ErrNotFound = errors.New("not found")

// StateKey names a piece of CycleState. Plugins use "PreFilter"+Name or
// "PreScore"+Name, as upstream does, so keys do not collide.
type StateKey string

// StateData is what plugins store in a CycleState.
type StateData interface {
	// Clone returns a copy for CycleState.Clone; data that is never
	// modified after it is written may return itself.
	Clone() StateData
}

// CycleState is the scratch space of one scheduling cycle (one pod): what
// PreFilter and PreScore compute once is written here and read by Filter
// and Score on every node. A new cycle gets a new CycleState.
//
// Read, Write and Delete are safe for concurrent use; Read never blocks.
// The skip sets are written only by RunPreFilterPlugins and
// RunPreScorePlugins, which run before the node fan-out starts, and only
// read after it.
//
// Upstream: k8s.io/kubernetes/pkg/scheduler/framework (CycleState).
type CycleState struct {
	// storage points to a map that is never modified once stored: Write
	// and Delete store a modified copy. Filter and Score read it once per
	// node and plugin, from many goroutines, while a cycle writes a few
	// keys before the fan-out, so reads take no lock and hash no
	// interface (upstream's sync.Map cost a fifth of a cycle's time).
	storage atomic.Pointer[map[StateKey]StateData]
	// mu serializes Write and Delete.
	mu sync.Mutex
	// skipFilterPlugins holds the plugins whose PreFilter returned Skip.
	skipFilterPlugins map[string]struct{}
	// skipScorePlugins holds the plugins whose PreScore returned Skip.
	skipScorePlugins map[string]struct{}
}

// NewCycleState returns an empty CycleState.
func NewCycleState() *CycleState { return &CycleState{} }

// Read returns the data stored under key, or ErrNotFound.
func (c *CycleState) Read(key StateKey) (StateData, error) {
	if m := c.storage.Load(); m != nil {
		if v, ok := (*m)[key]; ok {
			return v, nil
		}
	}
	return nil, ErrNotFound
}

// Write stores val under key, replacing what was there.
func (c *CycleState) Write(key StateKey, val StateData) {
	c.mu.Lock()
	defer c.mu.Unlock()
	m := c.copyLocked(1)
	m[key] = val
	c.storage.Store(&m)
}

// Delete removes key.
func (c *CycleState) Delete(key StateKey) {
	c.mu.Lock()
	defer c.mu.Unlock()
	m := c.copyLocked(0)
	delete(m, key)
	c.storage.Store(&m)
}

// copyLocked returns a copy of the stored map with room for extra more
// keys.
func (c *CycleState) copyLocked(extra int) map[StateKey]StateData {
	old := c.storage.Load()
	if old == nil {
		return make(map[StateKey]StateData, extra)
	}
	m := make(map[StateKey]StateData, len(*old)+extra)
	for k, v := range *old {
		m[k] = v
	}
	return m
}

// Clone returns a copy whose data are the StateData.Clone of c's. The
// preemption dry run uses one so its changes stay out of the real cycle.
func (c *CycleState) Clone() *CycleState {
	out := &CycleState{
		skipFilterPlugins: cloneSet(c.skipFilterPlugins),
		skipScorePlugins:  cloneSet(c.skipScorePlugins),
	}
	if old := c.storage.Load(); old != nil {
		m := make(map[StateKey]StateData, len(*old))
		for k, v := range *old {
			m[k] = v.Clone()
		}
		out.storage.Store(&m)
	}
	return out
}

func cloneSet(s map[string]struct{}) map[string]struct{} {
	if s == nil {
		return nil
	}
	out := make(map[string]struct{}, len(s))
	for k := range s {
		out[k] = struct{}{}
	}
	return out
}
