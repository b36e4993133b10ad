package shell_test

import (
	"archive/tar"
	"bytes"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/kubelet/cri/simulated/internal/shell"
)

// archive returns a tar of files (name to content), in order.
func archive(t *testing.T, files ...string) string {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for i := 0; i+1 < len(files); i += 2 {
		require.NoError(t, tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: files[i], Mode: 0o644, Size: int64(len(files[i+1]))}))
		_, err := io.WriteString(tw, files[i+1])
		require.NoError(t, err)
	}
	require.NoError(t, tw.Close())
	return buf.String()
}

// members lists an archive's regular files and their contents.
func members(t *testing.T, data string) map[string]string {
	t.Helper()
	out := map[string]string{}
	tr := tar.NewReader(bytes.NewReader([]byte(data)))
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return out
		}
		require.NoError(t, err)
		if hdr.Typeflag == tar.TypeReg {
			b, err := io.ReadAll(tr)
			require.NoError(t, err)
			out[hdr.Name] = string(b)
		}
	}
}

// TestTarCreate: tar c archives files and directories, relative to -C,
// without a leading slash.
func TestTarCreate(t *testing.T) {
	files := map[string]string{"/etc/app/a.conf": "a=1\n", "/etc/app/sub/b.conf": "b=2\n", "/tmp/x": "x"}
	tests := []struct {
		name    string
		argv    []string
		want    map[string]string
		wantErr string
	}{
		{"kubectl cp from a pod", []string{"tar", "cf", "-", "/tmp/x"}, map[string]string{"tmp/x": "x"},
			"tar: removing leading '/' from member names\n"},
		{"a directory", []string{"tar", "-cf", "-", "-C", "/etc", "app"},
			map[string]string{"app/a.conf": "a=1\n", "app/sub/b.conf": "b=2\n"}, ""},
		{"missing", []string{"tar", "cf", "-", "nope"}, map[string]string{}, "tar: nope: No such file or directory\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec, res, _ := run(t, tc.argv, testConfig(nil, files))
			assert.Equal(t, tc.want, members(t, rec.out.String()), "%q", tc.argv)
			assert.Equal(t, tc.wantErr, rec.err.String())
			assert.Equal(t, shell.Exited, res.Kind)
		})
	}
}

// TestTarExtract: tar x writes an archive from stdin under -C, as
// kubectl cp into a pod runs it, and a read-only mount refuses.
func TestTarExtract(t *testing.T) {
	cfg := testConfig(nil, nil)
	cfg.FS.Mount("/config", map[string]string{"k": "v"}, true)
	cfg.Stdin = archive(t, "notes.txt", "hello\n", "dir/inner", "deep")
	_, res, _ := run(t, []string{"tar", "--no-same-permissions", "--no-same-owner", "-xmf", "-", "-C", "/tmp"}, cfg)
	assert.Equal(t, 0, res.ExitCode)
	got, _ := cfg.FS.Read("/tmp/notes.txt")
	assert.Equal(t, "hello\n", got)
	got, _ = cfg.FS.Read("/tmp/dir/inner")
	assert.Equal(t, "deep", got)

	cfg.Stdin = archive(t, "k", "new")
	rec, res, _ := run(t, []string{"tar", "xf", "-", "-C", "/config"}, cfg)
	assert.Equal(t, 1, res.ExitCode)
	assert.Equal(t, "tar: can't open 'k': Read-only file system\n", rec.err.String())

	cfg.Stdin = "not a tar archive, longer than nothing at all"
	rec, res, _ = run(t, []string{"tar", "xf", "-"}, cfg)
	assert.Equal(t, 1, res.ExitCode, "%s", rec.err.String())
}

// TestTarRoundTrip: an archive made with -z in a file lists and extracts
// elsewhere.
func TestTarRoundTrip(t *testing.T) {
	runScripts(t, []scriptTest{
		{name: "gzip through a file", files: map[string]string{"/src/a": "A", "/src/b/c": "C"},
			script: "tar czf /tmp/s.tgz -C / src && tar tzf /tmp/s.tgz && tar xzf /tmp/s.tgz -C /dst && cat /dst/src/b/c",
			want:   "src/\nsrc/a\nsrc/b/c\nC"},
		{name: "no mode", script: "tar f -", wantErr: "tar: need to specify one of -c, -x or -t\n", wantCode: 1},
		{name: "two modes", script: "tar -cx", wantErr: "tar: you may not specify more than one of -c, -x or -t\n", wantCode: 1},
	})
}

// TestStdin: an exec's stdin is fd 0 for its commands, and a shell with
// no script runs it.
func TestStdin(t *testing.T) {
	cfg := testConfig(nil, nil)
	cfg.Stdin = "one\ntwo\n"
	rec, _, _ := run(t, []string{"cat"}, cfg)
	assert.Equal(t, "one\ntwo\n", rec.out.String())
	rec, _, _ = run(t, sh("read a; read b; echo $b $a"), cfg)
	assert.Equal(t, "two one\n", rec.out.String())

	cfg.Stdin = "echo from stdin; exit 4\n"
	rec, res, _ := run(t, []string{"sh"}, cfg)
	assert.Equal(t, "from stdin\n", rec.out.String())
	assert.Equal(t, 4, res.ExitCode)
}

// TestInteractive: an interactive shell prompts, runs each line fed to
// it with the state of the ones before, asks for more of an unfinished
// one, survives syntax errors and ends with exit.
func TestInteractive(t *testing.T) {
	rec := &recorder{}
	cfg := testConfig([]string{"HOME=/root"}, nil)
	cfg.Host, cfg.Interactive = rec, true
	p := shell.NewProcess([]string{"sh"}, cfg)
	require.Equal(t, shell.Prompting, p.Run(epoch).Kind)
	assert.Equal(t, "/ # ", p.Prompt())

	assert.False(t, p.Feed("X=1; cd /root"))
	require.Equal(t, shell.Prompting, p.Run(epoch).Kind)
	assert.Equal(t, "~ # ", p.Prompt())

	assert.True(t, p.Feed("if true; then"), "unfinished")
	assert.False(t, p.Feed("if true; then\necho $X; fi"))
	require.Equal(t, shell.Prompting, p.Run(epoch).Kind)
	assert.Equal(t, "1\n", rec.out.String())

	assert.False(t, p.Feed("fi"))
	assert.Equal(t, "sh: syntax error: unexpected \"fi\"\n", rec.err.String())
	require.Equal(t, shell.Prompting, p.Run(epoch).Kind, "the shell goes on")

	assert.False(t, p.Feed("exit 3"))
	res := p.Run(epoch)
	assert.Equal(t, shell.Exited, res.Kind)
	assert.Equal(t, 3, res.ExitCode)
}
