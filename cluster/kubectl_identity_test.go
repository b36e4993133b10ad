package cluster_test

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	authenticationv1 "github.com/minicp/minicp/api/authentication/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/cluster"
)

// tokenReview has kubectl create a TokenReview of token for auds and
// returns its status.
func tokenReview(t *testing.T, k *kubectl, token string, auds ...string) authenticationv1.TokenReviewStatus {
	t.Helper()
	review := map[string]any{
		"apiVersion": "authentication.k8s.io/v1", "kind": "TokenReview",
		"spec": map[string]any{"token": token, "audiences": auds},
	}
	b, err := json.Marshal(review)
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "review.json")
	require.NoError(t, os.WriteFile(path, b, 0o600))
	out := k.Run("create", "-f", path, "-o", "json")
	var got authenticationv1.TokenReview
	require.NoError(t, json.Unmarshal([]byte(out), &got), "TokenReview output:\n%s", out)
	return got.Status
}

// TestKubectlServiceAccountTokens issues service account tokens with
// `kubectl create token`, uses them, reviews them with TokenReview, and
// watches them die with their ServiceAccount and their bound pod.
func TestKubectlServiceAccountTokens(t *testing.T) {
	t.Parallel()
	c := startCluster(t)
	k := newKubectl(t, c)

	k.Run("create", "serviceaccount", "robot")
	token := strings.TrimSpace(k.Run("create", "token", "robot"))
	parts := strings.Split(token, ".")
	require.Len(t, parts, 3, "a JWS: %q", token)
	payload, err := base64.RawURLEncoding.DecodeString(parts[1])
	require.NoError(t, err)
	var claims map[string]any
	require.NoError(t, json.Unmarshal(payload, &claims))
	assert.Equal(t, "system:serviceaccount:default:robot", claims["sub"])
	assert.Equal(t, "https://kubernetes.default.svc.cluster.local", claims["iss"])
	assert.NotEmpty(t, claims["jti"])
	assert.InDelta(t, 3600, claims["exp"].(float64)-claims["iat"].(float64), 1, "an hour by default")
	k8s := claims["kubernetes.io"].(map[string]any)
	assert.Equal(t, "default", k8s["namespace"])
	assert.Equal(t, "robot", k8s["serviceaccount"].(map[string]any)["name"])

	who := k.Run("--token="+token, "auth", "whoami")
	assert.Contains(t, who, "system:serviceaccount:default:robot", "kubectl auth whoami with the token")
	assert.Contains(t, who, "system:serviceaccounts:default")

	st := tokenReview(t, k, token)
	assert.True(t, st.Authenticated, "review: %+v", st)
	assert.Equal(t, "system:serviceaccount:default:robot", st.User.Username)
	assert.Equal(t, []string{"system:serviceaccounts", "system:serviceaccounts:default", "system:authenticated"}, st.User.Groups)
	assert.Equal(t, []string{"https://kubernetes.default.svc.cluster.local"}, st.Audiences)
	assert.Equal(t, strings.TrimSpace(k.Run("get", "sa", "robot", "-o", "jsonpath={.metadata.uid}")), st.User.UID)

	// A token for another audience does not authenticate to the API
	// server, but a review for that audience accepts it.
	vault := strings.TrimSpace(k.Run("create", "token", "robot", "--audience=vault"))
	assert.Contains(t, k.Fail("--token="+vault, "get", "pods"), "You must be logged in to the server")
	st = tokenReview(t, k, vault, "vault", "other")
	assert.True(t, st.Authenticated, "review for vault: %+v", st)
	assert.Equal(t, []string{"vault"}, st.Audiences)
	st = tokenReview(t, k, vault)
	assert.False(t, st.Authenticated)
	assert.Contains(t, st.Error, "invalid for the target audiences")

	assert.Contains(t, k.Fail("create", "token", "robot", "--duration=5m"), "may not specify a duration less than 10 minutes")
	assert.Contains(t, k.Fail("create", "token", "nobody"), `serviceaccounts "nobody" not found`)

	// A token bound to a pod names it, and dies with it.
	k.Run("run", "worker", "--image=busybox", "--restart=Never", "--overrides",
		`{"apiVersion":"v1","spec":{"serviceAccountName":"robot"}}`)
	bound := strings.TrimSpace(k.Run("create", "token", "robot", "--bound-object-kind=Pod", "--bound-object-name=worker"))
	st = tokenReview(t, k, bound)
	require.True(t, st.Authenticated, "bound review: %+v", st)
	assert.Equal(t, authenticationv1.ExtraValue{"worker"}, st.User.Extra["authentication.kubernetes.io/pod-name"])
	assert.NotEmpty(t, st.User.Extra["authentication.kubernetes.io/credential-id"])
	assert.Contains(t, k.Fail("create", "token", "default", "--bound-object-kind=Pod", "--bound-object-name=worker"),
		`cannot bind token for serviceaccount "default" to pod running with serviceaccount "robot"`)
	k.Run("delete", "pod", "worker", "--grace-period=0", "--force")
	st = tokenReview(t, k, bound)
	assert.False(t, st.Authenticated, "the bound pod is gone")
	assert.Equal(t, "service account token has been invalidated", st.Error)

	k.Run("delete", "serviceaccount", "robot")
	st = tokenReview(t, k, token)
	assert.False(t, st.Authenticated, "the service account is gone")
	assert.Contains(t, st.Error, `serviceaccounts "robot" not found`)
	assert.Contains(t, k.Fail("--token="+token, "get", "pods"), "You must be logged in to the server")

	st = tokenReview(t, k, "not-a-token")
	assert.False(t, st.Authenticated)
	assert.Equal(t, "invalid bearer token", st.Error)
}

// TestKubectlClientCertificate authenticates kubectl with a client
// certificate signed by the cluster's CA, embedded in the kubeconfig.
func TestKubectlClientCertificate(t *testing.T) {
	t.Parallel()
	c := startCluster(t)
	k := newKubectl(t, c)
	certPEM, keyPEM, err := c.IssueClientCertificate("carol", []string{"devs", "ops"})
	require.NoError(t, err)
	dir := t.TempDir()
	certFile, keyFile := filepath.Join(dir, "carol.crt"), filepath.Join(dir, "carol.key")
	require.NoError(t, os.WriteFile(certFile, certPEM, 0o600))
	require.NoError(t, os.WriteFile(keyFile, keyPEM, 0o600))
	k.Run("config", "set-credentials", "carol", "--client-certificate="+certFile, "--client-key="+keyFile, "--embed-certs")
	raw := k.Run("config", "view", "--raw", "-o", "jsonpath={.users[?(@.name==\"carol\")].user}")
	assert.Contains(t, raw, "client-certificate-data")

	who := k.Run("--user=carol", "auth", "whoami", "-o", "json")
	var review authenticationv1.SelfSubjectReview
	require.NoError(t, json.Unmarshal([]byte(who), &review), "whoami:\n%s", who)
	assert.Equal(t, "carol", review.Status.UserInfo.Username)
	// The certificate's DER orders its organizations, not the issuer.
	assert.ElementsMatch(t, []string{"devs", "ops", "system:authenticated"}, review.Status.UserInfo.Groups)
}

// TestKubectlServiceAccountAdmission: with the ServiceAccount admission
// plugin, a pod runs as "default" and finds its token, the cluster's CA
// and its namespace where in-cluster clients look; the kubelet asked the
// API server for the token, bound to the pod.
func TestKubectlServiceAccountAdmission(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("scenario test")
	}
	c := startCluster(t, func(o *cluster.Options) {
		o.Nodes = 1
		o.ServiceAccountAdmission = true
	})
	k := newKubectl(t, c)
	k.Run("wait", "--for=create", "serviceaccount/default", "configmap/kube-root-ca.crt", "--timeout=60s")
	assert.Equal(t, string(c.CACertificate()), k.Run("get", "configmap", "kube-root-ca.crt", "-o", `jsonpath={.data.ca\.crt}`))

	k.Run("run", "box", "--image=busybox", "--", "sh", "-c", "sleep 3600")
	k.Run("wait", "--for=condition=Ready", "pod/box", "--timeout=60s")
	var pod corev1.Pod
	require.NoError(t, json.Unmarshal([]byte(k.Run("get", "pod", "box", "-o", "json")), &pod))
	assert.Equal(t, "default", pod.Spec.ServiceAccountName)
	require.Len(t, pod.Spec.Volumes, 1)
	assert.Regexp(t, "^kube-api-access-[a-z0-9]{5}$", pod.Spec.Volumes[0].Name)
	assert.Contains(t, pod.Spec.Containers[0].VolumeMounts, corev1.VolumeMount{
		Name: pod.Spec.Volumes[0].Name, ReadOnly: true, MountPath: "/var/run/secrets/kubernetes.io/serviceaccount",
	})

	const dir = "/var/run/secrets/kubernetes.io/serviceaccount/"
	assert.Equal(t, "default", k.Run("exec", "box", "--", "cat", dir+"namespace"))
	assert.Equal(t, string(c.CACertificate()), k.Run("exec", "box", "--", "cat", dir+"ca.crt"))
	token := k.Run("exec", "box", "--", "cat", dir+"token")
	require.Equal(t, 2, strings.Count(token, "."), "a JWS in the token file: %q", token)
	st := tokenReview(t, k, token)
	require.True(t, st.Authenticated, "review of the pod's token: %+v", st)
	assert.Equal(t, "system:serviceaccount:default:default", st.User.Username)
	assert.Equal(t, authenticationv1.ExtraValue{"box"}, st.User.Extra["authentication.kubernetes.io/pod-name"])
	assert.Equal(t, authenticationv1.ExtraValue{cluster.NodeName(0)}, st.User.Extra["authentication.kubernetes.io/node-name"])

	out := k.Fail("run", "ghost", "--image=busybox", "--overrides", `{"apiVersion":"v1","spec":{"serviceAccountName":"ghost"}}`)
	assert.Contains(t, out, `pods "ghost" is forbidden: error looking up service account default/ghost: serviceaccount "ghost" not found`)

	k.Run("run", "quiet", "--image=busybox", "--overrides", `{"apiVersion":"v1","spec":{"automountServiceAccountToken":false}}`)
	assert.Empty(t, k.Run("get", "pod", "quiet", "-o", "jsonpath={.spec.volumes}"), "no token for a pod that wants none")
}
