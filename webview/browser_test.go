package webview_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster/clustertest"
)

// chromiumPath is Debian's Chromium, which .ci/run installs.
const chromiumPath = "/usr/bin/chromium"

// TestBrowser opens the page in headless Chromium, as a learner would:
// the pod appears on its node, clicking it draws its create hop by hop in
// the lanes' order and shows its scheduling decision, and the watch
// cache panel shows the pods' window. It keeps a screenshot as an
// artifact (go test -artifacts keeps it).
func TestBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("scenario test")
	}
	browser := chromiumPath
	if _, err := os.Stat(browser); err != nil {
		p, err := exec.LookPath("chromium")
		if err != nil {
			t.Skip("no Chromium (apt-get install chromium): the web view's browser test needs it")
		}
		browser = p
	}
	v := startView(t, 2, true)
	p := v.createPod(t, "web")

	allocCtx, cancelAlloc := chromedp.NewExecAllocator(t.Context(),
		chromedp.ExecPath(browser),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1500, 1300),
	)
	defer cancelAlloc()
	bctx, cancelBrowser := chromedp.NewContext(allocCtx, chromedp.WithLogf(t.Logf))
	defer cancelBrowser()
	// The first action starts the browser, which lives as long as the
	// context of that call: bctx, not one with a deadline. The page's
	// actions then share one deadline.
	require.NoError(t, chromedp.Do(bctx), "start Chromium")
	ctx, cancel := context.WithTimeout(bctx, clustertest.WaitTimeout)
	defer cancel()

	podRow := `tr.pod[data-pod="default/web"]`
	require.NoError(t, chromedp.Do(ctx,
		chromedp.Navigate(v.url+"/"),
		chromedp.WaitVisible(`section.node[data-node="`+p.Spec.NodeName+`"] `+podRow+`[data-phase="Running"][data-ip="`+p.Status.PodIP+`"]`),
	), "the pod on its node, running with its IP")

	// A change the nodes panel does not show refreshes the page but keeps
	// the pod's row the element it was: a row built again between a
	// click's press and release loses the click.
	_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector('`+podRow+`').kept = true`))
	require.NoError(t, err)
	_, err = v.c.Clientset().ConfigMaps("default").Create(t.Context(), &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: "a-change"},
	}, client.WriteOptions{})
	require.NoError(t, err, "create configmap")
	require.NoError(t, chromedp.Do(ctx, chromedp.Poll[chromedp.Void](
		`document.querySelector('#objects tr[data-kind="ConfigMap"] td.names')?.textContent.includes("default/a-change")`,
		chromedp.WithPollingTimeout(clustertest.WaitTimeout))), "the objects panel shows the new ConfigMap")
	kept, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector('`+podRow+`').kept === true`))
	require.NoError(t, err)
	assert.True(t, kept, "the pod's row was not built again for a change it does not show")

	require.NoError(t, chromedp.Do(ctx,
		chromedp.Click(podRow),
		chromedp.WaitVisible(`#diagram g.step[data-hop="runtime.container.start"]`),
	), "the create's sequence up to the container start")
	lanes, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](
		`Array.from(document.querySelectorAll("#diagram text.lane-title")).map(e => e.dataset.lane)`))
	require.NoError(t, err)
	assert.Equal(t, wantLanes, lanes, "the diagram's lanes, left to right")
	hops, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](
		`Array.from(document.querySelectorAll("#diagram g.step")).map(g => g.dataset.lane + " " + g.dataset.hop)`))
	require.NoError(t, err)
	want := []string{
		"client request", "authn authn", "authz authz", "admission admission.mutating", "validation validation",
		"etcd etcd.txn", "watchcache watchcache.dispatch", "informers informer.delta", "scheduler scheduler.cycle",
		"scheduler scheduler.filter", "scheduler scheduler.score", "scheduler scheduler.bind",
		"kubelet kubelet.sync", "kubelet runtime.sandbox", "kubelet runtime.container.start",
	}
	assert.True(t, isSubsequence(want, hops), "the hops in causal order: want %q in\n%q", want, hops)

	chosenRow := `#scheduling tr.sched-node[data-chosen="true"]`
	require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(chosenRow)), "the scheduling decision")
	chosen, err := chromedp.Run(ctx, chromedp.AttributeValue(chosenRow, "data-node"))
	require.NoError(t, err)
	assert.Equal(t, p.Spec.NodeName, chosen.Value, "the chosen node is the pod's")
	plugins, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](
		`Array.from(document.querySelectorAll("#scheduling th[data-plugin]")).map(e => e.dataset.plugin)`))
	require.NoError(t, err)
	assert.NotEmpty(t, plugins, "a column per score plugin")

	podsWindow := `#watchcache tr.wc[data-resource="pods"]`
	require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(podsWindow)), "the pods' watch cache window")
	capacity, err := chromedp.Run(ctx, chromedp.AttributeValue(podsWindow, "data-capacity"))
	require.NoError(t, err)
	assert.Positive(t, atoi(t, capacity.Value), "capacity")
	watchers, err := chromedp.Run(ctx, chromedp.AttributeValue(podsWindow, "data-watchers"))
	require.NoError(t, err)
	assert.GreaterOrEqual(t, atoi(t, watchers.Value), 2, "watchers of pods")

	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	require.NoError(t, err, "screenshot")
	path := filepath.Join(t.ArtifactDir(), "webview.png")
	require.NoError(t, os.WriteFile(path, png, 0o644))
	t.Logf("screenshot: %s", path)
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	require.NoError(t, err, "%q", s)
	return n
}
