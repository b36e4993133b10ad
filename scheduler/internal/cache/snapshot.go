package cache

import (
	"slices"
	"strings"

	"github.com/minicp/minicp/scheduler/framework"
)

// Snapshot is a copy of the cache's NodeInfos that one scheduling cycle
// reads without locks while the cache keeps changing. It is owned by the
// scheduling loop: not safe for concurrent use.
//
// Upstream: k8s.io/kubernetes/pkg/scheduler/backend/cache (Snapshot).
type Snapshot struct {
	// nodeInfoMap holds a Clone of every NodeInfo with a Node; list holds
	// the same clones sorted by node name, so a seeded *rand.Rand breaks
	// ties the same way on every run.
	nodeInfoMap map[string]*framework.NodeInfo
	list        []*framework.NodeInfo
	// generation is the cache's generation at the last UpdateSnapshot.
	generation int64
}

// NewSnapshot returns an empty Snapshot.
func NewSnapshot() *Snapshot {
	return &Snapshot{nodeInfoMap: map[string]*framework.NodeInfo{}, generation: -1}
}

// List returns the nodes, sorted by name. The caller must not modify the
// slice or the NodeInfos.
func (s *Snapshot) List() []*framework.NodeInfo { return s.list }

// Get returns the node called name.
func (s *Snapshot) Get(name string) (*framework.NodeInfo, bool) {
	n, ok := s.nodeInfoMap[name]
	return n, ok
}

// UpdateSnapshot brings s in step with the cache. It copies only the
// NodeInfos whose Generation changed since s last saw them, so a cycle
// after one binding copies one node, not all of them.
//
// Upstream: cacheImpl.UpdateSnapshot, without the generation-ordered
// linked list: a scan of the nodes is cheap at minicp's sizes.
func (c *Cache) UpdateSnapshot(s *Snapshot) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s.generation == c.generation {
		return
	}
	setChanged := false
	for name, n := range c.nodes {
		if n.Node() == nil {
			continue
		}
		cur, ok := s.nodeInfoMap[name]
		if ok && cur.Generation == n.Generation {
			continue
		}
		s.nodeInfoMap[name] = n.Clone()
		setChanged = setChanged || !ok
		if ok {
			// Replace the clone in list too; list is sorted by name.
			i, _ := slices.BinarySearchFunc(s.list, name, func(n *framework.NodeInfo, name string) int {
				return strings.Compare(n.Node().Name, name)
			})
			s.list[i] = s.nodeInfoMap[name]
		}
	}
	for name := range s.nodeInfoMap {
		if n, ok := c.nodes[name]; !ok || n.Node() == nil {
			delete(s.nodeInfoMap, name)
			setChanged = true
		}
	}
	if setChanged {
		s.list = s.list[:0]
		for _, n := range s.nodeInfoMap {
			s.list = append(s.list, n)
		}
		slices.SortFunc(s.list, func(a, b *framework.NodeInfo) int { return strings.Compare(a.Node().Name, b.Node().Name) })
	}
	s.generation = c.generation
}
