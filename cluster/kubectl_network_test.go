package cluster_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestKubectlExposeAndWget: `kubectl expose` makes a Service whose
// EndpointSlice `kubectl get endpointslices` shows, and a busybox pod's
// wget of the Service's name prints nginx's page, through cluster DNS and
// the proxy.
func TestKubectlExposeAndWget(t *testing.T) {
	if testing.Short() {
		t.Skip("scenario test")
	}
	c := startCluster(t, nodes(1), serviceNetwork)
	k := newKubectl(t, c)

	k.Run("create", "deployment", "web", "--image=nginx", "--port=80")
	k.Run("rollout", "status", "deployment/web", "--timeout=60s")
	assert.Contains(t, k.Run("expose", "deployment", "web", "--port=80"), "service/web exposed")
	k.Run("wait", "--for=jsonpath={.endpoints[0].conditions.ready}=true", "endpointslice", "-l", "kubernetes.io/service-name=web", "--timeout=60s")
	slices := k.Run("get", "endpointslices", "-l", "kubernetes.io/service-name=web")
	assert.Contains(t, slices, "ADDRESSTYPE", "kubectl's columns:\n%s", slices)
	assert.Contains(t, slices, "IPv4")
	assert.Contains(t, slices, "10.244.", "the pod's address:\n%s", slices)
	assert.True(t, strings.HasPrefix(strings.Fields(strings.Split(slices, "\n")[1])[0], "web-"), "named <service>-<random>:\n%s", slices)

	// The proxy may see the endpoint a moment after the slice is
	// written: the script retries, in the pod's own time.
	k.Run("run", "client", "--image=busybox", "--restart=Never", "--", "sh", "-c",
		"for i in $(seq 30); do wget -qO- -T 5 http://web.default.svc.cluster.local && exit 0; sleep 1; done; exit 1")
	k.Run("wait", "--for=jsonpath={.status.phase}=Succeeded", "pod/client", "--timeout=60s")
	logs := k.Run("logs", "client")
	require.Contains(t, logs, "<title>Welcome to nginx!</title>", "busybox printed nginx's page:\n%s", logs)

	svc := k.Run("get", "svc", "-n", "kube-system", "kube-dns", "-o", "jsonpath={.spec.clusterIP}")
	assert.Equal(t, "10.96.0.10", svc, "the kube-dns Service")
}
