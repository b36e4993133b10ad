package readinessprobe

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/intstr"
	"github.com/minicp/minicp/kubelet"
	"github.com/minicp/minicp/kubelet/cri"
	"github.com/minicp/minicp/workshop/exercise"
	"github.com/minicp/minicp/workshop/workshoptest"
)

// check calls Check and stops the test at once if it is not written.
func check(t *testing.T, target kubelet.ProbeTarget, what string) error {
	t.Helper()
	err := Check(t.Context(), target)
	if exercise.IsNotDone(err) {
		workshoptest.Check(t, err, what)
	}
	return err
}

func TestExec(t *testing.T) {
	workshoptest.Require(t)
	tests := []struct {
		name    string
		result  cri.ExecSyncResult
		err     error
		wantErr string // "": passes
	}{
		{name: "exit 0", result: cri.ExecSyncResult{Stdout: []byte("ok\n")}},
		{name: "exit 1 with output", result: cri.ExecSyncResult{ExitCode: 1, Stderr: []byte("cat: can't open '/tmp/ready'")}, wantErr: "can't open"},
		{name: "exit 2 silently", result: cri.ExecSyncResult{ExitCode: 2}, wantErr: "2"},
		{name: "the exec fails", err: errors.New("container not running"), wantErr: "container not running"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var ran []string
			target := kubelet.ProbeTarget{
				Container: &corev1.Container{Name: "main"},
				Probe:     &corev1.Probe{ProbeHandler: corev1.ProbeHandler{Exec: &corev1.ExecAction{Command: []string{"cat", "/tmp/ready"}}}},
				Exec: func(_ context.Context, cmd []string) (cri.ExecSyncResult, error) {
					ran = cmd
					return tc.result, tc.err
				},
			}
			err := check(t, target, "Check(exec probe, "+tc.name+")")
			require.Equal(t, []string{"cat", "/tmp/ready"}, ran, "Check(exec probe, %s): the command run", tc.name)
			if tc.wantErr == "" {
				require.NoError(t, err, "Check(exec probe, %s)", tc.name)
				return
			}
			require.Error(t, err, "Check(exec probe, %s) must fail", tc.name)
			require.Contains(t, err.Error(), tc.wantErr, "Check(exec probe, %s): the message", tc.name)
		})
	}
}

func TestHTTPGet(t *testing.T) {
	workshoptest.Require(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			w.WriteHeader(http.StatusOK)
		case "/healthz":
			if r.Header.Get("X-Probe") != "yes" {
				http.Error(w, "missing header", http.StatusBadRequest)
				return
			}
			w.WriteHeader(http.StatusNoContent)
		case "/moved":
			http.Redirect(w, r, "/", http.StatusFound)
		default:
			http.Error(w, "down", http.StatusServiceUnavailable)
		}
	}))
	t.Cleanup(srv.Close)
	host, portStr, err := net.SplitHostPort(srv.Listener.Addr().String())
	require.NoError(t, err, "the test server's address")
	port, err := strconv.Atoi(portStr)
	require.NoError(t, err, "the test server's port")
	httpClient := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}

	tests := []struct {
		name    string
		action  corev1.HTTPGetAction
		wantErr string
	}{
		{name: "root, by port number", action: corev1.HTTPGetAction{Port: intstr.FromInt32(int32(port))}},
		{name: "by port name", action: corev1.HTTPGetAction{Path: "/", Port: intstr.FromString("web")}},
		{name: "headers", action: corev1.HTTPGetAction{Path: "/healthz", Port: intstr.FromInt32(int32(port)),
			HTTPHeaders: []corev1.HTTPHeader{{Name: "X-Probe", Value: "yes"}}}},
		{name: "a redirect passes", action: corev1.HTTPGetAction{Path: "/moved", Port: intstr.FromInt32(int32(port))}},
		{name: "503 fails", action: corev1.HTTPGetAction{Path: "/down", Port: intstr.FromInt32(int32(port))}, wantErr: "503"},
		{name: "400 fails", action: corev1.HTTPGetAction{Path: "/healthz", Port: intstr.FromInt32(int32(port))}, wantErr: "400"},
		{name: "an unknown port name fails", action: corev1.HTTPGetAction{Port: intstr.FromString("nope")}, wantErr: "nope"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			target := kubelet.ProbeTarget{
				Container:  &corev1.Container{Name: "main", Ports: []corev1.ContainerPort{{Name: "web", ContainerPort: int32(port)}}},
				Probe:      &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &tc.action}},
				PodIP:      host,
				HTTPClient: httpClient,
			}
			err := check(t, target, "Check(httpGet probe, "+tc.name+")")
			if tc.wantErr == "" {
				require.NoError(t, err, "Check(httpGet probe, %s)", tc.name)
				return
			}
			require.Error(t, err, "Check(httpGet probe, %s) must fail", tc.name)
			require.Contains(t, err.Error(), tc.wantErr, "Check(httpGet probe, %s): the message", tc.name)
		})
	}

	t.Run("tcpSocket is unsupported", func(t *testing.T) {
		target := kubelet.ProbeTarget{Container: &corev1.Container{Name: "main"},
			Probe: &corev1.Probe{ProbeHandler: corev1.ProbeHandler{TCPSocket: &corev1.TCPSocketAction{Port: intstr.FromInt32(int32(port))}}}}
		require.Error(t, check(t, target, "Check(tcpSocket probe)"), "Check(tcpSocket probe): unsupported")
	})
}
