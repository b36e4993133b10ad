package apiserver_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	certificatesv1 "github.com/minicp/minicp/api/certificates/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
)

const csrPath = "/apis/certificates.k8s.io/v1/certificatesigningrequests"

// newCSRBody returns a request for a client certificate, signed by a new
// key, claiming to come from someone the server must ignore.
func newCSRBody(t *testing.T, name string) string {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	der, err := x509.CreateCertificateRequest(rand.Reader, &x509.CertificateRequest{Subject: pkix.Name{CommonName: "jane"}}, key)
	require.NoError(t, err)
	csr := certificatesv1.CertificateSigningRequest{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: certificatesv1.CertificateSigningRequestSpec{
			Request:    pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE REQUEST", Bytes: der}),
			SignerName: certificatesv1.KubeAPIServerClientSignerName, Usages: []certificatesv1.KeyUsage{certificatesv1.UsageClientAuth},
			Username: "someone-else", Groups: []string{"system:masters"},
		},
		Status: certificatesv1.CertificateSigningRequestStatus{Conditions: []certificatesv1.CertificateSigningRequestCondition{
			{Type: certificatesv1.CertificateApproved, Status: corev1.ConditionTrue},
		}},
	}
	body, err := json.Marshal(csr)
	require.NoError(t, err)
	return string(body)
}

func TestCertificateSigningRequestApproval(t *testing.T) {
	s := newTestServer(t)
	csr := decode[certificatesv1.CertificateSigningRequest](t, s.mustDo(http.StatusCreated, "POST", csrPath, newCSRBody(t, "jane")))
	assert.Equal(t, "admin", csr.Spec.Username, "the requesting user, whatever the body says")
	assert.Contains(t, csr.Spec.Groups, "system:masters")
	assert.Empty(t, csr.Status.Conditions, "nobody creates a pre-approved request")
	assert.Empty(t, csr.Namespace, "cluster-scoped")

	// The main resource cannot approve, nor change the spec.
	csr.Status.Conditions = []certificatesv1.CertificateSigningRequestCondition{{Type: certificatesv1.CertificateApproved, Status: corev1.ConditionTrue}}
	csr.Spec.SignerName = "example.com/other"
	body, _ := json.Marshal(csr)
	got := decode[certificatesv1.CertificateSigningRequest](t, s.mustDo(http.StatusOK, "PUT", csrPath+"/jane", string(body)))
	assert.Empty(t, got.Status.Conditions)
	assert.Equal(t, certificatesv1.KubeAPIServerClientSignerName, got.Spec.SignerName)

	// The approval subresource approves; the conditions get timestamps.
	csr.ResourceVersion = got.ResourceVersion
	body, _ = json.Marshal(csr)
	got = decode[certificatesv1.CertificateSigningRequest](t, s.mustDo(http.StatusOK, "PUT", csrPath+"/jane/approval", string(body)))
	require.Len(t, got.Status.Conditions, 1)
	assert.Equal(t, certificatesv1.CertificateApproved, got.Status.Conditions[0].Type)
	assert.False(t, got.Status.Conditions[0].LastUpdateTime.IsZero())
	assert.Equal(t, certificatesv1.KubeAPIServerClientSignerName, got.Spec.SignerName, "approval changes conditions only")

	// Denying an approved request, or removing the approval, is refused
	// with upstream's messages.
	tests := []struct {
		name       string
		conditions []certificatesv1.CertificateSigningRequestCondition
		want       string
	}{
		{"approve and deny", append(got.Status.Conditions, certificatesv1.CertificateSigningRequestCondition{Type: certificatesv1.CertificateDenied, Status: corev1.ConditionTrue}),
			`status.conditions[1].type: Invalid value: "Denied": Approved and Denied conditions are mutually exclusive`},
		{"remove approval", nil, `status.conditions: Forbidden: updates may not remove a condition of type "Approved"`},
		{"false approval", []certificatesv1.CertificateSigningRequestCondition{{Type: certificatesv1.CertificateApproved, Status: corev1.ConditionFalse}},
			`status.conditions[0].status: Unsupported value: "False": supported values: "True"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			bad := *got
			bad.Status.Conditions = tc.conditions
			body, _ := json.Marshal(bad)
			r := s.mustDo(http.StatusUnprocessableEntity, "PUT", csrPath+"/jane/approval", string(body))
			assert.Contains(t, r.status(t).Message, tc.want)
		})
	}

	// The status subresource cannot approve either.
	s.mustDo(http.StatusCreated, "POST", csrPath, newCSRBody(t, "joe"))
	r := s.mustDo(http.StatusUnprocessableEntity, "PATCH", csrPath+"/joe/status",
		`{"status":{"conditions":[{"type":"Approved","status":"True"}]}}`, withHeader("Content-Type", mergePatch))
	assert.Contains(t, r.status(t).Message, `status.conditions: Forbidden: updates may not add a condition of type "Approved"`)

	// Deny through a patch of approval, as `kubectl certificate deny` does.
	got = decode[certificatesv1.CertificateSigningRequest](t, s.mustDo(http.StatusOK, "PATCH", csrPath+"/joe/approval",
		`{"status":{"conditions":[{"type":"Denied","status":"True","reason":"No"}]}}`, withHeader("Content-Type", mergePatch)))
	require.Len(t, got.Status.Conditions, 1)
	assert.Equal(t, certificatesv1.CertificateDenied, got.Status.Conditions[0].Type)

	table := decode[metav1.Table](t, s.mustDo(http.StatusOK, "GET", csrPath, "", withHeader("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io")))
	var columns []string
	for _, c := range table.ColumnDefinitions {
		columns = append(columns, c.Name)
	}
	assert.Equal(t, []string{"Name", "Age", "SignerName", "Requestor", "RequestedDuration", "Condition"}, columns)
	require.Len(t, table.Rows, 2)
	assert.Equal(t, []any{"jane", certificatesv1.KubeAPIServerClientSignerName, "admin", "<none>", "Approved"},
		[]any{table.Rows[0].Cells[0], table.Rows[0].Cells[2], table.Rows[0].Cells[3], table.Rows[0].Cells[4], table.Rows[0].Cells[5]})
	assert.Equal(t, "Denied", table.Rows[1].Cells[5])
}

func TestCertificateSigningRequestValidation(t *testing.T) {
	s := newTestServer(t)
	r := s.mustDo(http.StatusUnprocessableEntity, "POST", csrPath,
		`{"metadata":{"name":"bad"},"spec":{"request":"bm90IGEgY3Ny","signerName":"nodomain","usages":["client auth","client auth","flying"]}}`)
	msg := r.status(t).Message
	for _, want := range []string{
		"spec.request: Invalid value:", "PEM block type must be CERTIFICATE REQUEST",
		`spec.usages[1]: Duplicate value: "client auth"`,
		`spec.usages[2]: Unsupported value: "flying"`,
		`spec.signerName: Invalid value: "nodomain": must be a fully qualified domain and path of the form 'example.com/signer-name'`,
	} {
		assert.Contains(t, msg, want)
	}
}
