package main

import (
	"bytes"
	"context"
	"regexp"
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
// steps in order: the one that succeeds once, the one that fails twice
// (backoffLimit 1) and then for good.
func TestJobFlow(t *testing.T) {
	if testing.Short() {
		t.Skip("scenario test")
	}
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	var out bytes.Buffer
	require.NoError(t, run(ctx, &out))
	text := out.String()
	succeeds, fails, ok := strings.Cut(text, `Job "fails"`)
	require.True(t, ok, text)

	assert.Equal(t, []string{"1", "2", "3", "4", "5", "6", "7"}, stepNumbers(succeeds), text)
	assert.Contains(t, succeeds, "exit code 0")
	assert.Contains(t, succeeds, "marks the Job Complete (succeeded=1 failed=0)")
	assert.Regexp(t, `\+[56]s  step 6`, succeeds, "the container sleeps 5 virtual seconds")

	assert.Equal(t, []string{"1", "2", "3", "4", "5", "6", "3", "4", "5", "6", "7"}, stepNumbers(fails), text)
	assert.Equal(t, 2, strings.Count(fails, "exit code 3"), text)
	assert.Contains(t, fails, "starts a new pod")
	assert.Contains(t, fails, "marks the Job Failed (succeeded=0 failed=2): BackoffLimitExceeded")
	assert.Regexp(t, `\+1[0-9]s  step 3  job controller starts a new pod`, fails, "the retry waits the 10s backoff")
}

// stepNumbers lists the step numbers printed in text, in order.
func stepNumbers(text string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`step (\d)`).FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	return out
}
