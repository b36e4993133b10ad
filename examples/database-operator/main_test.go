package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster/clustertest"
)

// TestMain runs the tests on clustertest's shared etcd and checks that no
// goroutine is left behind: the example's cluster, webhook server,
// manager and watches all stop.
func TestMain(m *testing.M) { clustertest.Main(m) }

// TestDatabaseOperatorFlow runs the example and checks each step: the
// webhook refuses the bad Database, the operator creates the three
// children controlled by the good one and reports it Ready, follows the
// scale-up, and on delete runs its cleanup before the Database goes and
// the garbage collector takes the rest; nothing is left.
func TestDatabaseOperatorFlow(t *testing.T) {
	if testing.Short() {
		t.Skip("scenario test")
	}
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	var out bytes.Buffer
	var left []string
	require.NoError(t, run(ctx, &out, func(ctx context.Context, cl *client.Client) error {
		var err error
		left, err = leftovers(ctx, cl)
		return err
	}))
	text := out.String()
	steps := sections(text)

	assert.Contains(t, steps["1"], "customresourcedefinition databases.example.com established", text)

	assert.Regexp(t, `webhook serving AdmissionReviews at https://127\.0\.0\.1:\d+/validate-databases`, steps["2"], text)
	assert.Contains(t, steps["2"], "validatingwebhookconfiguration databases.example.com created", text)

	assert.Contains(t, steps["3"], `Error from server (Forbidden): databases.example.com "warehouse" is forbidden: admission webhook "validate.databases.example.com" denied the request`, text)
	assert.Contains(t, steps["3"], `spec.engine: Unsupported value: "oracle": supported values: "mysql", "postgres"`, text)
	assert.Contains(t, steps["3"], "spec.replicas: Invalid value: 7: must be between 1 and 5", text)
	assert.NotContains(t, steps["3"], "stored", "a refused Database never reaches etcd:\n%s", text)

	assertInOrder(t, steps["4"],
		"database orders stored: postgres 16, 2 replicas of 1Gi",
		"database orders: the operator added the finalizer databases.example.com/cleanup",
		"secret orders-credentials created by the operator: kubernetes.io/basic-auth, keys [password username], controlled by Database/orders",
		"deployment orders created by the operator: 2 replicas of postgres:16, controlled by Database/orders",
		"service orders created by the operator:",
		"database orders status: phase Ready, readyReplicas 2, endpoint orders.default.svc:5432, Ready=True (DeploymentReady: 2/2 replicas ready)",
	)
	assert.Regexp(t, `service orders created by the operator: cluster IP \d+\.\d+\.\d+\.\d+, port 5432→db, selecting databases.example.com/name=orders`, steps["4"])
	assert.Equal(t, 2, strings.Count(steps["4"], "running on minicp-node-1"), "two postgres pods run:\n%s", text)

	assertInOrder(t, steps["5"],
		"database orders: generation 2, spec.replicas 3",
		"deployment orders scaled 2 → 3 by the operator",
		"database orders status: phase Ready, readyReplicas 3, endpoint orders.default.svc:5432, Ready=True (DeploymentReady: 3/3 replicas ready)",
	)

	assertInOrder(t, steps["6"],
		"database orders: deletionTimestamp set; finalizers [databases.example.com/cleanup]",
		"secret orders-credentials deleted by the operator's cleanup",
		"database orders: the operator removed its finalizer",
		"database orders deleted by the API server",
		"deleted by the garbage collector",
	)
	assert.Contains(t, steps["6"], "event CleanedUp on database orders: deleted Secret orders-credentials", text)
	assert.Contains(t, steps["6"], "deployment orders deleted by the garbage collector", text)
	assert.Contains(t, steps["6"], "service orders deleted by the garbage collector", text)
	// The Secret goes first (the cleanup), then the Database; the
	// collector then deletes its dependents, the Service whenever its
	// graph gets to it, the ReplicaSet after the Deployment and the pods
	// after the ReplicaSet.
	i := strings.Index(steps["6"], "deleted in this order:")
	require.GreaterOrEqual(t, i, 0, text)
	order := steps["6"][i:]
	assert.True(t, strings.HasPrefix(order, "deleted in this order: Secret×1, Database×1, "), text)
	assertInOrder(t, order, "Deployment×1", "ReplicaSet×1", "Pod×")
	assert.Contains(t, order, "Service×1", text)

	assert.Empty(t, left, "nothing of orders is left")
}

// leftovers lists what is left of the Database and its children in the
// namespace.
func leftovers(ctx context.Context, cl *client.Client) ([]string, error) {
	cs, err := client.NewClientset(cl)
	if err != nil {
		return nil, err
	}
	databases, err := client.NewResource[*Database, *DatabaseList](cl, databasesGVR)
	if err != nil {
		return nil, err
	}
	children := client.ListOptions{LabelSelector: childSelector}
	var left []string
	dbs, err := databases.Namespace(namespace).List(ctx, client.ListOptions{})
	if err != nil {
		return nil, err
	}
	for _, db := range dbs.Items {
		left = append(left, "database "+db.Name)
	}
	deploys, err := cs.Deployments(namespace).List(ctx, children)
	if err != nil {
		return nil, err
	}
	for _, d := range deploys.Items {
		left = append(left, "deployment "+d.Name)
	}
	services, err := cs.Services(namespace).List(ctx, children)
	if err != nil {
		return nil, err
	}
	for _, s := range services.Items {
		left = append(left, "service "+s.Name)
	}
	secrets, err := cs.Secrets(namespace).List(ctx, children)
	if err != nil {
		return nil, err
	}
	for _, s := range secrets.Items {
		left = append(left, "secret "+s.Name)
	}
	pods, err := cs.Pods(namespace).List(ctx, children)
	if err != nil {
		return nil, err
	}
	for _, p := range pods.Items {
		left = append(left, "pod "+p.Name)
	}
	return left, nil
}

// assertInOrder checks that text holds each of want, in that order.
func assertInOrder(t *testing.T, text string, want ...string) {
	t.Helper()
	rest := text
	for _, w := range want {
		i := strings.Index(rest, w)
		if !assert.GreaterOrEqual(t, i, 0, "%q, after the lines before it, in:\n%s", w, text) {
			return
		}
		rest = rest[i+len(w):]
	}
}

// sections splits the example's output by step: "4" is the text under
// "4. kubectl create ...".
func sections(text string) map[string]string {
	out := map[string]string{}
	for _, block := range strings.Split(text, "\n\n") {
		if number, _, ok := strings.Cut(block, ". "); ok {
			out[number] = block
		}
	}
	return out
}
