package certificates

import (
	"time"

	certificatesv1 "github.com/minicp/minicp/api/certificates/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/printers"
)

// Table prints requests as `kubectl get csr` does: NAME AGE SIGNERNAME
// REQUESTOR REQUESTEDDURATION CONDITION.
//
// Upstream: k8s.io/kubernetes/pkg/printers/internalversion (printCertificateSigningRequest).
var Table = printers.Printer{
	Columns: []metav1.TableColumnDefinition{
		printers.NameColumn,
		printers.AgeColumn,
		{Name: "SignerName", Type: "string", Description: "Requested signer for the request. It is a qualified name in the form: `scope-hostname.io/name`. If empty, it will be defaulted:\n 1. If it's a kubelet client certificate, it is assigned\n    \"kubernetes.io/kube-apiserver-client-kubelet\".\n 2. If it's a kubelet serving certificate, it is assigned\n    \"kubernetes.io/kubelet-serving\".\n 3. Otherwise, it is assigned \"kubernetes.io/legacy-unknown\".\nDistribution of trust for signers happens out of band. You can select on this field using `spec.signerName`."},
		{Name: "Requestor", Type: "string", Description: "Base64-encoded PKCS#10 CSR data"},
		{Name: "RequestedDuration", Type: "string", Description: "expirationSeconds is the requested duration of validity of the issued certificate. The certificate signer may issue a certificate with a different validity duration so a client must check the delta between the notBefore and and notAfter fields in the issued certificate to determine the actual duration.\n\nThe v1.22+ in-tree implementations of the well-known Kubernetes signers will honor this field as long as the requested duration is not greater than the maximum duration they will honor per the --cluster-signing-duration CLI flag to the Kubernetes controller manager.\n\nCertificate signers may not honor this field for various reasons:\n\n  1. Old signer that is unaware of the field (such as the in-tree\n     implementations prior to v1.22)\n  2. Signer whose configured maximum is shorter than the requested duration\n  3. Signer whose configured minimum is longer than the requested duration\n\nThe minimum valid value for expirationSeconds is 600, i.e. 10 minutes."},
		{Name: "Condition", Type: "string", Description: "Conditions applied to the request, such as approval or denial."},
	},
	Cells: func(obj runtime.Object, now time.Time) []any {
		csr := obj.(*certificatesv1.CertificateSigningRequest)
		signer := "<none>"
		if csr.Spec.SignerName != "" {
			signer = csr.Spec.SignerName
		}
		duration := "<none>"
		if e := csr.Spec.ExpirationSeconds; e != nil {
			duration = printers.HumanDuration(time.Duration(*e) * time.Second)
		}
		return []any{csr.Name, printers.Age(obj, now), signer, csr.Spec.Username, duration, conditionCell(csr)}
	},
}

// conditionCell is the CONDITION column: Denied, Approved or Pending, in
// that precedence, then ",Failed" and ",Issued" when they apply.
//
// Upstream: k8s.io/kubernetes/pkg/printers/internalversion (extractCSRStatus).
func conditionCell(csr *certificatesv1.CertificateSigningRequest) string {
	var approved, denied, failed bool
	for _, c := range csr.Status.Conditions {
		switch c.Type {
		case certificatesv1.CertificateApproved:
			approved = true
		case certificatesv1.CertificateDenied:
			denied = true
		case certificatesv1.CertificateFailed:
			failed = true
		}
	}
	status := "Pending"
	if denied {
		status = "Denied"
	} else if approved {
		status = "Approved"
	}
	if failed {
		status += ",Failed"
	}
	if len(csr.Status.Certificate) > 0 {
		status += ",Issued"
	}
	return status
}
