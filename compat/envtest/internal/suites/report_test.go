package suites

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/onsi/ginkgo/v2/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestClassify(t *testing.T) {
	tests := []struct {
		name  string
		state types.SpecState
		msg   string
		want  Outcome
	}{
		{name: "passed", state: types.SpecStatePassed, want: Passed},
		{name: "failed", state: types.SpecStateFailed, msg: "boom", want: Failed},
		{name: "panicked", state: types.SpecStatePanicked, msg: "boom", want: Failed},
		{name: "timed out", state: types.SpecStateTimedout, want: Failed},
		{name: "Skip() called", state: types.SpecStateSkipped, msg: "needs a kind cluster", want: Skipped},
		{name: "pending", state: types.SpecStatePending, want: Skipped},
		{name: "after an ordered failure", state: types.SpecStateSkipped, msg: orderedSkip, want: Failed},
		{name: "the suite skipped it", state: types.SpecStateSkipped, want: Failed},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			spec := types.SpecReport{LeafNodeType: types.NodeTypeIt, State: tc.state, Failure: types.Failure{Message: tc.msg}}
			assert.Equal(t, tc.want, Classify(spec), "Classify(%v, %q)", tc.state, tc.msg)
		})
	}
}

func TestReadReport(t *testing.T) {
	it := func(text string, state types.SpecState, msg string) types.SpecReport {
		return types.SpecReport{
			ContainerHierarchyTexts: []string{"Client"}, LeafNodeText: text, LeafNodeType: types.NodeTypeIt,
			State: state, Failure: types.Failure{Message: msg},
		}
	}
	report := []types.Report{{
		SuiteDescription: "Client Suite",
		SpecReports: types.SpecReports{
			{LeafNodeType: types.NodeTypeBeforeSuite, State: types.SpecStatePassed},
			it("creates", types.SpecStatePassed, ""),
			it("patches", types.SpecStateFailed, "Unexpected error:\n\n    the server could not find the requested resource\n"),
			it("skips", types.SpecStateSkipped, "not on this cluster"),
			it("was not run", types.SpecStateSkipped, ""),
			{LeafNodeType: types.NodeTypeAfterSuite, State: types.SpecStateFailed, Failure: types.Failure{Message: "cleanup failed"}},
		},
	}}
	data, err := json.Marshal(report)
	require.NoError(t, err, "marshal report")
	path := filepath.Join(t.TempDir(), "report.json")
	require.NoError(t, os.WriteFile(path, data, 0o600), "write report")

	counts, failures, suiteFailures, err := ReadReport(path)
	require.NoError(t, err, "ReadReport")
	assert.Equal(t, Counts{Specs: 4, Passed: 1, Failed: 2, Skipped: 1}, counts, "counts")
	require.Len(t, failures, 2, "failures")
	assert.Equal(t, "Client patches", failures[0].Spec, "failed spec")
	assert.Equal(t, "Unexpected error: | the server could not find the requested resource", failures[0].Message, "failure message")
	assert.Equal(t, "not run (see the suite's failures)", failures[1].Message, "spec not run")
	require.Len(t, suiteFailures, 1, "suite failures")
	assert.Contains(t, suiteFailures[0], "cleanup failed", "AfterSuite failure")

	var out bytes.Buffer
	require.NoError(t, WriteTable(&out, []Result{{Package: Module + "/pkg/client", Counts: counts}}), "WriteTable")
	assert.Contains(t, out.String(), "pkg/client", "table row")
	assert.Contains(t, out.String(), "\ntotal: 1 passed, 2 failed, 1 skipped\n", "closing line")
}

func TestWithEnv(t *testing.T) {
	got := withEnv([]string{"HOME=/root", "KUBECONFIG=/old", "USE_EXISTING_CLUSTER=true", "GOFLAGS=-x"}, []string{"KUBECONFIG=/new"})
	assert.Equal(t, []string{"HOME=/root", "GOFLAGS=-x", "KUBECONFIG=/new"}, got, "withEnv")
}
