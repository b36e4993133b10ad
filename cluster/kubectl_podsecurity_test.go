package cluster_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestKubectlPodSecurity: a namespace labelled enforce=restricted
// refuses `kubectl run` of a plain pod with upstream's message and
// admits one that meets the restricted level; warn shows in kubectl's
// output as a warning.
func TestKubectlPodSecurity(t *testing.T) {
	t.Parallel()
	c := startCluster(t)
	k := newKubectl(t, c)

	k.Run("create", "namespace", "secure")
	assert.Contains(t, k.Run("label", "ns", "secure", "pod-security.kubernetes.io/enforce=restricted"), "namespace/secure labeled")
	assert.Contains(t, k.Fail("run", "plain", "--image=busybox", "-n", "secure"),
		`pods "plain" is forbidden: violates PodSecurity "restricted:latest": `+
			`allowPrivilegeEscalation != false (container "plain" must set securityContext.allowPrivilegeEscalation=false), `+
			`unrestricted capabilities (container "plain" must set securityContext.capabilities.drop=["ALL"]), `+
			`runAsNonRoot != true (pod or container "plain" must set securityContext.runAsNonRoot=true), `+
			`seccompProfile (pod or container "plain" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")`)
	assert.Contains(t, k.Run("run", "hardened", "--image=busybox", "-n", "secure", `--overrides={"spec":{`+
		`"securityContext":{"runAsNonRoot":true,"runAsUser":1000,"seccompProfile":{"type":"RuntimeDefault"}},`+
		`"containers":[{"name":"hardened","image":"busybox","securityContext":{"allowPrivilegeEscalation":false,"capabilities":{"drop":["ALL"]}}}]}}`),
		"pod/hardened created")

	k.Run("create", "namespace", "watched")
	k.Run("label", "ns", "watched", "pod-security.kubernetes.io/warn=baseline")
	out := k.Run("run", "privileged", "--image=busybox", "-n", "watched", `--overrides={"spec":{"hostNetwork":true}}`)
	assert.Contains(t, out, `Warning: would violate PodSecurity "baseline:latest": host namespaces (hostNetwork)`)
	assert.Contains(t, out, "pod/privileged created")
}
