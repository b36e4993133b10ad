package shell_test

import "testing"

func TestRead(t *testing.T) {
	files := map[string]string{
		"/f":     "a b c\nsecond line\n",
		"/last":  "no newline",
		"/blank": "  a   b   c  \n",
		"/bs":    "a\\\nb\\ c\\d\n",
		"/empty": "",
	}
	runScripts(t, []scriptTest{
		{name: "no stdin fails", script: "read x || echo none $?", want: "none 1\n"},
		{name: "one variable takes the line", script: `read x </f; echo "[$x]"`, files: files, want: "[a b c]\n"},
		{name: "fields", script: `read x y </f; echo "[$x][$y]"`, files: files, want: "[a][b c]\n"},
		{name: "more variables than fields", script: `read x y z w </f; echo "[$x][$y][$z][$w]"`, files: files, want: "[a][b][c][]\n"},
		{name: "REPLY by default", script: `read </f; echo "[$REPLY]"`, files: files, want: "[a b c]\n"},
		{name: "blanks trimmed, inner blanks kept", script: `read x y </blank; echo "[$x][$y]"`, files: files, want: "[a][b   c]\n"},
		{name: "last line without newline is read but fails", script: `read x </last; echo "$? [$x]"`, files: files, want: "1 [no newline]\n"},
		{name: "empty input", script: `x=old; read x </empty; echo "$? [$x]"`, files: files, want: "1 [old]\n"},
		{name: "backslashes quote and join lines", script: `read x </bs; echo "[$x]"`, files: files, want: "[ab cd]\n"},
		{name: "-r keeps backslashes", script: `read -r x </bs; echo "[$x]"`, files: files, want: "[a\\]\n"},
		{name: "-p takes an argument", script: `read -p 'name: ' x </f; echo "[$x]"`, files: files, want: "[a b c]\n"},
		{name: "-t takes an argument glued", script: `read -t5 x </f; echo "[$x]"`, files: files, want: "[a b c]\n"},
		{name: "each redirection reads from the start", script: `read x </f; read y </f; echo "[$x][$y]"`, files: files, want: "[a b c][a b c]\n"},
		{name: "a loop reads line by line", script: `while read -r l; do echo "[$l]"; done </f`, files: files, want: "[a b c]\n[second line]\n"},
		{name: "a group reads line by line", script: `{ read a; read b; } </f; echo "[$a][$b]"`, files: files, want: "[a b c][second line]\n"},
		{name: "cat takes the rest", script: `{ read a; cat; } </f`, files: files, want: "second line\n"},
		{name: "missing file", script: "read x </nope; echo $?", want: "1\n", wantErr: "sh: can't open '/nope': No such file or directory\n"},
		{name: "dev null", script: "read x </dev/null; echo $?", want: "1\n"},
	})
}
