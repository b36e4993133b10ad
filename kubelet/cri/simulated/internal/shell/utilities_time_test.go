package shell_test

import (
	"testing"
	"time"
)

func TestSleep(t *testing.T) {
	runScripts(t, []scriptTest{
		{name: "seconds", script: "sleep 2", wantTime: 2 * time.Second},
		{name: "output is stamped after", script: "echo a; sleep 2; echo b", want: "a\nb\n", wantTime: 2 * time.Second},
		{name: "fractional", script: "sleep 0.25; sleep .25", wantTime: 500 * time.Millisecond},
		{name: "suffixes", script: "sleep 1s; sleep 1m; sleep 1h; sleep 1d", wantTime: 25*time.Hour + time.Minute + time.Second},
		{name: "several are summed", script: "sleep 1 2 0.5", wantTime: 3500 * time.Millisecond},
		{name: "zero", script: "sleep 0; echo $?", want: "0\n"},
		{name: "infinity", script: "echo up; sleep infinity; echo never", want: "up\n", forever: true},
		{name: "inf", script: "sleep inf", forever: true},
		{name: "too long is forever", script: "sleep 999999999999", forever: true},
		{name: "missing operand", script: "sleep; echo $?", want: "1\n", wantErr: "sleep: missing operand\n"},
		{name: "not a number", script: "sleep abc; echo $?", want: "1\n", wantErr: "sleep: invalid number 'abc'\n"},
		{name: "negative", script: "sleep -1; echo $?", want: "1\n", wantErr: "sleep: invalid number '-1'\n"},
		{name: "bad suffix", script: "sleep 1x", wantErr: "sleep: invalid number '1x'\n", wantCode: 1},
		{name: "hex is not a number", script: "sleep 0x10", wantErr: "sleep: invalid number '0x10'\n", wantCode: 1},
		{name: "a bad argument sleeps not at all", script: "sleep 5 x", wantErr: "sleep: invalid number 'x'\n", wantCode: 1},
		{name: "as PID 1", argv: []string{"/bin/sleep", "5"}, wantTime: 5 * time.Second},
	})
}

func TestDate(t *testing.T) {
	runScripts(t, []scriptTest{
		{name: "default format", script: "date", want: "Mon May  6 07:00:00 UTC 2024\n"},
		{name: "-u", script: "date -u", want: "Mon May  6 07:00:00 UTC 2024\n"},
		{name: "format", script: "date +%Y-%m-%dT%H:%M:%SZ", want: "2024-05-06T07:00:00Z\n"},
		{name: "epoch seconds", script: "date +%s", want: "1714978800\n"},
		{name: "every directive", script: "date '+%F %T %Z %z %:z %j %a %A %b %B %e %y %N %% %Q'",
			want: "2024-05-06 07:00:00 UTC +0000 +00:00 127 Mon Monday May May  6 24 000000000 % %Q\n"},
		{name: "-I", script: "date -I", want: "2024-05-06\n"},
		{name: "-Iseconds", script: "date -Iseconds", want: "2024-05-06T07:00:00+00:00\n"},
		{name: "-R", script: "date -R", want: "Mon, 06 May 2024 07:00:00 +0000\n"},
		{name: "follows the process time", script: "sleep 90.5; date +%T.%N", want: "07:01:30.500000000\n", wantTime: 90*time.Second + 500*time.Millisecond},
	})
}
