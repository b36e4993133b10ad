package shell_test

import "testing"

func TestEcho(t *testing.T) {
	runScripts(t, []scriptTest{
		{name: "arguments joined by a space", script: "echo a  b   c", want: "a b c\n"},
		{name: "no arguments", script: "echo", want: "\n"},
		{name: "-n", script: "echo -n a; echo -n; echo b", want: "ab\n"},
		{name: "-e escapes", script: `echo -e 'a\tb\nc\\d\re\a'`, want: "a\tb\nc\\d\re\a\n"},
		{name: "-e octal", script: `echo -e '\0101\0102'`, want: "AB\n"},
		{name: "-e \\c stops the output", script: `echo -e 'a\cb'; echo c`, want: "ac\n"},
		{name: "-e unknown escape is kept", script: `echo -e '\q'`, want: "\\q\n"},
		{name: "without -e backslashes are kept", script: `echo 'a\nb'`, want: "a\\nb\n"},
		{name: "-E turns escapes off", script: `echo -e -E 'a\nb'`, want: "a\\nb\n"},
		{name: "combined flags", script: `echo -ne 'x\n'`, want: "x\n"},
		{name: "unknown flag is an argument", script: "echo -x -n", want: "-x -n\n"},
		{name: "-- is an argument", script: "echo -- a", want: "-- a\n"},
		{name: "flags end at the first argument", script: "echo a -n", want: "a -n\n"},
		{name: "a lone dash is an argument", script: "echo -", want: "-\n"},
		{name: "to stderr", script: "echo err >&2", wantErr: "err\n"},
	})
}

func TestPrintf(t *testing.T) {
	runScripts(t, []scriptTest{
		{name: "string", script: `printf '%s=%s\n' a b`, want: "a=b\n"},
		{name: "no newline of its own", script: "printf a; printf b", want: "ab"},
		{name: "format is reused", script: `printf '%s=%d\n' a 1 b 2`, want: "a=1\nb=2\n"},
		{name: "missing arguments are empty or zero", script: `printf '%s-%d-%s|\n' a`, want: "a-0-|\n"},
		{name: "no arguments prints the format once", script: `printf '%s|\n'`, want: "|\n"},
		{name: "width and alignment", script: `printf '%5s|%-5s|%05d|%-3d|\n' ab cd 42 7`, want: "   ab|cd   |00042|7  |\n"},
		{name: "precision", script: `printf '%.2s|%5.2f|\n' abcdef 3.14159`, want: "ab| 3.14|\n"},
		{name: "integers", script: `printf '%d %i %u %o %x %X\n' 10 -3 7 8 255 255`, want: "10 -3 7 10 ff FF\n"},
		{name: "hex and octal arguments", script: `printf '%d %d\n' 0x10 010`, want: "16 8\n"},
		{name: "character value", script: `printf '%d %d\n' "'A" '"a'`, want: "65 97\n"},
		{name: "floats", script: `printf '%f %e %g %G\n' 1.5 1000 0.5 1e-10`, want: "1.500000 1.000000e+03 0.5 1E-10\n"},
		{name: "char", script: `printf '%c%c\n' hello w`, want: "hw\n"},
		{name: "%b interprets escapes", script: `printf '%b|%s\n' 'a\tb' 'a\tb'`, want: "a\tb|a\\tb\n"},
		{name: "percent", script: `printf '100%%\n'`, want: "100%\n"},
		{name: "escapes in the format", script: `printf 'a\tb\\c\n'`, want: "a\tb\\c\n"},
		{name: "octal escape in the format", script: `printf 'x\0101y\n'`, want: "xAy\n"},
		{name: "\\c in the format stops", script: `printf 'a\cb'`, want: "a"},
		{name: "trailing percent is literal", script: `printf 'a%'`, want: "a%"},
		{name: "usage", script: "printf; echo $?", want: "2\n", wantErr: "printf: usage: printf FORMAT [ARGUMENT]...\n"},
		{name: "invalid number", script: `printf '%d|\n' abc; echo $?`, want: "0|\n1\n", wantErr: "printf: invalid number 'abc'\n"},
		{name: "invalid float", script: `printf '%f|\n' x; echo $?`, want: "0.000000|\n1\n", wantErr: "printf: invalid number 'x'\n"},
		{name: "invalid format", script: `printf 'a%qb'; echo $?`, want: "a1\n", wantErr: "printf: %q: invalid format\n"},
	})
}
