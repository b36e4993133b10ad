package cluster_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/pem"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// dbStatefulSet is a StatefulSet manifest with a volume claim template.
const dbStatefulSet = `apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: db
spec:
  serviceName: db
  replicas: 2
  selector:
    matchLabels: {app: db}
  template:
    metadata:
      labels: {app: db}
    spec:
      containers:
      - name: pg
        image: postgres
  volumeClaimTemplates:
  - metadata: {name: data}
    spec:
      accessModes: [ReadWriteOnce]
      resources: {requests: {storage: 1Gi}}
`

// TestKubectlStatefulSetsAutoscalersAndCSRs drives the API-only kinds
// with the real kubectl: apply a StatefulSet and scale it, `kubectl
// autoscale` a Deployment, submit a CertificateSigningRequest and
// `kubectl certificate approve` it, and list them all with their short
// names in one `kubectl get sts,hpa,csr`.
func TestKubectlStatefulSetsAutoscalersAndCSRs(t *testing.T) {
	t.Parallel()
	c := startCluster(t)
	k := newKubectl(t, c)
	dir := t.TempDir()

	manifest := filepath.Join(dir, "sts.yaml")
	require.NoError(t, os.WriteFile(manifest, []byte(dbStatefulSet), 0o600))
	assert.Contains(t, k.Run("apply", "-f", manifest), "statefulset.apps/db created")
	assert.Contains(t, k.Run("scale", "statefulset", "db", "--replicas=3"), "statefulset.apps/db scaled")
	assert.Equal(t, "3", k.Run("get", "sts", "db", "-o", "jsonpath={.spec.replicas}"))

	k.Run("create", "deployment", "web", "--image=nginx")
	assert.Contains(t, k.Run("autoscale", "deployment", "web", "--min=1", "--max=3"), "horizontalpodautoscaler.autoscaling/web autoscaled")
	assert.Equal(t, "3", k.Run("get", "hpa", "web", "-o", "jsonpath={.spec.maxReplicas}"))

	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	der, err := x509.CreateCertificateRequest(rand.Reader, &x509.CertificateRequest{Subject: pkix.Name{CommonName: "jane"}}, key)
	require.NoError(t, err)
	request := base64.StdEncoding.EncodeToString(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE REQUEST", Bytes: der}))
	csr := filepath.Join(dir, "csr.yaml")
	require.NoError(t, os.WriteFile(csr, []byte(`apiVersion: certificates.k8s.io/v1
kind: CertificateSigningRequest
metadata:
  name: jane
spec:
  request: `+request+`
  signerName: kubernetes.io/kube-apiserver-client
  expirationSeconds: 86400
  usages: [client auth]
`), 0o600))
	assert.Contains(t, k.Run("apply", "-f", csr), "certificatesigningrequest.certificates.k8s.io/jane created")
	assert.Equal(t, "Pending", row(t, k.Run("get", "csr"), "jane")[5])
	assert.Contains(t, k.Run("certificate", "approve", "jane"), "certificatesigningrequest.certificates.k8s.io/jane approved")

	out := k.Run("get", "sts,hpa,csr")
	assert.Contains(t, out, "NAME")
	assert.Equal(t, []string{"statefulset.apps/db", "0/3"}, row(t, out, "statefulset.apps/db")[:2], "NAME READY AGE:\n%s", out)
	hpa := row(t, out, "horizontalpodautoscaler.autoscaling/web")
	assert.Equal(t, []string{"Deployment/web", "cpu:", "<unknown>/80%", "1", "3", "0"}, hpa[1:7], "REFERENCE TARGETS MINPODS MAXPODS REPLICAS:\n%s", out)
	csrRow := row(t, out, "certificatesigningrequest.certificates.k8s.io/jane")
	assert.Equal(t, []string{"kubernetes.io/kube-apiserver-client", "minicp-admin", "24h", "Approved"}, csrRow[2:], "SIGNERNAME REQUESTOR REQUESTEDDURATION CONDITION:\n%s", out)
}
