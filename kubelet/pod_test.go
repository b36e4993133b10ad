package kubelet_test

import (
	"io"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock/clocktest"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/kubelet"
	"github.com/minicp/minicp/kubelet/cri"
	"github.com/minicp/minicp/kubelet/cri/simulated"
)

// TestPodRunsWithIPFromPodCIDR: a pod bound to the node gets a sandbox
// with an IP from the node's podCIDR, its container runs, and its status
// says so; an nginx pod answers HTTP on its IP.
func TestPodRunsWithIPFromPodCIDR(t *testing.T) {
	h := newHarness(t)
	h.run(&corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web"},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{
			Name: "nginx", Image: "nginx:1.27", Ports: []corev1.ContainerPort{{ContainerPort: 80}},
		}}},
	})
	p := h.waitPod("web", "Running and Ready", func(p *corev1.Pod) bool {
		return p.Status.Phase == corev1.PodRunning && condition(p, corev1.PodReady) == corev1.ConditionTrue
	})

	ip, err := netip.ParseAddr(p.Status.PodIP)
	require.NoError(t, err, "podIP %q", p.Status.PodIP)
	assert.True(t, podCIDR.Contains(ip), "podIP %s in %s", ip, podCIDR)
	assert.Equal(t, []corev1.PodIP{{IP: p.Status.PodIP}}, p.Status.PodIPs)
	assert.Equal(t, "127.0.0.1", p.Status.HostIP)
	require.NotNil(t, p.Status.StartTime)
	assert.Equal(t, epoch, p.Status.StartTime.Time.UTC())
	for _, c := range []corev1.PodConditionType{corev1.PodReadyToStartContainers, corev1.PodInitialized,
		corev1.ContainersReady, corev1.PodReady, corev1.PodScheduled} {
		assert.Equal(t, corev1.ConditionTrue, condition(p, c), "condition %s", c)
	}
	assert.Equal(t, corev1.PodQOSBestEffort, p.Status.QOSClass, "the API server's qosClass is kept")
	cs := containerStatus(p, "nginx")
	require.NotNil(t, cs)
	require.NotNil(t, cs.State.Running, "state %+v", cs.State)
	assert.Equal(t, epoch, cs.State.Running.StartedAt.Time.UTC())
	assert.True(t, cs.Ready)
	assert.Equal(t, int32(0), cs.RestartCount)
	assert.Equal(t, "nginx:1.27", cs.Image)
	assert.True(t, strings.HasPrefix(cs.ImageID, "sha256:"), "imageID %q", cs.ImageID)
	assert.True(t, strings.HasPrefix(cs.ContainerID, "minicp-simulated://"), "containerID %q", cs.ContainerID)

	// The pod IP exists inside the node's runtime.
	rt := h.kl.Runtime().(*simulated.Runtime)
	hc := &http.Client{Transport: &http.Transport{DialContext: rt.DialContext, DisableKeepAlives: true}}
	resp, err := hc.Get("http://" + p.Status.PodIP + ":80/")
	require.NoError(t, err, "GET the pod")
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Contains(t, string(body), "Welcome to nginx!")

	events := h.waitEvents("web", "Pulling", "Pulled", "Created", "Started")
	messages := map[string]string{}
	for _, e := range events {
		messages[e.Reason] = e.Message
		assert.Equal(t, "node-1", e.Source.Host)
		assert.Equal(t, "Pod", e.InvolvedObject.Kind)
	}
	assert.Equal(t, `Pulling image "nginx:1.27"`, messages["Pulling"])
	assert.Contains(t, messages["Pulled"], `Successfully pulled image "nginx:1.27" in 0s (0s including waiting). Image size: `)
	assert.Equal(t, "Created container: nginx", messages["Created"])
	assert.Equal(t, "Started container nginx", messages["Started"])
}

// TestExitCodeAndLogs: a container that exits 3 with restartPolicy Never
// fails the pod with its exit code; its log is served by the kubelet and
// by the API server's pods/log; the pod's IP is released.
func TestExitCodeAndLogs(t *testing.T) {
	h := newHarness(t)
	h.run(busybox("job", corev1.RestartPolicyNever, "echo hi; sleep 2; exit 3"))
	h.waitPod("job", "Running", phaseIs(corev1.PodRunning))

	h.clock.Step(2 * time.Second)
	p := h.waitPod("job", "Failed", phaseIs(corev1.PodFailed))
	cs := containerStatus(p, "main")
	require.NotNil(t, cs.State.Terminated, "state %+v", cs.State)
	term := cs.State.Terminated
	assert.Equal(t, int32(3), term.ExitCode)
	assert.Equal(t, "Error", term.Reason)
	assert.Equal(t, epoch, term.StartedAt.Time.UTC())
	assert.Equal(t, epoch.Add(2*time.Second), term.FinishedAt.Time.UTC())
	assert.Equal(t, cs.ContainerID, term.ContainerID)
	assert.False(t, cs.Ready)
	assert.Equal(t, corev1.ConditionFalse, condition(p, corev1.PodReady))
	assert.NotEmpty(t, p.Status.PodIP, "a finished pod keeps its last IP in its status")

	code, body := h.kubeletLogs("job", "main", nil)
	assert.Equal(t, http.StatusOK, code)
	assert.Equal(t, "hi\n", body, "the kubelet's log server")
	assert.Equal(t, "hi\n", h.apiLogs("job", nil), "pods/log")
	assert.Equal(t, "2024-05-06T07:00:00.000000000Z hi\n", h.apiLogs("job", url.Values{"timestamps": {"true"}}))

	h.waitIdle()
	sandboxes, err := h.kl.Runtime().ListPodSandbox(t.Context(), cri.PodSandboxFilter{})
	require.NoError(t, err)
	require.Len(t, sandboxes, 1)
	assert.Equal(t, cri.SandboxNotReady, sandboxes[0].State, "a finished pod's sandbox is stopped")
}

// TestOnFailureExitZeroSucceeds: with restartPolicy OnFailure, a
// container that exits 0 is not restarted and the pod succeeds.
func TestOnFailureExitZeroSucceeds(t *testing.T) {
	h := newHarness(t)
	h.run(busybox("once", corev1.RestartPolicyOnFailure, "echo done"))
	p := h.waitPod("once", "Succeeded", phaseIs(corev1.PodSucceeded))
	cs := containerStatus(p, "main")
	require.NotNil(t, cs.State.Terminated, "state %+v", cs.State)
	assert.Equal(t, int32(0), cs.State.Terminated.ExitCode)
	assert.Equal(t, "Completed", cs.State.Terminated.Reason)
	assert.Equal(t, int32(0), cs.RestartCount)
	ready := p.Status.Conditions[2]
	assert.Equal(t, corev1.PodReady, ready.Type)
	assert.Equal(t, "PodCompleted", ready.Reason)
}

// TestOnFailureRestartsFailures: with restartPolicy OnFailure a container
// that fails is restarted, and the pod succeeds once it exits 0.
func TestOnFailureRestartsFailures(t *testing.T) {
	h := newHarness(t)
	// The file system is the container's own, so each run starts afresh:
	// count runs in the log instead.
	h.run(busybox("retry", corev1.RestartPolicyOnFailure, `sleep 1; exit 1`))
	h.waitPod("retry", "Running", running("main", 0))
	h.clock.Step(time.Second)
	h.waitPod("retry", "restarted", running("main", 1))
	p, err := h.cs.Pods("default").Get(t.Context(), "retry", client.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, corev1.PodRunning, p.Status.Phase)
	last := containerStatus(p, "main").LastTerminationState.Terminated
	require.NotNil(t, last)
	assert.Equal(t, int32(1), last.ExitCode)
}

// TestCrashLoopBackOff: with restartPolicy Always a crashing container is
// restarted at once, then after 10s, 20s, 40s: CrashLoopBackOff in
// between, with a BackOff event.
func TestCrashLoopBackOff(t *testing.T) {
	h := newHarness(t)
	h.run(busybox("crash", corev1.RestartPolicyAlways, "echo hi; exit 1"))
	// The first run and the immediate restart both exit at epoch.
	p := h.waitPod("crash", "CrashLoopBackOff after 1 restart", waitingFor("main", "CrashLoopBackOff", 1))
	assert.Equal(t, corev1.PodRunning, p.Status.Phase, "a crash-looping pod is Running")
	cs := containerStatus(p, "main")
	assert.Contains(t, cs.State.Waiting.Message, "back-off 10s restarting failed container=main pod=crash_default(")
	require.NotNil(t, cs.LastTerminationState.Terminated)
	assert.Equal(t, int32(1), cs.LastTerminationState.Terminated.ExitCode)
	assert.Equal(t, epoch, cs.LastTerminationState.Terminated.FinishedAt.Time.UTC())

	at := epoch
	for _, step := range []struct {
		restarts int32
		delay    time.Duration
	}{{2, 10 * time.Second}, {3, 20 * time.Second}, {4, 40 * time.Second}} {
		// A second short of the delay, nothing happens...
		h.step(step.delay - time.Second)
		p = h.waitPod("crash", "still backing off", waitingFor("main", "CrashLoopBackOff", step.restarts-1))
		// ...and at the delay the container runs again (and crashes).
		h.clock.Step(time.Second)
		at = at.Add(step.delay)
		p = h.waitPod("crash", "restarted and backing off", waitingFor("main", "CrashLoopBackOff", step.restarts))
		last := containerStatus(p, "main").LastTerminationState.Terminated
		assert.Equal(t, at, last.StartedAt.Time.UTC(), "restart %d starts %v after the last crash", step.restarts, step.delay)
		assert.Contains(t, containerStatus(p, "main").State.Waiting.Message, "back-off "+(2*step.delay).String())
	}
	events := h.waitEvents("crash", "BackOff")
	for _, e := range events {
		if e.Reason == "BackOff" {
			assert.Contains(t, e.Message, "Back-off restarting failed container main in pod crash_default(")
			assert.Equal(t, corev1.EventTypeWarning, e.Type)
		}
	}
}

// TestInitContainersRunFirst: init containers run one after the other,
// each after the last exited 0, and the containers only after them.
func TestInitContainersRunFirst(t *testing.T) {
	h := newHarness(t)
	pod := busybox("init", corev1.RestartPolicyAlways, "sleep 3600")
	pod.Spec.InitContainers = []corev1.Container{
		{Name: "first", Image: "busybox", Command: []string{"sh", "-c", "echo one; sleep 1"}},
		{Name: "second", Image: "busybox", Command: []string{"sh", "-c", "echo two; sleep 1"}},
	}
	h.run(pod)
	p := h.waitPod("init", "first init running", running("first", 0))
	assert.Equal(t, corev1.PodPending, p.Status.Phase)
	assert.Equal(t, "PodInitializing", containerStatus(p, "second").State.Waiting.Reason)
	assert.Equal(t, "PodInitializing", containerStatus(p, "main").State.Waiting.Reason)
	assert.Equal(t, corev1.ConditionFalse, condition(p, corev1.PodInitialized))

	h.clock.Step(time.Second)
	h.waitPod("init", "second init running", running("second", 0))
	h.clock.Step(time.Second)
	p = h.waitPod("init", "main running", running("main", 0))
	assert.Equal(t, corev1.PodRunning, p.Status.Phase)
	assert.Equal(t, corev1.ConditionTrue, condition(p, corev1.PodInitialized))
	for _, name := range []string{"first", "second"} {
		term := containerStatus(p, name).State.Terminated
		require.NotNil(t, term, "init container %s", name)
		assert.Equal(t, "Completed", term.Reason)
	}
	assert.Equal(t, "one\n", h.apiLogs("init", url.Values{"container": {"first"}}))
}

// TestInitContainerFailureFailsNeverPod: an init container that fails
// fails a pod with restartPolicy Never; the containers never run.
func TestInitContainerFailureFailsNeverPod(t *testing.T) {
	h := newHarness(t)
	pod := busybox("badinit", corev1.RestartPolicyNever, "echo never")
	pod.Spec.InitContainers = []corev1.Container{{Name: "setup", Image: "busybox", Command: []string{"sh", "-c", "exit 7"}}}
	h.run(pod)
	p := h.waitPod("badinit", "Failed", phaseIs(corev1.PodFailed))
	assert.Equal(t, int32(7), containerStatus(p, "setup").State.Terminated.ExitCode)
	assert.Equal(t, "PodInitializing", containerStatus(p, "main").State.Waiting.Reason)
}

// TestImagePullErrors: an image that cannot be pulled leaves the
// container waiting with ErrImagePull, then ImagePullBackOff.
func TestImagePullErrors(t *testing.T) {
	h := newHarness(t)
	h.run(&corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "typo"},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "nginx:doesnotexist"}}},
	})
	p := h.waitPod("typo", "ImagePullBackOff", waitingFor("app", "ImagePullBackOff", 0))
	assert.Equal(t, corev1.PodPending, p.Status.Phase)
	assert.Contains(t, containerStatus(p, "app").State.Waiting.Message, `Back-off pulling image "nginx:doesnotexist": ErrImagePull: `)
	events := h.waitEvents("typo", "Pulling", "Failed", "BackOff")
	var failed []string
	for _, e := range events {
		if e.Reason == "Failed" {
			failed = append(failed, e.Message)
		}
	}
	assert.Contains(t, failed, "Error: ErrImagePull")

	// The pull is tried again when the backoff ends, and fails again.
	h.step(10 * time.Second)
	p = h.waitPod("typo", "ImagePullBackOff", waitingFor("app", "ImagePullBackOff", 0))
	assert.Equal(t, corev1.PodPending, p.Status.Phase)

	code, body := h.kubeletLogs("typo", "app", nil)
	assert.Equal(t, http.StatusBadRequest, code)
	assert.Contains(t, body, `container "app" in pod "typo" is waiting to start: trying and failing to pull image`)
}

// TestActiveDeadline: a pod running past activeDeadlineSeconds is killed
// and fails with reason DeadlineExceeded.
func TestActiveDeadline(t *testing.T) {
	h := newHarness(t)
	// nginx exits at SIGTERM at once.
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "deadline"},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: "nginx"}}},
	}
	pod.Spec.ActiveDeadlineSeconds = ptr(int64(30))
	h.run(pod)
	h.waitPod("deadline", "Running", phaseIs(corev1.PodRunning))
	h.clock.Step(30 * time.Second)
	p := h.waitPod("deadline", "Failed", phaseIs(corev1.PodFailed))
	assert.Equal(t, "DeadlineExceeded", p.Status.Reason)
	assert.NotNil(t, containerStatus(p, "main").State.Terminated)
	h.waitEvents("deadline", "DeadlineExceeded", "Killing")
}

// TestWaitIdleWithRunningPods: running pods leave the kubelet idle: no
// pod worker runs for them.
func TestWaitIdleWithRunningPods(t *testing.T) {
	h := newHarness(t)
	for _, name := range []string{"a", "b", "c"} {
		h.run(busybox(name, corev1.RestartPolicyAlways, "sleep 3600"))
		h.waitPod(name, "Running", phaseIs(corev1.PodRunning))
	}
	ctx, cancel := clustertest.WaitContext(t)
	defer cancel()
	require.NoError(t, h.kl.WaitIdle(ctx))
	assert.True(t, h.kl.Idle())
}

// plainRuntime hides the simulated runtime's optional capabilities
// (Changed, DialContext), as a runtime that has only the CRI would.
type plainRuntime struct {
	cri.RuntimeService
	cri.ImageManagerService
}

// TestRuntimeWithoutChangeNotifier: with a runtime of its own that cannot
// say when a container changed, the kubelet relists it every second of the
// clock, and still sees a container exit.
func TestRuntimeWithoutChangeNotifier(t *testing.T) {
	clk := clocktest.NewFake(epoch)
	rt, err := simulated.New(simulated.Options{Clock: clk})
	require.NoError(t, err)
	clustertest.Start(t, rt)
	h := newHarness(t, func(o *kubelet.Options) {
		o.Clock = clk
		o.Runtime = plainRuntime{rt, rt}
	})
	h.clock = clk
	h.run(busybox("short", corev1.RestartPolicyOnFailure, "sleep 2"))
	h.waitPod("short", "Running", phaseIs(corev1.PodRunning))
	h.clock.Step(2 * time.Second)
	p := h.waitPod("short", "Succeeded", phaseIs(corev1.PodSucceeded))
	assert.Equal(t, "10.88.0.2", p.Status.PodIP, "the runtime's own network")
}
