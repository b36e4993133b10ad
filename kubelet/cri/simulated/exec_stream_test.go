package simulated_test

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/kubelet/cri"
	"github.com/minicp/minicp/kubelet/cri/simulated"
)

// TestExecStreams: Exec reads stdin to its end, writes each stream to
// its writer and returns the exit code; a terminal merges the streams
// and ends lines in CR LF.
func TestExecStreams(t *testing.T) {
	h := newHarness(t, simulated.Options{})
	id := h.start(cri.ContainerConfig{Image: "busybox", Command: []string{"sleep", "infinity"}})

	var out, errOut strings.Builder
	code, err := h.rt.Exec(h.ctx, id, shCmd("cat; echo warn >&2; exit 5"),
		cri.ExecStreams{Stdin: strings.NewReader("in\n"), Stdout: &out, Stderr: &errOut})
	require.NoError(t, err)
	assert.Equal(t, int32(5), code)
	assert.Equal(t, "in\n", out.String())
	assert.Equal(t, "warn\n", errOut.String())

	out.Reset()
	code, err = h.rt.Exec(h.ctx, id, shCmd("echo a; echo b >&2"), cri.ExecStreams{Stdout: &out, TTY: true})
	require.NoError(t, err)
	assert.Equal(t, int32(0), code)
	assert.Equal(t, "a\r\nb\r\n", out.String())

	out.Reset()
	code, err = h.rt.Exec(h.ctx, id, []string{"sh"}, cri.ExecStreams{
		Stdin: strings.NewReader("cd /tmp\recho $PWDZ\x7f\rexit 2\r"), Stdout: &out, TTY: true})
	require.NoError(t, err)
	assert.Equal(t, int32(2), code)
	assert.Equal(t, "/ # cd /tmp\r\n/tmp # echo $PWDZ\b \b\r\n/tmp\r\n/tmp # exit 2\r\n", out.String())

	_, err = h.rt.Exec(h.ctx, "nope", []string{"true"}, cri.ExecStreams{})
	assert.ErrorIs(t, err, cri.ErrNotFound)
}

// TestPortForward: PortForward reaches the real server of a container of
// the sandbox, and refuses a port nobody serves.
func TestPortForward(t *testing.T) {
	h := newHarness(t, simulated.Options{})
	sb := h.sandbox("web")
	h.startIn(sb, cri.ContainerConfig{Image: "nginx", Ports: []cri.PortMapping{{ContainerPort: 80}}})

	conn, err := h.rt.PortForward(h.ctx, sb, 80)
	require.NoError(t, err)
	defer conn.Close()
	_, err = fmt.Fprint(conn, "GET / HTTP/1.0\r\nHost: web\r\n\r\n")
	require.NoError(t, err)
	body, err := io.ReadAll(conn)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(body), "HTTP/1.0 200 OK"), "%s", body)
	assert.Contains(t, string(body), simulated.NginxWelcomePage)

	_, err = h.rt.PortForward(h.ctx, sb, 81)
	assert.ErrorContains(t, err, "connection refused")
	_, err = h.rt.PortForward(h.ctx, "nope", 80)
	assert.ErrorIs(t, err, cri.ErrNotFound)
}
