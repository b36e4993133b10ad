package apiserver

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOpenAPIDescriptionsUpToDate regenerates the description table from
// the API types' doc comments and fails when the checked-in one differs:
// run `go generate ./apiserver` after changing a doc comment.
func TestOpenAPIDescriptionsUpToDate(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the generator")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH")
	}
	out := filepath.Join(t.TempDir(), "openapi_descriptions.go")
	cmd := exec.CommandContext(t.Context(), goTool, "run", "openapi_descriptions_gen.go", "-o", out)
	msg, err := cmd.CombinedOutput()
	require.NoError(t, err, "go run openapi_descriptions_gen.go:\n%s", msg)
	want, err := os.ReadFile(out)
	require.NoError(t, err)
	got, err := os.ReadFile("openapi_descriptions.go")
	require.NoError(t, err)
	assert.True(t, string(want) == string(got), "openapi_descriptions.go is stale: run go generate ./apiserver")
}
