package shell_test

import "testing"

func TestCat(t *testing.T) {
	files := map[string]string{"/a": "A\n", "/b": "B"}
	runScripts(t, []scriptTest{
		{name: "file", script: "cat /a", files: files, want: "A\n"},
		{name: "files in order", script: "cat /b /a", files: files, want: "BA\n"},
		{name: "relative to the working directory", script: "cd /etc; cat hostname", want: "web-0\n"},
		{name: "missing file", script: "cat /a /nope /a; echo $?", files: files, want: "A\nA\n1\n", wantErr: "cat: can't open '/nope': No such file or directory\n"},
		{name: "no stdin", script: "cat; echo $?", want: "0\n"},
		{name: "stdin from a file", script: "cat </a", files: files, want: "A\n"},
		{name: "dash is stdin", script: "cat /b - /b </a", files: files, want: "BA\nB"},
		{name: "dev null", script: "cat /dev/null; echo $?", want: "0\n"},
	})
}

func TestTail(t *testing.T) {
	files := map[string]string{"/f": "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "/short": "a\nb"}
	runScripts(t, []scriptTest{
		{name: "last ten lines", script: "tail /f", files: files, want: "3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n"},
		{name: "-n", script: "tail -n 2 /f", files: files, want: "11\n12\n"},
		{name: "-nN", script: "tail -n3 /f", files: files, want: "10\n11\n12\n"},
		{name: "-N", script: "tail -1 /f", files: files, want: "12\n"},
		{name: "-n +N from line N", script: "tail -n +11 /f", files: files, want: "11\n12\n"},
		{name: "-n 0", script: "tail -n 0 /f", files: files, want: ""},
		{name: "more lines than the file", script: "tail -n 5 /short", files: files, want: "a\nb"},
		{name: "last line without newline", script: "tail -n 1 /short", files: files, want: "b"},
		{name: "bad count", script: "tail -n x /f", files: files, wantErr: "tail: invalid number 'x'\n", wantCode: 1},
		{name: "missing file", script: "tail /nope", wantErr: "tail: can't open '/nope': No such file or directory\n", wantCode: 1},
		{name: "stdin", script: "tail -n 1 </short", files: files, want: "b"},
		{name: "-f waits forever", script: "tail -n 1 -f /short", files: files, want: "b", forever: true},
		{name: "-f /dev/null as PID 1", argv: []string{"tail", "-f", "/dev/null"}, forever: true},
		{name: "-f on a missing file ends", script: "tail -f /nope", wantErr: "tail: can't open '/nope': No such file or directory\n", wantCode: 1},
	})
}

func TestTouch(t *testing.T) {
	runScripts(t, []scriptTest{
		{name: "creates an empty file", script: "touch /tmp/a; [ -f /tmp/a ] && [ ! -s /tmp/a ] && echo yes", want: "yes\n"},
		{name: "keeps the content", script: "echo x > /tmp/a; touch /tmp/a; cat /tmp/a", want: "x\n"},
		{name: "several, flags ignored", script: "touch -c /a /b; cat /a /b; echo $?", want: "0\n"},
		{name: "relative", script: "cd /tmp; touch f; [ -f /tmp/f ] && echo yes", want: "yes\n"},
	})
}

func TestRm(t *testing.T) {
	runScripts(t, []scriptTest{
		{name: "removes", script: "touch /a; rm /a; [ -f /a ] || echo gone", want: "gone\n"},
		{name: "missing", script: "rm /a; echo $?", want: "1\n", wantErr: "rm: can't remove '/a': No such file or directory\n"},
		{name: "-f ignores missing", script: "rm -f /a; echo $?", want: "0\n"},
		{name: "-rf", script: "touch /a; rm -rf /a /b; echo $?", want: "0\n"},
		{name: "several, one missing", script: "touch /a /c; rm /a /b /c; echo $?; cat /a /c 2>/dev/null; echo $?", want: "1\n1\n",
			wantErr: "rm: can't remove '/b': No such file or directory\n"},
	})
}

func TestMkdir(t *testing.T) {
	runScripts(t, []scriptTest{
		{name: "succeeds", script: "mkdir /data; echo $?", want: "0\n"},
		{name: "-p", script: "mkdir -p /a/b/c; echo $?", want: "0\n"},
	})
}
