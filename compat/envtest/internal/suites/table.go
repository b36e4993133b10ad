package suites

import (
	"fmt"
	"io"
	"time"
)

// Total adds up the counts of results.
func Total(results []Result) Counts {
	var t Counts
	for _, r := range results {
		t.Specs += r.Specs
		t.Passed += r.Passed
		t.Failed += r.Failed
		t.Skipped += r.Skipped
	}
	return t
}

// WriteTable writes one row per suite (specs, passed, failed, skipped,
// time) and a total row, then the closing line "total: N passed, N
// failed, N skipped".
func WriteTable(w io.Writer, results []Result) error {
	const row = "%-36s %6v %6v %6v %7v %7v%s\n"
	fmt.Fprintf(w, row, "package", "specs", "passed", "failed", "skipped", "time", "")
	var d time.Duration
	for _, r := range results {
		d += r.Duration
		if r.Err != nil {
			fmt.Fprintf(w, row, shortName(r.Package), "-", "-", "-", "-", "-", "  "+r.Err.Error())
			continue
		}
		fmt.Fprintf(w, row, shortName(r.Package), r.Specs, r.Passed, r.Failed, r.Skipped, r.Duration.Round(time.Second), "")
	}
	t := Total(results)
	fmt.Fprintf(w, row, "total", t.Specs, t.Passed, t.Failed, t.Skipped, d.Round(time.Second), "")
	_, err := fmt.Fprintf(w, "total: %d passed, %d failed, %d skipped\n", t.Passed, t.Failed, t.Skipped)
	return err
}

// WriteFailures writes, per suite, why specs did not run, then each spec
// that did not pass with its state, location and message, one per line.
func WriteFailures(w io.Writer, results []Result) error {
	for _, r := range results {
		if r.Err == nil && len(r.Failures) == 0 && len(r.SuiteFailures) == 0 {
			continue
		}
		fmt.Fprintf(w, "== %s\n", shortName(r.Package))
		if r.Err != nil {
			fmt.Fprintf(w, "suite: %v\n", r.Err)
		}
		for _, f := range r.SuiteFailures {
			fmt.Fprintf(w, "suite: %s\n", f)
		}
		for _, f := range r.Failures {
			if _, err := fmt.Fprintf(w, "%s [%s] %s\n\t%s\n", f.Spec, f.State, f.Location, f.Message); err != nil {
				return err
			}
		}
	}
	return nil
}
