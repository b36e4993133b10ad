package framework

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	corev1 "github.com/minicp/minicp/api/core/v1"
)

// ErrNoNodesAvailable is returned by SchedulePod when there are no nodes
// at all.
var ErrNoNodesAvailable = errors.New("no nodes available to schedule pods")

// NoNodeAvailableMsg begins every FitError message.
const NoNodeAvailableMsg = "0/%v nodes are available"

// Diagnosis records why a pod fit no node.
type Diagnosis struct {
	// NodeToStatus maps the name of every node that was rejected to the
	// status that rejected it.
	NodeToStatus map[string]*Status
	// UnschedulablePlugins are the plugins that rejected the pod on some
	// node: the scheduling queue retries the pod when a cluster event
	// could change their minds.
	UnschedulablePlugins map[string]struct{}
	// PreFilterMsg is the message of a PreFilter rejection, which applies
	// to every node; empty if PreFilter passed.
	PreFilterMsg string
	// PostFilterMsg is what would have happened after filtering: the
	// "preemption: ..." clause.
	PostFilterMsg string
}

// FitError is the error of a pod that fits no node. Its message is the
// FailedScheduling event's.
//
// Upstream: k8s.io/kubernetes/pkg/scheduler/framework (FitError).
type FitError struct {
	Pod         *corev1.Pod
	NumAllNodes int
	Diagnosis   Diagnosis
}

// Error builds upstream's message: "0/N nodes are available:", then the
// PreFilter message, or else a histogram of the filter reasons ("<count>
// <reason>", sorted as strings, joined with ", "), a period, and then the
// PostFilter message. For example:
//
//	0/3 nodes are available: 1 Insufficient cpu, 2 node(s) had untolerated
//	taint {dedicated: gpu}. preemption: 0/3 nodes are available: 1 No
//	preemption victims found for incoming pod, 2 Preemption is not helpful
//	for scheduling.
func (f *FitError) Error() string {
	msg := fmt.Sprintf(NoNodeAvailableMsg+":", f.NumAllNodes)
	if f.Diagnosis.PreFilterMsg != "" {
		// The PreFilter status was copied to every node; counting it per
		// node would only repeat it.
		msg += " " + f.Diagnosis.PreFilterMsg + "."
	} else if h := reasonHistogram(f.Diagnosis.NodeToStatus); h != "" {
		msg += " " + h + "."
	}
	if f.Diagnosis.PostFilterMsg != "" {
		msg += " " + f.Diagnosis.PostFilterMsg
	}
	return msg
}

// reasonHistogram counts every reason of every status and returns "<count>
// <reason>" entries, sorted as strings (so the order carries no meaning,
// exactly as upstream), joined with ", ".
func reasonHistogram(statuses map[string]*Status) string {
	counts := map[string]int{}
	for _, s := range statuses {
		for _, r := range s.Reasons() {
			counts[r]++
		}
	}
	entries := make([]string, 0, len(counts))
	for r, n := range counts {
		entries = append(entries, fmt.Sprintf("%v %v", n, r))
	}
	sort.Strings(entries)
	return strings.Join(entries, ", ")
}
