package cache_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/scheduler/framework"
	st "github.com/minicp/minicp/scheduler/framework/frameworktest"
	"github.com/minicp/minicp/scheduler/internal/cache"
)

type rl = map[corev1.ResourceName]string

func node(name string) *corev1.Node {
	return st.MakeNode().Name(name).Capacity(rl{"cpu": "4", "memory": "8Gi", "pods": "110"}).Obj()
}

// pod returns a pod requesting cpu, bound (or assumed) on nodeName.
func pod(name, nodeName, cpu string) *corev1.Pod {
	return st.MakePod().Name(name).UID("uid-" + name).Node(nodeName).Req(rl{"cpu": cpu}).Obj()
}

// requested returns the cpu requested on each node of a fresh snapshot.
func requested(t *testing.T, c *cache.Cache) map[string]int64 {
	t.Helper()
	s := cache.NewSnapshot()
	c.UpdateSnapshot(s)
	out := map[string]int64{}
	for _, n := range s.List() {
		out[n.Node().Name] = n.Requested.MilliCPU
	}
	return out
}

func TestAssumeConfirmForget(t *testing.T) {
	c := cache.New()
	c.AddNode(node("a"))
	c.AddNode(node("b"))

	p := pod("p", "a", "500m")
	require.NoError(t, c.AssumePod(p))
	assert.True(t, c.IsAssumedPod(p))
	assert.Equal(t, map[string]int64{"a": 500, "b": 0}, requested(t, c), "an assumed pod counts")
	assert.Error(t, c.AssumePod(p), "assumed twice")

	require.NoError(t, c.ForgetPod(p))
	assert.False(t, c.IsAssumedPod(p))
	assert.Equal(t, map[string]int64{"a": 0, "b": 0}, requested(t, c), "a forgotten pod no longer counts")
	assert.Error(t, c.ForgetPod(p), "forgotten twice")

	require.NoError(t, c.AssumePod(p))
	require.NoError(t, c.AddPod(p), "the informer confirms the binding")
	assert.False(t, c.IsAssumedPod(p))
	assert.Error(t, c.ForgetPod(p), "a confirmed pod cannot be forgotten")
	assert.Error(t, c.AddPod(p), "added twice")
	assert.Equal(t, map[string]int64{"a": 500, "b": 0}, requested(t, c))
	_, pods, assumed := c.Counts()
	assert.Equal(t, []int{1, 0}, []int{pods, assumed})
}

func TestConfirmedOnAnotherNode(t *testing.T) {
	c := cache.New()
	c.AddNode(node("a"))
	c.AddNode(node("b"))
	require.NoError(t, c.AssumePod(pod("p", "a", "500m")))
	require.NoError(t, c.AddPod(pod("p", "b", "500m")), "someone else bound it to b")
	assert.Equal(t, map[string]int64{"a": 0, "b": 500}, requested(t, c))
}

func TestUpdateAndRemovePod(t *testing.T) {
	c := cache.New()
	c.AddNode(node("a"))
	assert.Error(t, c.UpdatePod(pod("p", "a", "1"), pod("p", "a", "2")), "not in the cache")
	require.NoError(t, c.AddPod(pod("p", "a", "1")))
	require.NoError(t, c.UpdatePod(pod("p", "a", "1"), pod("p", "a", "2")))
	assert.Equal(t, map[string]int64{"a": 2000}, requested(t, c))

	// A delete learned by relisting may carry a state without nodeName:
	// the cached state says where the pod was.
	require.NoError(t, c.RemovePod(pod("p", "", "2")))
	assert.Equal(t, map[string]int64{"a": 0}, requested(t, c))
	assert.Error(t, c.RemovePod(pod("p", "a", "2")), "removed twice")

	require.NoError(t, c.AssumePod(pod("q", "a", "1")))
	assert.Error(t, c.UpdatePod(pod("q", "a", "1"), pod("q", "a", "2")), "an assumed pod is confirmed by AddPod first")
}

// TestPodsOfUnknownNodes: pods bound to a node the cache does not know
// count once the node appears, and keep counting while it is gone.
func TestPodsOfUnknownNodes(t *testing.T) {
	c := cache.New()
	require.NoError(t, c.AddPod(pod("p", "late", "1")))
	assert.Empty(t, requested(t, c), "a node without a Node is not in the snapshot")
	c.AddNode(node("late"))
	assert.Equal(t, map[string]int64{"late": 1000}, requested(t, c))

	require.NoError(t, c.RemoveNode(node("late")))
	assert.Empty(t, requested(t, c))
	assert.Error(t, c.RemoveNode(node("late")), "removed twice")
	c.AddNode(node("late"))
	assert.Equal(t, map[string]int64{"late": 1000}, requested(t, c), "its pods still count")

	require.NoError(t, c.RemoveNode(node("late")))
	require.NoError(t, c.RemovePod(pod("p", "late", "1")))
	nodes, pods, _ := c.Counts()
	assert.Equal(t, []int{0, 0}, []int{nodes, pods})
}

// TestSnapshotCopiesOnlyWhatChanged: a snapshot is sorted by node name,
// keeps the NodeInfos of unchanged nodes, and copies changed ones, so the
// cache changing later does not change a snapshot in use.
func TestSnapshotCopiesOnlyWhatChanged(t *testing.T) {
	c := cache.New()
	for _, n := range []string{"c", "a", "b"} {
		c.AddNode(node(n))
	}
	s := cache.NewSnapshot()
	c.UpdateSnapshot(s)
	names := func() []string {
		var out []string
		for _, n := range s.List() {
			out = append(out, n.Node().Name)
		}
		return out
	}
	assert.Equal(t, []string{"a", "b", "c"}, names())
	before := append([]*framework.NodeInfo(nil), s.List()...)

	require.NoError(t, c.AssumePod(pod("p", "b", "1")))
	assert.Zero(t, s.List()[1].Requested.MilliCPU, "the snapshot does not change with the cache")
	c.UpdateSnapshot(s)
	assert.Same(t, before[0], s.List()[0], "a is unchanged: not copied")
	assert.NotSame(t, before[1], s.List()[1], "b changed: copied")
	assert.Same(t, before[2], s.List()[2], "c is unchanged: not copied")
	assert.Equal(t, int64(1000), s.List()[1].Requested.MilliCPU)
	got, ok := s.Get("b")
	require.True(t, ok)
	assert.Same(t, s.List()[1], got)

	c.AddNode(node("aa"))
	require.NoError(t, c.RemoveNode(node("c")))
	c.UpdateSnapshot(s)
	assert.Equal(t, []string{"a", "aa", "b"}, names())
	_, ok = s.Get("c")
	assert.False(t, ok)
}
