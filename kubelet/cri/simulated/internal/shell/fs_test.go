package shell_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/minicp/minicp/kubelet/cri/simulated/internal/shell"
)

// TestReadOnlyMount: a mounted volume's files can be read like any other,
// and a read-only mount refuses writes, new files and removals, in
// busybox's words; the rest of the file system stays writable.
func TestReadOnlyMount(t *testing.T) {
	fs := shell.NewFS(map[string]string{"/etc/cfg/old": "hidden\n"})
	fs.Mount("/etc/cfg", map[string]string{"key": "v\n", "sub/k2": "w\n"}, true)
	fs.Mount("/etc/one.conf", map[string]string{"": "single\n"}, false)
	rec, res, _ := run(t, sh(`cat /etc/cfg/key /etc/cfg/sub/k2 /etc/one.conf; [ -d /etc/cfg/sub ] && echo dir
echo x > /etc/cfg/key; echo x >> cfg/sub/k2; touch /etc/cfg/new; rm /etc/cfg/key; rm -f /etc/cfg/none
cat /etc/cfg/key; [ -f /etc/cfg/new ] || echo no new; cat /etc/cfg/old
echo y > /etc/one.conf; cat /etc/one.conf; echo ok > /tmp/f; cat /tmp/f`), shell.Config{FS: fs, WorkingDir: "/etc"})
	assert.Equal(t, "v\nw\nsingle\ndir\nv\nno new\ny\nok\n", rec.out.String())
	assert.Equal(t, "sh: can't create /etc/cfg/key: Read-only file system\n"+
		"sh: can't create cfg/sub/k2: Read-only file system\n"+
		"touch: /etc/cfg/new: Read-only file system\n"+
		"rm: can't remove '/etc/cfg/key': Read-only file system\n"+
		"cat: can't open '/etc/cfg/old': No such file or directory\n", rec.err.String())
	assert.Equal(t, shell.Exited, res.Kind)
}
