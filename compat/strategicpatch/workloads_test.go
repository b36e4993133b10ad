package strategicpatch

import (
	"os"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	kappsv1 "k8s.io/api/apps/v1"
	kcorev1 "k8s.io/api/core/v1"

	appsv1 "github.com/minicp/minicp/api/apps/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
)

var (
	deploymentKind = kind{"Deployment", reflect.TypeFor[appsv1.Deployment](), func() any { return &kappsv1.Deployment{} }}
	serviceKind    = kind{"Service", reflect.TypeFor[corev1.Service](), func() any { return &kcorev1.Service{} }}
)

// deploymentCases are what kubectl apply, scale, set image, rollout
// restart and edit send to a live Deployment.
var deploymentCases = []patchCase{
	{name: "scale", patch: `{"spec":{"replicas":5}}`},
	{name: "set image", patch: `{"spec":{"template":{"spec":{"containers":[{"name":"nginx","image":"nginx:1.28"}]}}}}`},
	{name: "rollout restart", patch: `{"spec":{"template":{"metadata":{"annotations":{"kubectl.kubernetes.io/restartedAt":"2025-01-01T00:00:00Z"}}}}}`},
	{name: "apply switches to Recreate", patch: `{"spec":{"strategy":{"$retainKeys":["type"],"rollingUpdate":null,"type":"Recreate"}}}`},
	{name: "apply changes maxSurge", patch: `{"spec":{"strategy":{"$retainKeys":["rollingUpdate","type"],"rollingUpdate":{"maxSurge":2}}}}`},
	{name: "strategy without retainKeys merges", patch: `{"spec":{"strategy":{"type":"Recreate"}}}`},
	{name: "apply adds a port", patch: `{"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"nginx"}],"containers":[{"$setElementOrder/ports":[{"containerPort":80},{"containerPort":443}],"name":"nginx","ports":[{"containerPort":443,"name":"https"}]}]}}}}`},
	{name: "status conditions by type", patch: `{"status":{"conditions":[{"type":"Available","status":"False","reason":"MinimumReplicasUnavailable"}]}}`},
	{name: "selector is replaced", patch: `{"spec":{"selector":{"matchLabels":{"tier":"fe"}}}}`},
}

// serviceCases are what kubectl apply, patch and expose edits send to a
// live Service.
var serviceCases = []patchCase{
	{name: "port by number", patch: `{"spec":{"ports":[{"port":80,"targetPort":8080}]}}`},
	{name: "add port", patch: `{"spec":{"ports":[{"port":8443,"name":"alt","protocol":"TCP"}]}}`},
	{name: "delete port", patch: `{"spec":{"ports":[{"port":443,"$patch":"delete"}]}}`},
	{name: "apply reorders ports", patch: `{"spec":{"$setElementOrder/ports":[{"port":443},{"port":80}]}}`},
	{name: "change type", patch: `{"spec":{"type":"ClusterIP","externalTrafficPolicy":null,"healthCheckNodePort":null}}`},
	{name: "selector merges", patch: `{"spec":{"selector":{"tier":"fe","app":null}}}`},
	{name: "external IPs replace", patch: `{"spec":{"externalIPs":["198.51.100.7"]}}`},
	{name: "status ingress replace", patch: `{"status":{"loadBalancer":{"ingress":[{"hostname":"lb.example.com"}]}}}`},
	{name: "port without merge key", patch: `{"spec":{"ports":[{"name":"x"}]}}`, wantErr: true},
}

func TestWorkloadPatchesMatchUpstream(t *testing.T) {
	read := func(path string) string {
		data, err := os.ReadFile("../../api/" + path)
		require.NoError(t, err)
		return string(data)
	}
	for _, group := range []struct {
		kind     kind
		original string
		cases    []patchCase
	}{
		{deploymentKind, read("apps/v1/testdata/deployment-live.json"), deploymentCases},
		{serviceKind, read("core/v1/testdata/service-loadbalancer.json"), serviceCases},
	} {
		for _, tc := range group.cases {
			t.Run(group.kind.name+"/"+tc.name, func(t *testing.T) {
				want := compare(t, group.kind, group.original, tc.patch)
				assert.Equal(t, tc.wantErr, want.err != nil, "upstream error: %v", want.err)
			})
		}
	}
}
