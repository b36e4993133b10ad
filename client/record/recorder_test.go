package record_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/apiserver/apiservertest"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/client/record"
	"github.com/minicp/minicp/cluster/clustertest"
)

func newClientset(t *testing.T) *client.Clientset {
	t.Helper()
	return clustertest.InMemoryClientset(t, apiservertest.New(t))
}

// TestRepeatsFoldIntoOneEvent: the same event twice is one Event with
// count 2; another reason is another Event.
func TestRepeatsFoldIntoOneEvent(t *testing.T) {
	cs := newClientset(t)
	r := record.New(cs, record.Options{Component: "test-scheduler"})
	clustertest.Start(t, r)

	pod := &corev1.Pod{TypeMeta: metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"},
		ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "web", UID: "u1"}}
	r.Event(pod, corev1.EventTypeWarning, "FailedScheduling", "0/1 nodes are available")
	r.Event(pod, corev1.EventTypeWarning, "FailedScheduling", "0/1 nodes are available")
	r.Eventf(pod, corev1.EventTypeNormal, "Scheduled", "Successfully assigned default/web to %s", "node-1")

	// Events are written asynchronously: watch them arrive.
	deadline, stop := clustertest.WaitContext(t)
	defer stop()
	w, err := cs.Events("default").Watch(deadline, client.ListOptions{ResourceVersion: "0"})
	require.NoError(t, err)
	defer w.Stop()
	latest := map[string]*corev1.Event{}
	for {
		select {
		case ev, ok := <-w.ResultChan():
			require.True(t, ok, "watch ended")
			e := ev.Object.(*corev1.Event)
			latest[e.Name] = e
		case <-deadline.Done():
			t.Fatalf("events not written: %v", latest)
		}
		counts := map[string]int32{}
		for _, e := range latest {
			counts[e.Reason] += e.Count
			assert.Equal(t, "web", e.InvolvedObject.Name)
			assert.Equal(t, "test-scheduler", e.Source.Component)
		}
		if counts["FailedScheduling"] == 2 && counts["Scheduled"] == 1 {
			assert.Len(t, latest, 2, "repeats fold into one Event")
			return
		}
	}
}
