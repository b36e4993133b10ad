package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/storage/storagetest"
)

// runMainEnv makes the test binary run main instead of the tests, so
// TestExitCodes sees minicp's real exit codes without building it.
const runMainEnv = "MINICP_TEST_RUN_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(runMainEnv) == "1" {
		main()
		os.Exit(0)
	}
	goleak.VerifyTestMain(m, storagetest.LeakOptions()...)
}

// TestExitCodes runs minicp as a process: help of every kind and version
// exit 0, a mistake exits 1 with one line on stderr.
func TestExitCodes(t *testing.T) {
	tests := []struct {
		args       []string
		code       int
		stdout     string
		stderrLine string
	}{
		{args: []string{"--help"}, stdout: "Available Commands:"},
		{args: []string{"up", "--help"}, stdout: "--audit-log-path"},
		{args: []string{"up", "-h"}, stdout: "--etcd-servers"},
		{args: []string{"help", "up"}, stdout: "minicp up [flags]"},
		{args: []string{"version", "--help"}, stdout: "minicp version [flags]"},
		{args: []string{"completion", "--help"}, stdout: "bash"},
		{args: []string{"version"}, stdout: "Kubernetes:  v1."},
		{args: []string{"completion", "fish"}, stdout: "complete -c minicp"},
		{args: []string{"down"}, code: 1, stderrLine: `minicp: unknown command "down" for "minicp"`},
		{args: []string{"up", "--nodes", "many"}, code: 1, stderrLine: `minicp: invalid argument "many" for "--nodes" flag`},
		{args: []string{"version", "extra"}, code: 1, stderrLine: `minicp: unknown command "extra" for "minicp version"`},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			cmd := exec.CommandContext(t.Context(), os.Args[0], tc.args...)
			cmd.Env = append(os.Environ(), runMainEnv+"=1")
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			code := 0
			var exitErr *exec.ExitError
			if errors.As(err, &exitErr) {
				code = exitErr.ExitCode()
			} else {
				require.NoError(t, err)
			}
			assert.Equal(t, tc.code, code, "exit code of minicp %v; stderr: %s", tc.args, stderr.String())
			assert.Contains(t, stdout.String(), tc.stdout, "stdout of minicp %v", tc.args)
			if tc.stderrLine != "" {
				assert.True(t, strings.HasPrefix(stderr.String(), tc.stderrLine), "stderr of minicp %v: %q", tc.args, stderr.String())
				assert.Equal(t, 1, strings.Count(stderr.String(), "\n"), "one line on stderr: %q", stderr.String())
			} else {
				assert.Empty(t, stderr.String(), "nothing on stderr")
			}
		})
	}
}

func TestVersion(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, execute(t.Context(), []string{"version"}, &out, io.Discard))
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	require.Len(t, lines, 3, "minicp, Kubernetes, Go: %q", out.String())
	assert.Regexp(t, `^minicp: +\S`, lines[0])
	assert.Equal(t, "Kubernetes:  v1.32.0-minicp", lines[1], "the version /version reports")
	assert.Equal(t, "Go:          "+runtime.Version()+" "+runtime.GOOS+"/"+runtime.GOARCH, lines[2])
}

func TestCompletion(t *testing.T) {
	for _, shell := range []string{"bash", "zsh", "fish", "powershell"} {
		var out bytes.Buffer
		require.NoError(t, execute(t.Context(), []string{"completion", shell}, &out, io.Discard), shell)
		assert.Contains(t, out.String(), "minicp", "a %s completion script", shell)
	}
}

func TestLevel(t *testing.T) {
	tests := []struct {
		name      string
		verbosity int
		logLevel  string
		want      slog.Level
	}{
		{name: "default shows warnings", want: slog.LevelWarn},
		{name: "-v 2 shows lifecycle", verbosity: 2, want: slog.LevelInfo},
		{name: "-v 4 shows every hop", verbosity: 4, want: slog.LevelDebug},
		{name: "--log-level wins", verbosity: 4, logLevel: "error", want: slog.LevelError},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := &upOptions{verbosity: tc.verbosity, logLevel: tc.logLevel}
			got, err := o.level(tc.logLevel != "")
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
	_, err := (&upOptions{logLevel: "loud"}).level(true)
	assert.ErrorContains(t, err, "--log-level")
}

// TestUpRejectsATakenPort checks that a taken --listen address is
// reported at once, in one line, before etcd starts.
func TestUpRejectsATakenPort(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	dataDir := filepath.Join(t.TempDir(), "etcd")
	var stderr bytes.Buffer
	err = execute(t.Context(), []string{"up", "--listen", ln.Addr().String(), "--data-dir", dataDir,
		"--kubeconfig", filepath.Join(t.TempDir(), "kubeconfig")}, io.Discard, &stderr)
	require.Error(t, err)
	assert.Equal(t, "cannot listen on "+ln.Addr().String()+": address already in use (is another minicp or API server running? choose another address with --listen)", err.Error())
	assert.NoDirExists(t, dataDir, "etcd never started")
	assert.Empty(t, stderr.String(), "nothing logged")
}

// TestUpRejectsABadWebAddress checks that a taken --web-address, or one
// off loopback, is reported at once, before etcd starts.
func TestUpRejectsABadWebAddress(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer taken.Close()
	tests := []struct {
		addr, want string
	}{
		{taken.Addr().String(), "cannot listen on " + taken.Addr().String() + ": address already in use (choose another address with --web-address, or turn the web view off with --web-address=\"\")"},
		{"0.0.0.0:0", "--web-address 0.0.0.0:0: not a loopback address"},
		{"example.com:80", "--web-address example.com:80: not a loopback address"},
		{"8001", "--web-address 8001: address 8001: missing port in address"},
	}
	for _, tc := range tests {
		t.Run(tc.addr, func(t *testing.T) {
			dataDir := filepath.Join(t.TempDir(), "etcd")
			err := execute(t.Context(), []string{"up", "--listen", "127.0.0.1:0", "--web-address", tc.addr, "--data-dir", dataDir,
				"--kubeconfig", filepath.Join(t.TempDir(), "kubeconfig")}, io.Discard, io.Discard)
			require.Error(t, err)
			assert.True(t, strings.HasPrefix(err.Error(), tc.want), "error %q starts with %q", err, tc.want)
			assert.NoDirExists(t, dataDir, "etcd never started")
		})
	}
}

func TestUpRejectsABadSchedulerConfig(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sched.yaml")
	require.NoError(t, os.WriteFile(path, []byte("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nnonsense: 1\n"), 0o600))
	err := execute(t.Context(), []string{"up", "--listen", "127.0.0.1:0", "--scheduler-config", path}, io.Discard, io.Discard)
	assert.ErrorContains(t, err, "--scheduler-config")
}

func TestUpRejectsAnAdmissionPluginItCannotDisable(t *testing.T) {
	dataDir := filepath.Join(t.TempDir(), "etcd")
	err := execute(t.Context(), []string{"up", "--listen", "127.0.0.1:0", "--data-dir", dataDir,
		"--disable-admission-plugins", "ServiceAccount,NamespaceLifecycle"}, io.Discard, io.Discard)
	assert.EqualError(t, err, `--disable-admission-plugins: "NamespaceLifecycle" cannot be turned off; only ServiceAccount can`)
	assert.NoDirExists(t, dataDir, "etcd never started")
}

// TestUp runs `minicp up` as a user would, with an embedded etcd and an
// audit log, reads its banner, and stops it as Ctrl-C would: the
// default verbosity logs nothing, and the audit log holds one
// audit.k8s.io/v1 Event per line.
func TestUp(t *testing.T) {
	dir := t.TempDir()
	kubeconfig := filepath.Join(dir, "kubeconfig")
	auditLog := filepath.Join(dir, "audit", "audit.log")
	ctx, cancel := context.WithCancel(t.Context())
	pr, pw := io.Pipe()
	// A file, which the logger's goroutines may write at once.
	stderr, err := os.Create(filepath.Join(dir, "stderr"))
	require.NoError(t, err)
	defer stderr.Close()
	done := make(chan error, 1)
	go func() {
		done <- execute(ctx, []string{"up", "--listen", "127.0.0.1:0", "--kubeconfig", kubeconfig,
			"--audit-log-path", auditLog, "--web-address", "127.0.0.1:0"}, pw, stderr)
		pw.Close()
	}()
	sc := bufio.NewScanner(pr)
	var banner []string
	for sc.Scan() {
		banner = append(banner, sc.Text())
		if strings.HasPrefix(sc.Text(), "Press Ctrl-C") {
			break
		}
	}
	text := strings.Join(banner, "\n")
	assert.Regexp(t, `(?m)^  API server:  https://127\.0\.0\.1:\d+$`, text)
	assert.Contains(t, text, "\n  kubeconfig:  "+kubeconfig+"\n")
	assert.Contains(t, text, "\n  export KUBECONFIG="+kubeconfig+"\n")
	assert.Contains(t, text, "\n  nodes:       1 (minicp-node-1)\n")
	assert.Contains(t, text, "\n  etcd:        embedded, data in a temporary directory (removed on stop)\n")
	assert.Contains(t, text, "\n  audit log:   "+auditLog+"\n")
	assert.LessOrEqual(t, len(banner), 15, "a short banner: %s", text)
	web := regexp.MustCompile(`(?m)^  web view:    (http://127\.0\.0\.1:\d+/) \(add --trace to see requests hop by hop\)$`).FindStringSubmatch(text)
	require.Len(t, web, 2, "the web view's URL in the banner: %s", text)
	page, err := http.Get(web[1])
	require.NoError(t, err, "GET %s", web[1])
	body, err := io.ReadAll(page.Body)
	page.Body.Close()
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, page.StatusCode, "GET %s", web[1])
	assert.Contains(t, string(body), "<title>minicp", "the web view's page")
	data, err := os.ReadFile(kubeconfig)
	require.NoError(t, err)
	assert.Contains(t, string(data), "server: https://127.0.0.1:")

	// As kube-apiserver, up runs the ServiceAccount admission plugin, and
	// is Ready only once a pod can be created in default straight away.
	pod, err := clientsetOf(t, kubeconfig).Pods("default").Create(t.Context(), &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "box"},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "busybox"}}}}, client.WriteOptions{})
	require.NoError(t, err, "a pod created as soon as up is ready")
	assert.Equal(t, "default", pod.Spec.ServiceAccountName)
	require.Len(t, pod.Spec.Volumes, 1, "the token volume")
	assert.Regexp(t, "^kube-api-access-", pod.Spec.Volumes[0].Name)

	cancel()
	go io.Copy(io.Discard, pr) //nolint:errcheck // drain the "stopped" line
	require.NoError(t, <-done)
	logged, err := os.ReadFile(stderr.Name())
	require.NoError(t, err)
	// Warnings may show (an anomaly a component retried); the lifecycle
	// and the requests may not.
	assert.NotContains(t, string(logged), "level=INFO", "no lifecycle records at the default verbosity")
	assert.NotContains(t, string(logged), "level=DEBUG", "no audit or hop records at the default verbosity")

	f, err := os.Open(auditLog)
	require.NoError(t, err)
	defer f.Close()
	events := 0
	users := map[string]bool{}
	lines := bufio.NewScanner(f)
	for lines.Scan() {
		var ev struct {
			APIVersion, Kind, Stage, AuditID string
			User                             struct{ Username string }
		}
		require.NoError(t, json.Unmarshal(lines.Bytes(), &ev), "line %d of the audit log: %s", events+1, lines.Text())
		assert.Equal(t, "audit.k8s.io/v1", ev.APIVersion)
		assert.Equal(t, "Event", ev.Kind)
		assert.Equal(t, "ResponseComplete", ev.Stage)
		assert.NotEmpty(t, ev.AuditID)
		users[ev.User.Username] = true
		events++
	}
	assert.Positive(t, events, "the components' requests are audited")
	for _, user := range []string{"system:kube-controller-manager", "system:kube-scheduler", "system:node:minicp-node-1"} {
		assert.True(t, users[user], "the components act as themselves: %s in %v", user, users)
	}
}

// clientsetOf is a client of the cluster a kubeconfig file names, closed
// when t ends.
func clientsetOf(t *testing.T, kubeconfig string) *client.Clientset {
	t.Helper()
	cfg, err := client.LoadKubeconfig(kubeconfig)
	require.NoError(t, err)
	cl, err := client.New(cfg)
	require.NoError(t, err)
	t.Cleanup(cl.CloseIdleConnections)
	cs, err := client.NewClientset(cl)
	require.NoError(t, err)
	return cs
}
