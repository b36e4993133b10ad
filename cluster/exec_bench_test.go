package cluster_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/storage/storagetest"
)

// BenchmarkExecRoundTrip measures one exec through the API server into a
// simulated container, as `kubectl exec box -- echo hi` makes it minus
// kubectl's own start: a WebSocket (v5.channel.k8s.io) to pods/exec over
// TLS, which the API server authenticates, authorizes and relays to the
// kubelet; the command run by the container's shell; its stdout and its
// exit status back, and the close. Round trips per second and
// microseconds per round trip are reported.
func BenchmarkExecRoundTrip(b *testing.B) {
	c, err := cluster.New(cluster.Options{Etcd: storagetest.Client(b), StoragePrefix: storagetest.Prefix(b), Nodes: 1,
		DisableServiceNetwork: true})
	require.NoError(b, err)
	running := clustertest.Start(b, c)
	select {
	case <-c.Ready():
	case <-running.Done():
		b.Fatal("the cluster stopped before it was ready")
	}
	cl, err := client.New(client.Config{Host: c.URL(), CAData: c.CACertificate(), BearerToken: c.Token()})
	require.NoError(b, err)
	defer cl.CloseIdleConnections()
	cs, err := client.NewClientset(cl)
	require.NoError(b, err)
	pods := cs.Pods("default")
	pod, err := pods.Create(b.Context(), &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "box"},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: "busybox", Command: []string{"sleep", "3600"}}}},
	}, client.WriteOptions{})
	require.NoError(b, err)
	waitPodRunning(b, pods, pod.ResourceVersion)

	u, err := url.Parse(c.URL())
	require.NoError(b, err)
	u.Scheme = "wss"
	u.Path = "/api/v1/namespaces/default/pods/box/exec"
	u.RawQuery = url.Values{"command": {"echo", "hi"}, "stdout": {"true"}, "container": {"main"}}.Encode()
	d := websocket.Dialer{TLSClientConfig: c.TLSClientConfig(), Subprotocols: []string{"v5.channel.k8s.io"}}
	header := http.Header{"Authorization": {"Bearer " + c.Token()}}
	for b.Loop() {
		stdout, status := execOnce(b, &d, u.String(), header)
		require.Equal(b, "hi\n", stdout)
		require.Contains(b, status, `"Success"`)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "exec/s")
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N), "µs/exec")
}

// execOnce runs one exec and returns its stdout and the Status of the
// error channel, reading until the server closes the stream.
func execOnce(b *testing.B, d *websocket.Dialer, u string, header http.Header) (stdout, status string) {
	conn, resp, err := d.DialContext(b.Context(), u, header)
	require.NoError(b, err, "dial pods/exec")
	resp.Body.Close()
	defer conn.Close()
	var out, st strings.Builder
	for {
		_, msg, err := conn.ReadMessage()
		if err != nil {
			break // the server closes once the status is sent
		}
		if len(msg) == 0 {
			continue
		}
		switch msg[0] {
		case 1:
			out.Write(msg[1:])
		case 3:
			st.Write(msg[1:])
		}
	}
	return out.String(), st.String()
}

// waitPodRunning watches pod box from rv until it runs.
func waitPodRunning(b *testing.B, pods *client.PodClient, rv string) {
	ctx, cancel := context.WithTimeout(b.Context(), clustertest.KubectlTimeout)
	defer cancel()
	w, err := pods.Watch(ctx, client.ListOptions{ResourceVersion: rv, FieldSelector: "metadata.name=box"})
	require.NoError(b, err)
	defer w.Stop()
	for ev := range w.ResultChan() {
		if p, ok := ev.Object.(*corev1.Pod); ok && p.Status.Phase == corev1.PodRunning {
			return
		}
	}
	b.Fatal("pod box did not run")
}
