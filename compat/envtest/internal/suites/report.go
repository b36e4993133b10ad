package suites

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/onsi/ginkgo/v2/types"
)

// Outcome is what a spec's run counts as.
type Outcome int

// The outcomes. A spec that did not run because something before it
// failed (its BeforeSuite, an earlier spec of its Ordered container) or
// because the suite was interrupted counts as failed: it did not pass,
// and the failure that stopped it is the reason.
const (
	Passed Outcome = iota
	Failed
	// Skipped is a spec that skipped itself (Skip(), a Pending node), as
	// it would on any cluster.
	Skipped
)

// orderedSkip is Ginkgo's message for a spec not run because an earlier
// spec of its Ordered container failed.
const orderedSkip = "Spec skipped because an earlier spec in an ordered container failed"

// Classify returns what spec counts as.
func Classify(spec types.SpecReport) Outcome {
	switch {
	case spec.State.Is(types.SpecStatePassed):
		return Passed
	case spec.State.Is(types.SpecStatePending):
		return Skipped
	case spec.State.Is(types.SpecStateSkipped):
		// Ginkgo gives a skip no message when the whole suite skips (a
		// failed BeforeSuite, an interrupt, the suite's deadline), and a
		// message when Skip() was called or an ordered container failed.
		if spec.Failure.Message != "" && spec.Failure.Message != orderedSkip {
			return Skipped
		}
		return Failed
	default:
		return Failed
	}
}

// Failure is a spec that did not pass, with why.
type Failure struct {
	// Spec is the spec's full text: its containers' texts and its own.
	Spec string
	// State is Ginkgo's: failed, panicked, timedout, skipped, ...
	State string
	// Message is the failure message, or the reason the spec did not run.
	Message string
	// Location is where the failure happened, file:line.
	Location string
}

// Counts are a suite's specs by outcome.
type Counts struct {
	Specs, Passed, Failed, Skipped int
}

// ReadReport reads a Ginkgo JSON report (--ginkgo.json-report) and
// returns its It specs by outcome, the specs that failed (sorted by their
// text), and the
// suite-level failures (a failed BeforeSuite, an interrupt) that explain
// specs that did not run.
func ReadReport(path string) (Counts, []Failure, []string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Counts{}, nil, nil, fmt.Errorf("read report: %w", err)
	}
	var reports []types.Report
	if err := json.Unmarshal(data, &reports); err != nil {
		return Counts{}, nil, nil, fmt.Errorf("read report %s: %w", path, err)
	}
	var c Counts
	var failures []Failure
	var suiteFailures []string
	for _, r := range reports {
		suiteFailures = append(suiteFailures, r.SpecialSuiteFailureReasons...)
		for _, spec := range r.SpecReports {
			if spec.LeafNodeType != types.NodeTypeIt {
				if spec.State.Is(types.SpecStateFailureStates) {
					suiteFailures = append(suiteFailures, fmt.Sprintf("%s failed at %s: %s",
						spec.LeafNodeType, spec.Failure.Location, firstLines(spec.Failure.Message, 3)))
				}
				continue
			}
			c.Specs++
			switch Classify(spec) {
			case Passed:
				c.Passed++
			case Skipped:
				c.Skipped++
			case Failed:
				c.Failed++
				failures = append(failures, Failure{
					Spec:     spec.FullText(),
					State:    spec.State.String(),
					Message:  failureMessage(spec),
					Location: spec.Failure.Location.String(),
				})
			}
		}
	}
	// Ginkgo runs specs in a random order; sorted, two runs' failure
	// lists can be compared line by line.
	slices.SortFunc(failures, func(a, b Failure) int { return strings.Compare(a.Spec, b.Spec) })
	return c, failures, suiteFailures, nil
}

// failureMessage is the start of spec's failure message; a spec the
// suite never ran has none, and says so.
func failureMessage(spec types.SpecReport) string {
	msg := spec.Failure.Message
	if spec.Failure.ForwardedPanic != "" {
		msg = "panic: " + spec.Failure.ForwardedPanic
	}
	if msg == "" {
		return "not run (see the suite's failures)"
	}
	return firstLines(msg, 6)
}

// firstLines returns the first n non-empty lines of s, joined by " | "
// so a failure stays on one line of the failures file.
func firstLines(s string, n int) string {
	var out []string
	for line := range strings.Lines(s) {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		out = append(out, line)
		if len(out) == n {
			break
		}
	}
	return strings.Join(out, " | ")
}

// CountSpecs reads the report of a Ginkgo dry run and returns how many It
// specs the suite has.
func CountSpecs(path string) (int, error) {
	c, _, _, err := ReadReport(path)
	return c.Specs, err
}
