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

// TestJobFlow runs the example and checks both Jobs walk the Job flow's
// steps in the order of their traces: the one that succeeds once, the
// one that fails three times (backoffLimit 2), with the backoff's 10 and
// 20 virtual seconds before its retries, and then for good.
func TestJobFlow(t *testing.T) {
	if testing.Short() {
		t.Skip("scenario test")
	}
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	var out bytes.Buffer
	require.NoError(t, run(ctx, &out))
	text := out.String()
	t.Logf("job-flow printed:\n%s", text)
	succeeds, fails, ok := strings.Cut(text, `Job "fails"`)
	require.True(t, ok, text)

	assert.Equal(t, []string{"1", "2", "3", "4", "5", "6", "7"}, stepNumbers(succeeds), text)
	assert.Contains(t, succeeds, "authn as minicp-admin → authz → admission.mutating → validation → admission.validating",
		"the create's hops inside the API server, in the order of its trace")
	assert.Contains(t, succeeds, "exit code 0")
	assert.Contains(t, succeeds, "marks the Job Complete (succeeded=1 failed=0)")
	// WaitIdle is an exact barrier, so the clock steps only once the
	// container sleeps: it exits 5 virtual seconds after it started.
	assert.Regexp(t, `\+0s  step 5 .*\n\s+\+5s  step 6`, succeeds, "the container sleeps 5 virtual seconds")
	assert.Regexp(t, `\+5s  step 7  job controller marks the Job Complete`, succeeds)

	assert.Equal(t, []string{"1", "2", "3", "4", "5", "6", "3", "4", "5", "6", "3", "4", "5", "6", "7"}, stepNumbers(fails), text)
	assert.Equal(t, 3, strings.Count(fails, "exit code 3"), text)
	assert.Contains(t, fails, "counts the failure (failed=1, ")
	assert.Contains(t, fails, "and waits 10s before a new pod")
	assert.Contains(t, fails, "and waits 20s before a new pod")
	assert.Regexp(t, `\+10s  step 3  job controller starts a new pod \S+ after 1 failed \(backoff, its reconcile requeued 10s after the one at \+0s\)`,
		fails, "the first retry waits the 10s backoff")
	assert.Regexp(t, `\+30s  step 3  job controller starts a new pod \S+ after 2 failed \(backoff, its reconcile requeued 20s after the one at \+10s\)`,
		fails, "the second waits twice as long")
	assert.Contains(t, fails, "marks the Job Failed (succeeded=0 failed=3): BackoffLimitExceeded")

	// Each step is caused by the one before it, so the revisions the
	// steps wrote grow down the page.
	for _, job := range []string{succeeds, fails} {
		var revs []int
		for _, m := range regexp.MustCompile(`revision (\d+)`).FindAllStringSubmatch(job, -1) {
			rev, err := strconv.Atoi(m[1])
			require.NoError(t, err)
			revs = append(revs, rev)
		}
		assert.IsIncreasing(t, revs, "revisions in the order printed:\n%s", job)
	}
}

// stepNumbers lists the step numbers printed in text, in order.
func stepNumbers(text string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`step (\d)`).FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	return out
}
