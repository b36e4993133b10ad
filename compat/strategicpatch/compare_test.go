package strategicpatch

import (
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	kcorev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/mergepatch"
	kstrategicpatch "k8s.io/apimachinery/pkg/util/strategicpatch"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/strategicpatch"
)

// kind pairs a minicp schema with its upstream twin.
type kind struct {
	name   string
	minicp reflect.Type
	k8s    func() any
}

var (
	podKind  = kind{"Pod", reflect.TypeFor[corev1.Pod](), func() any { return &kcorev1.Pod{} }}
	nodeKind = kind{"Node", reflect.TypeFor[corev1.Node](), func() any { return &kcorev1.Node{} }}
)

// outcome is the result of one implementation on one input.
type outcome struct {
	out []byte
	err error
	// panicked is set when upstream panicked: kube-apiserver answers 500.
	panicked bool
}

func upstream(k kind, original, patch []byte) (o outcome) {
	defer func() {
		if r := recover(); r != nil {
			o = outcome{err: fmt.Errorf("panic: %v", r), panicked: true}
		}
	}()
	out, err := kstrategicpatch.StrategicMergePatch(original, patch, k.k8s())
	return outcome{out: out, err: err}
}

func ours(k kind, original, patch []byte) (o outcome) {
	defer func() {
		if r := recover(); r != nil {
			o = outcome{err: fmt.Errorf("panic: %v", r), panicked: true}
		}
	}()
	out, err := strategicpatch.StrategicMergePatch(original, patch, k.minicp)
	return outcome{out: out, err: err}
}

// upstreamBadRequest are the errors kube-apiserver answers 400
// (interpretStrategicMergePatchError); the others are 422 or 500.
var upstreamBadRequest = []error{
	mergepatch.ErrBadJSONDoc, mergepatch.ErrBadPatchFormatForPrimitiveList,
	mergepatch.ErrBadPatchFormatForRetainKeys, mergepatch.ErrBadPatchFormatForSetElementOrderList,
}

var oursBadRequest = []error{
	strategicpatch.ErrBadJSONDoc, strategicpatch.ErrBadPatchFormatForPrimitiveList,
	strategicpatch.ErrBadPatchFormatForRetainKeys, strategicpatch.ErrBadPatchFormatForSetElementOrderList,
}

func isOneOf(err error, targets []error) bool {
	for _, t := range targets {
		if errors.Is(err, t) {
			return true
		}
	}
	return false
}

// schemaLookupFailed reports whether upstream failed because the patch
// names a field its Go type does not have (in a directive, or below a map
// value). minicp merges such fields as a JSON merge patch would, on
// purpose: see the package doc of api/strategicpatch.
func schemaLookupFailed(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "unable to find api field") ||
		strings.Contains(msg, "merging an object in json but data type is not struct") ||
		strings.Contains(msg, "expected slice or array type")
}

// compareResult reports how minicp's outcome differs from upstream's, or "".
// Where upstream panics, minicp must return an error instead.
func compareResult(want, got outcome) string {
	switch {
	case got.panicked:
		return fmt.Sprintf("minicp panicked: %v", got.err)
	case want.panicked:
		if got.err == nil {
			return fmt.Sprintf("upstream panicked (%v) but minicp succeeded with %s", want.err, got.out)
		}
	case want.err != nil:
		if got.err == nil && schemaLookupFailed(want.err) {
			break
		}
		if got.err == nil {
			return fmt.Sprintf("upstream failed (%v) but minicp succeeded with %s", want.err, got.out)
		}
		if isOneOf(want.err, upstreamBadRequest) != isOneOf(got.err, oursBadRequest) {
			return fmt.Sprintf("error classes differ: upstream %v, minicp %v", want.err, got.err)
		}
	case got.err != nil:
		return fmt.Sprintf("upstream succeeded with %s but minicp failed: %v", want.out, got.err)
	case string(want.out) != string(got.out):
		return fmt.Sprintf("results differ:\nupstream %s\nminicp   %s", want.out, got.out)
	}
	return ""
}

// upstreamRuns bounds how often a differing input is retried upstream.
// Upstream merges the keys of a patch in Go's random map order, so a patch
// whose result depends on that order (one that adds "x" to a list and
// deletes "x" from it) has several upstream results; minicp must give one
// of them. 64 runs make missing a result of two equally likely ones a
// 1-in-2^64 event.
const upstreamRuns = 64

// check applies patch to original with both implementations and returns
// how minicp's outcome differs from every upstream outcome, or "", with the
// first upstream outcome.
func check(k kind, original, patch []byte) (string, outcome) {
	got := ours(k, original, patch)
	first := upstream(k, original, patch)
	diff := compareResult(first, got)
	for i := 1; diff != "" && i < upstreamRuns; i++ {
		if compareResult(upstream(k, original, patch), got) == "" {
			return "", first
		}
	}
	return diff, first
}

// compare is check that fails the test on a difference.
func compare(t *testing.T, k kind, original, patch string) outcome {
	t.Helper()
	diff, want := check(k, []byte(original), []byte(patch))
	if diff != "" {
		t.Errorf("%s\noriginal %s\npatch    %s", diff, original, patch)
	}
	return want
}

func TestHandwrittenPatchesMatchUpstream(t *testing.T) {
	for _, tc := range podCases {
		t.Run("Pod/"+tc.name, func(t *testing.T) {
			original := tc.original
			if original == "" {
				original = richPod
			}
			want := compare(t, podKind, original, tc.patch)
			assert.Equal(t, tc.wantErr, want.err != nil, "upstream error: %v", want.err)
		})
	}
	for _, tc := range nodeCases {
		t.Run("Node/"+tc.name, func(t *testing.T) {
			original := tc.original
			if original == "" {
				original = readTestdata(t, "node-kubelet.json")
			}
			want := compare(t, nodeKind, original, tc.patch)
			assert.Equal(t, tc.wantErr, want.err != nil, "upstream error: %v", want.err)
		})
	}
}

func TestLivePodPatchesMatchUpstream(t *testing.T) {
	live := readTestdata(t, "pod-live.json")
	for _, tc := range podCases {
		if tc.original != "" {
			continue
		}
		t.Run(tc.name, func(t *testing.T) { compare(t, podKind, live, tc.patch) })
	}
}

func readTestdata(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile("../../api/core/v1/testdata/" + name)
	require.NoError(t, err)
	return string(data)
}
