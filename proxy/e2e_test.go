package proxy_test

import (
	"io"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/intstr"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/kubelet/cri/simulated"
)

// TestBusyboxReachesNginxByServiceName is the whole path of an outside
// request in one cluster: a busybox pod's wget resolves the Service's
// name through cluster DNS (with its search path), connects to the
// ClusterIP, and the proxy forwards it to the nginx pod's real server,
// whose welcome page the busybox pod prints.
func TestBusyboxReachesNginxByServiceName(t *testing.T) {
	if testing.Short() {
		t.Skip("scenario test")
	}
	c := clustertest.New(t, clustertest.WithServiceNetwork())
	cs := c.Clientset()
	ctx := t.Context()
	_, err := cs.Pods("default").Create(ctx, &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Labels: map[string]string{"app": "web"}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "nginx", Image: "nginx",
			Ports: []corev1.ContainerPort{{ContainerPort: 80}}}}},
	}, client.WriteOptions{})
	require.NoError(t, err)
	_, err = cs.Services("default").Create(ctx, &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: "web"},
		Spec: corev1.ServiceSpec{Selector: map[string]string{"app": "web"},
			Ports: []corev1.ServicePort{{Port: 80, TargetPort: intstr.FromInt32(80)}}},
	}, client.WriteOptions{})
	require.NoError(t, err)

	// The script retries (in simulated time) until the endpoint has
	// reached the proxy: the pod may start before it.
	_, err = cs.Pods("default").Create(ctx, &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "client"},
		Spec: corev1.PodSpec{RestartPolicy: corev1.RestartPolicyNever, Containers: []corev1.Container{{
			Name: "busybox", Image: "busybox", Command: []string{"sh", "-c",
				"for i in $(seq 60); do wget -qO- -T 5 http://web.default.svc.cluster.local && exit 0; sleep 1; done; exit 1"},
		}}},
	}, client.WriteOptions{})
	require.NoError(t, err)
	pod := clustertest.WaitFor(t, cs.Pods("default"), "client", "finished", func(p *corev1.Pod, found bool) bool {
		return found && (p.Status.Phase == corev1.PodSucceeded || p.Status.Phase == corev1.PodFailed)
	})
	logs := podLogs(t, cs, "client")
	require.Equal(t, corev1.PodSucceeded, pod.Status.Phase, "busybox's wget; its log:\n%s", logs)
	assert.Contains(t, logs, simulated.NginxWelcomePage, "nginx's page, printed by busybox")
}

func podLogs(t *testing.T, cs *client.Clientset, name string) string {
	t.Helper()
	rc, err := cs.Pods("default").Stream(t.Context(), name, "log", url.Values{})
	require.NoError(t, err)
	defer rc.Close()
	b, err := io.ReadAll(rc)
	require.NoError(t, err)
	return string(b)
}
