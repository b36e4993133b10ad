package main

import (
	"bytes"
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/minicp/minicp/storage/storagetest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m, storagetest.LeakOptions()...) }

// TestOperatorFlow runs the example and checks that the hops of the
// external request come in order, with loopback TCP peers and
// resourceVersions that grow as the writes follow each other.
func TestOperatorFlow(t *testing.T) {
	if testing.Short() {
		t.Skip("scenario test")
	}
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	var out bytes.Buffer
	require.NoError(t, run(ctx, &out))
	text := out.String()
	t.Logf("operator-flow printed:\n%s", text)

	last := -1
	for _, hop := range []string{
		"setup:", "lease default/website-operator held by",
		" 1. DNS ", " 2. TCP ", " 3. kube-proxy ", " 4. operator pod ", " 5. API server ",
		" authn ", " authz ", " admission ", " validation ", " etcd.txn ",
		" 6. watch ", " watchcache.dispatch", " informer.delta ",
		" 7. reconcile ", " read ", " diff ", " act ", " write ",
		" 8. status ", " 9. client reads ", " kube-proxy ", " pod ", " API server ", " answer ",
	} {
		i := strings.Index(text[last+1:], hop)
		if !assert.GreaterOrEqual(t, i, 0, "hop %q after the ones before it", hop) {
			return
		}
		last += 1 + i
	}

	peer := `127\.\d+\.\d+\.\d+:\d+`
	for _, re := range []string{
		`1\. DNS +` + peer + ` asks cluster DNS at ` + peer,
		`A website-operator\.default\.svc\.cluster\.local\.\? NOERROR 10\.\d+\.\d+\.\d+`,
		`2\. TCP +` + peer + ` connects to 127\.240\.\d+\.\d+:80`,
		`round robin over 2 ready endpoints: 10\.244\.\d+\.\d+:8080 \(served at 127\.244\.\d+\.\d+:8080\), pod website-operator-`,
		`receives "?POST"? "?/websites"? from ` + peer,
		`user="?system:serviceaccount:default:website-operator`,
		`difference="?configmap missing`,
		`answer +200 phase=Ready configMap=blog-html`,
	} {
		assert.Regexp(t, re, text)
	}

	// The writes of the flow, in order: the Website, its ConfigMap, its
	// status; the client reads the status's version.
	rvOf := func(re string) int {
		m := regexp.MustCompile(re).FindStringSubmatch(text)
		require.Len(t, m, 2, "%s in the output", re)
		rv, err := strconv.Atoi(m[1])
		require.NoError(t, err)
		return rv
	}
	created := rvOf(`etcd\.txn +verb="?create"? key="?/websites\.example\.com/default/blog"? rv=(\d+)`)
	delta := rvOf(`informer\.delta of operator/\S+ \(the leader\): websites\S* Added rv=(\d+)`)
	configMap := rvOf(`write .*configmaps -> 201, etcd\.txn rv=(\d+)`)
	status := rvOf(`8\. status .* -> 200, etcd\.txn rv=(\d+)`)
	read := rvOf(`answer .* resourceVersion=(\d+)`)
	assert.Equal(t, created, delta, "the informer gets the write's revision")
	assert.Less(t, created, configMap, "the ConfigMap is written after the Website")
	assert.Less(t, configMap, status, "the status last")
	assert.Equal(t, status, read, "the client reads the status the operator wrote")

	// Round robin: the two requests went to the two replicas.
	pods := regexp.MustCompile(`pod (website-operator-\S+); dials`).FindAllStringSubmatch(text, -1)
	require.Len(t, pods, 2, "one pick per request")
	assert.NotEqual(t, pods[0][1], pods[1][1], "kube-proxy takes turns")
}
