package webview

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestLaneOf checks where hops sit, above all the API requests, whose
// lane is whoever sent them.
func TestLaneOf(t *testing.T) {
	tests := []struct {
		name, hop, component, resource, causeLane string
		want                                      string
	}{
		{"the client's create", "request", "apiserver", "pods", "", laneClient},
		{"the scheduler's binding", "request", "apiserver", "pods/binding", laneScheduler, laneScheduler},
		{"a controller's create", "request", "apiserver", "replicasets", laneController, laneController},
		{"the kubelet's status write", "request", "apiserver", "pods/status", laneKubelet, laneStatus},
		{"a mutating plugin", "admission.mutating", "apiserver", "", laneAuthz, laneAdmission},
		{"a validating plugin", "admission.validating", "apiserver", "", laneValidation, laneAdmission},
		{"the dispatch", "watchcache.dispatch", "apiserver", "", laneEtcd, laneWatchCache},
		{"an informer", "informer.delta", "kubelet/minicp-node-1", "", laneWatchCache, laneInformers},
		{"a reconcile", "reconcile", "controller-manager", "", laneInformers, laneController},
		{"a filter", "scheduler.filter", "scheduler", "", laneScheduler, laneScheduler},
		{"the sandbox", "runtime.sandbox", "kubelet/minicp-node-1", "", laneKubelet, laneKubelet},
		{"a hop of a component unknown here", "dns.query", "dns", "", laneKubelet, laneKubelet},
		{"a root of no known kind", "dns.query", "dns", "", "", laneClient},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, laneOf(tc.hop, tc.component, tc.resource, tc.causeLane),
				"laneOf(%q, %q, %q, %q)", tc.hop, tc.component, tc.resource, tc.causeLane)
		})
	}
}
