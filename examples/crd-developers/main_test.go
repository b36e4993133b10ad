package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/minicp/minicp/cluster"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/storage/storagetest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m, storagetest.LeakOptions()...) }

// TestCRDDevelopers runs the example: the CRD is established and
// discovered, Megyo is refused for its name and megyo created, the three
// gets print the server's Table, and the schema refuses a level that is
// not an integer, so megyo is the only developer left.
func TestCRDDevelopers(t *testing.T) {
	if testing.Short() {
		t.Skip("scenario test")
	}
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	var out bytes.Buffer
	var stored developerList
	require.NoError(t, run(ctx, &out, func(ctx context.Context, c *cluster.Cluster) error {
		return rest{http: c.HTTPClient(), base: c.URL()}.getJSON(ctx, "/apis/example.com/v1/namespaces/default/developers", &stored)
	}))
	text := out.String()
	steps := sections(text)

	assert.Contains(t, steps["1"], "condition Established=True", text)
	assert.Contains(t, steps["1"], "developers, singular developer, short names [devs], kind Developer, namespaced true", text)

	assert.Contains(t, steps["2"], "POST /apis/example.com/v1/namespaces/default/developers → 422", text)
	assert.Contains(t, steps["2"], `Error from server (Invalid): Developer.example.com "Megyo" is invalid: metadata.name: Invalid value: "Megyo"`, text)

	assert.Contains(t, steps["3"], "→ 201", text)
	assert.Contains(t, steps["3"], "developer.example.com/megyo created", text)

	row := `NAME\s+FULL NAME\s+LANGUAGE\s+LEVEL\s+AGE\n\s+megyo\s+Megyo\s+go\s+7\s+0s(\n|$)`
	for _, step := range []string{"4", "5", "6"} {
		assert.Regexp(t, row, steps[step], "step %s prints the printer columns:\n%s", step, text)
	}
	assert.Contains(t, steps["4"], `"developers" is the plural of developers.example.com`, text)
	assert.Contains(t, steps["5"], `"developer" is the singular of developers.example.com`, text)
	assert.Contains(t, steps["5b"], `→ 404`, text)
	assert.Contains(t, steps["5b"], `Error from server (NotFound): developers.example.com "Megyo" not found`, text)
	assert.Contains(t, steps["6"], `"devs" is the short name of developers.example.com`, text)

	assert.Contains(t, steps["7"], "→ 422", "the schema refuses level: senior:\n%s", text)
	assert.Contains(t, steps["7"], "spec.level", text)

	// The end state: megyo alone, as its manifest says.
	require.Len(t, stored.Items, 1, "developers at the end: %+v", stored.Items)
	assert.Equal(t, "megyo", stored.Items[0].Metadata.Name)
	assert.Equal(t, map[string]any{"name": "Megyo", "language": "go", "level": 7.0}, stored.Items[0].Spec)
}

// TestCRDDevelopersWithKubectl runs the demo's commands with the real
// kubectl against the cluster the example leaves running.
func TestCRDDevelopersWithKubectl(t *testing.T) {
	if testing.Short() {
		t.Skip("scenario test")
	}
	dir := t.TempDir()
	kubeconfig := filepath.Join(dir, "kubeconfig")
	k := clustertest.NewKubectl(t, kubeconfig)
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	outputs := map[string]kubectlResult{}
	commands := [][]string{
		{"get", "developers"},
		{"get", "developer", "megyo"},
		{"get", "devs"},
		{"get", "developer", "Megyo"},
		{"get", "devs", "megyo", "-o", "jsonpath={.spec.name}"},
		{"create", "-f", filepath.Join(dir, "bad-developer.yaml")},
	}
	require.NoError(t, run(ctx, io.Discard, func(ctx context.Context, c *cluster.Cluster) error {
		if err := c.WriteKubeconfig(kubeconfig); err != nil {
			return err
		}
		bad, err := manifests.ReadFile("manifests/bad-developer.yaml")
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, "bad-developer.yaml"), bad, 0o600); err != nil {
			return err
		}
		// Collect and assert afterwards: a failed require here would
		// leave the cluster running.
		for _, args := range commands {
			out, err := k.Command(ctx, args...).CombinedOutput()
			outputs[strings.Join(args, " ")] = kubectlResult{out: string(out), err: err}
		}
		return nil
	}))

	table := `NAME\s+FULL NAME\s+LANGUAGE\s+LEVEL\s+AGE\nmegyo\s+Megyo\s+go\s+7\s+0s\n`
	for _, cmd := range []string{"get developers", "get developer megyo", "get devs"} {
		res := outputs[cmd]
		require.NoError(t, res.err, "kubectl %s:\n%s", cmd, res.out)
		assert.Regexp(t, table, res.out, "kubectl %s", cmd)
	}
	res := outputs["get developer Megyo"]
	assert.Error(t, res.err, "kubectl get developer Megyo")
	assert.Contains(t, res.out, `developers.example.com "Megyo" not found`)
	res = outputs["get devs megyo -o jsonpath={.spec.name}"]
	require.NoError(t, res.err, res.out)
	assert.Equal(t, "Megyo", res.out)
	res = outputs["create -f "+filepath.Join(dir, "bad-developer.yaml")]
	assert.Error(t, res.err, "kubectl create -f bad-developer.yaml")
	assert.Contains(t, res.out, "is invalid", "the schema refuses level: senior")
	assert.Contains(t, res.out, "spec.level")
}

// kubectlResult is one kubectl command's combined output and error.
type kubectlResult struct {
	out string
	err error
}

// developerList is the JSON of a list of developers, as far as the test
// reads it.
type developerList struct {
	Items []struct {
		Metadata struct{ Name string }
		Spec     map[string]any
	}
}

// sections splits the example's output by step: "1" is the text under
// "1. kubectl ...", "5b" under "5b. ...".
func sections(text string) map[string]string {
	out := map[string]string{}
	for _, block := range strings.Split(text, "\n\n") {
		number, _, ok := strings.Cut(block, ". ")
		if ok {
			out[number] = block
		}
	}
	return out
}
