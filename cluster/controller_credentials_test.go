package cluster_test

import (
	"fmt"
	"testing"
	"time"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock/clocktest"
	"github.com/minicp/minicp/cluster/clustertest"
)

// TestControllerTokensAreRenewed: a controller's ServiceAccount token
// lives an hour on the cluster's clock; after two hours the controller
// still acts, on a token renewed on the same clock.
func TestControllerTokensAreRenewed(t *testing.T) {
	t.Parallel()
	clk := clocktest.NewFake(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC))
	c := clustertest.New(t, clustertest.WithClock(clk), clustertest.WithControllers("serviceaccount-controller"))
	cs := c.Clientset()
	// The service-account-controller, as its ServiceAccount, makes every
	// namespace's "default".
	defaultMadeIn := func(ns string) {
		t.Helper()
		_, err := cs.Namespaces().Create(t.Context(), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, client.WriteOptions{})
		if err != nil {
			t.Fatalf("create namespace %s: %v", ns, err)
		}
		clustertest.WaitFor(t, cs.ServiceAccounts(ns), "default", fmt.Sprintf("the default service account of %s", ns),
			func(_ *corev1.ServiceAccount, found bool) bool { return found })
	}
	defaultMadeIn("early")
	clk.Step(2 * time.Hour)
	defaultMadeIn("later")
}
