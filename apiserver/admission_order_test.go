package apiserver_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/minicp/minicp/apiserver"
	"github.com/minicp/minicp/apiserver/apiservertest"
)

// TestDefaultAdmissionOrder pins where the quota plugins and PodSecurity
// sit in the default chain, as kube-apiserver orders its plugins:
// LimitRanger fills in requests and limits before the plugins and
// webhooks that read them, and ResourceQuota comes last, charging only
// what everything else admitted.
func TestDefaultAdmissionOrder(t *testing.T) {
	var names []string
	for _, p := range apiserver.DefaultAdmission(apiservertest.New(t)) {
		names = append(names, p.Name())
	}
	before := func(a, b string) {
		t.Helper()
		i, j := slices.Index(names, a), slices.Index(names, b)
		assert.True(t, i >= 0 && j >= 0 && i < j, "%s before %s in %v", a, b, names)
	}
	before("Defaulting", "LimitRanger")
	before("LimitRanger", "DefaultTolerationSeconds")
	before("LimitRanger", "MutatingAdmissionWebhook")
	// The webhooks see the pod's priority, as upstream orders them.
	before("Priority", "MutatingAdmissionWebhook")
	before("ValidatingAdmissionWebhook", "ResourceQuota")
	// PodSecurity sits between LimitRanger and Priority, as upstream
	// orders it, and checks pods before the webhooks see them.
	before("LimitRanger", "PodSecurity")
	before("PodSecurity", "Priority")
	before("PodSecurity", "ValidatingAdmissionWebhook")
	assert.Equal(t, "ResourceQuota", names[len(names)-1], "ResourceQuota is last")
}
