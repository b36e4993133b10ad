package informer_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/informer"
)

// pod returns a pod for the store tests: ns/name at rv, on node.
func pod(ns, name, rv, node string) *corev1.Pod {
	return &corev1.Pod{
		TypeMeta:   metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"},
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, ResourceVersion: rv, Labels: map[string]string{"node": node}},
		Spec:       corev1.PodSpec{NodeName: node},
	}
}

func byNode(obj runtime.Object) ([]string, error) {
	p, ok := obj.(*corev1.Pod)
	if !ok {
		return nil, nil // only pods run on nodes
	}
	if p.Spec.NodeName == "fail" {
		return nil, errors.New("cannot index")
	}
	if p.Spec.NodeName == "" {
		return nil, nil
	}
	return []string{p.Spec.NodeName}, nil
}

func TestIndexer(t *testing.T) {
	type step struct {
		do  string // add, update, delete, replace
		obj []runtime.Object
	}
	tests := []struct {
		name      string
		steps     []step
		wantKeys  []string
		wantNS    map[string][]string // namespace -> keys
		wantNodes map[string][]string // node -> keys
	}{
		{
			name:      "add",
			steps:     []step{{do: "add", obj: []runtime.Object{pod("a", "p1", "1", "n1"), pod("b", "p2", "2", "n1")}}},
			wantKeys:  []string{"a/p1", "b/p2"},
			wantNS:    map[string][]string{"a": {"a/p1"}, "b": {"b/p2"}},
			wantNodes: map[string][]string{"n1": {"a/p1", "b/p2"}},
		},
		{
			name: "update moves the object between index values",
			steps: []step{
				{do: "add", obj: []runtime.Object{pod("a", "p1", "1", "n1")}},
				{do: "update", obj: []runtime.Object{pod("a", "p1", "2", "n2")}},
			},
			wantKeys:  []string{"a/p1"},
			wantNS:    map[string][]string{"a": {"a/p1"}},
			wantNodes: map[string][]string{"n1": {}, "n2": {"a/p1"}},
		},
		{
			name: "delete removes index entries",
			steps: []step{
				{do: "add", obj: []runtime.Object{pod("a", "p1", "1", "n1"), pod("a", "p2", "1", "n1")}},
				{do: "delete", obj: []runtime.Object{pod("a", "p1", "", "")}},
			},
			wantKeys:  []string{"a/p2"},
			wantNS:    map[string][]string{"a": {"a/p2"}},
			wantNodes: map[string][]string{"n1": {"a/p2"}},
		},
		{
			name: "replace drops what the list lacks",
			steps: []step{
				{do: "add", obj: []runtime.Object{pod("a", "p1", "1", "n1"), pod("a", "p2", "1", "n1")}},
				{do: "replace", obj: []runtime.Object{pod("a", "p2", "3", "n2"), pod("c", "p3", "3", "")}},
			},
			wantKeys:  []string{"a/p2", "c/p3"},
			wantNS:    map[string][]string{"a": {"a/p2"}, "c": {"c/p3"}},
			wantNodes: map[string][]string{"n1": {}, "n2": {"a/p2"}},
		},
		{
			name:     "cluster-scoped objects are keyed by name",
			steps:    []step{{do: "add", obj: []runtime.Object{&corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1"}}}}},
			wantKeys: []string{"n1"},
			wantNS:   map[string][]string{"": {"n1"}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			idx := informer.NewIndexer(informer.MetaNamespaceKeyFunc, informer.Indexers{"node": byNode})
			for _, s := range tc.steps {
				var err error
				switch s.do {
				case "add":
					for _, o := range s.obj {
						err = errors.Join(err, idx.Add(o))
					}
				case "update":
					for _, o := range s.obj {
						err = errors.Join(err, idx.Update(o))
					}
				case "delete":
					for _, o := range s.obj {
						err = errors.Join(err, idx.Delete(o))
					}
				case "replace":
					err = idx.Replace(s.obj)
				}
				require.NoError(t, err, "%s", s.do)
			}
			assert.Equal(t, tc.wantKeys, idx.ListKeys())
			assert.Len(t, idx.List(), len(tc.wantKeys))
			for ns, want := range tc.wantNS {
				got, err := idx.IndexKeys(informer.NamespaceIndex, ns)
				require.NoError(t, err)
				assert.Equal(t, want, got, "namespace %q", ns)
			}
			for node, want := range tc.wantNodes {
				got, err := idx.IndexKeys("node", node)
				require.NoError(t, err)
				assert.Equal(t, want, got, "node %q", node)
				objs, err := idx.ByIndex("node", node)
				require.NoError(t, err)
				assert.Len(t, objs, len(want))
			}
		})
	}
}

func TestIndexerGetAndErrors(t *testing.T) {
	idx := informer.NewIndexer(informer.MetaNamespaceKeyFunc, nil)
	p := pod("a", "p1", "1", "n1")
	require.NoError(t, idx.Add(p))
	got, ok, err := idx.Get(pod("a", "p1", "", ""))
	require.NoError(t, err)
	require.True(t, ok)
	assert.Same(t, p, got)
	_, ok, _ = idx.GetByKey("a/none")
	assert.False(t, ok)

	_, err = idx.ByIndex("node", "n1")
	assert.ErrorContains(t, err, "does not exist")
	assert.ErrorContains(t, idx.AddIndexers(informer.Indexers{informer.NamespaceIndex: byNode}), "already exists")

	// An index added later covers the objects already stored.
	require.NoError(t, idx.AddIndexers(informer.Indexers{"node": byNode}))
	keys, err := idx.IndexKeys("node", "n1")
	require.NoError(t, err)
	assert.Equal(t, []string{"a/p1"}, keys)
	assert.Equal(t, []string{"n1"}, idx.IndexValues("node"))

	// Deleting by tombstone or by key works too.
	require.NoError(t, idx.Delete(informer.DeletedFinalStateUnknown{Key: "a/p1"}))
	assert.Empty(t, idx.ListKeys())

	// A failing index function leaves the store as it was.
	require.NoError(t, idx.Add(p))
	assert.ErrorContains(t, idx.Update(pod("a", "p1", "2", "fail")), "cannot index")
	got, _, _ = idx.GetByKey("a/p1")
	assert.Same(t, p, got)

	_, err = informer.MetaNamespaceKeyFunc(42)
	assert.Error(t, err)
	ns, name, err := informer.SplitMetaNamespaceKey("a/p1")
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "p1"}, []string{ns, name})
	_, _, err = informer.SplitMetaNamespaceKey("a/b/c")
	assert.Error(t, err)
}
