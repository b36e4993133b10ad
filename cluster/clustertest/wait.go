package clustertest

import (
	"context"
	"testing"
	"time"

	"github.com/minicp/minicp/api/apierrors"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/client"
)

// WaitTimeout bounds WaitFor. Changes arrive in milliseconds; 30 seconds
// is for a loaded CI machine under -race, and turns a change that never
// comes into a failure instead of a hang.
const WaitTimeout = 30 * time.Second

// WaitFor watches the object name of r until cond holds for it, and
// returns it as last seen; found is false once the object does not exist
// (obj is then its last state, or the zero T). It fails t after
// WaitTimeout, naming what it waited for. It never polls: it reads the
// object, then watches it from that resourceVersion.
func WaitFor[T interface {
	metav1.Object
	comparable
}, L metav1.ListInterface](t testing.TB, r *client.Resource[T, L], name, what string, cond func(obj T, found bool) bool) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), WaitTimeout)
	defer cancel()
	var last T
	for {
		obj, err := r.Get(ctx, name, client.GetOptions{})
		if ctx.Err() != nil {
			t.Fatalf("%s: %s: not within %v; last seen: %+v", name, what, WaitTimeout, last)
		}
		found := err == nil
		if err != nil && !apierrors.IsNotFound(err) {
			t.Fatalf("get %s: %v", name, err)
		}
		rv := ""
		if found {
			last, rv = obj, obj.GetObjectMeta().ResourceVersion
		}
		if cond(last, found) {
			return last
		}
		w, err := r.Watch(ctx, client.ListOptions{FieldSelector: "metadata.name=" + name, ResourceVersion: rv})
		if err != nil {
			continue // ctx ended: reported above
		}
		for ev := range w.ResultChan() {
			obj, ok := ev.Object.(T)
			if !ok {
				continue
			}
			last = obj
			if cond(obj, ev.Type != watch.Deleted) {
				w.Stop()
				return obj
			}
		}
		w.Stop()
	}
}
