package garbagecollector_test

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster/clustertest"
)

// change is one watch event of a configmap or a pod, with the etcd
// revision that made it: revisions are global, so the changes of the two
// resources can be put in the order they happened.
type change struct {
	typ  watch.EventType
	kind string // "ConfigMap" or "Pod"
	name string
	rv   int64
	meta *metav1.ObjectMeta
}

// changeLog watches the configmaps and pods of a namespace and keeps every
// change, read on the test's goroutine.
type changeLog struct {
	cms, pods watch.Interface
	changes   []change
}

// watchChanges starts watching ns's configmaps and pods from now.
func watchChanges(t *testing.T, cs *client.Clientset, ns string) *changeLog {
	t.Helper()
	list, err := cs.ConfigMaps(ns).List(t.Context(), client.ListOptions{})
	require.NoError(t, err)
	from := client.ListOptions{ResourceVersion: list.ResourceVersion}
	l := &changeLog{}
	l.cms, err = cs.ConfigMaps(ns).Watch(t.Context(), from)
	require.NoError(t, err)
	t.Cleanup(l.cms.Stop)
	l.pods, err = cs.Pods(ns).Watch(t.Context(), from)
	require.NoError(t, err)
	t.Cleanup(l.pods.Stop)
	return l
}

// waitFor reads changes until one satisfies cond, and returns it.
func (l *changeLog) waitFor(t *testing.T, what string, cond func(c change) bool) change {
	t.Helper()
	for _, c := range l.changes {
		if cond(c) {
			return c
		}
	}
	ctx, cancel := clustertest.WaitContext(t)
	defer cancel()
	for {
		var ev watch.Event
		var ok bool
		kind := "ConfigMap"
		select {
		case ev, ok = <-l.cms.ResultChan():
		case ev, ok = <-l.pods.ResultChan():
			kind = "Pod"
		case <-ctx.Done():
			t.Fatalf("waiting for %s: %v", what, ctx.Err())
		}
		require.True(t, ok, "the %s watch ended while waiting for %s", kind, what)
		obj, isObj := ev.Object.(metav1.Object)
		require.True(t, isObj, "%s watch event %s carries %T", kind, ev.Type, ev.Object)
		meta := obj.GetObjectMeta()
		rv, err := strconv.ParseInt(meta.ResourceVersion, 10, 64)
		require.NoError(t, err, "resourceVersion of %s %s", kind, meta.Name)
		c := change{typ: ev.Type, kind: kind, name: meta.Name, rv: rv, meta: meta}
		l.changes = append(l.changes, c)
		if cond(c) {
			return c
		}
	}
}

// waitDeleted waits for the deletion of kind/name and returns it.
func (l *changeLog) waitDeleted(t *testing.T, kind, name string) change {
	t.Helper()
	return l.waitFor(t, kind+" "+name+" deleted", func(c change) bool {
		return c.typ == watch.Deleted && c.kind == kind && c.name == name
	})
}
