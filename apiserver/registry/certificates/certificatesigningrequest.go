package certificates

import (
	"context"
	"time"

	"github.com/minicp/minicp/api/apierrors"
	certificatesv1 "github.com/minicp/minicp/api/certificates/v1"
	"github.com/minicp/minicp/api/fields"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/validation"
	"github.com/minicp/minicp/apiserver/registry"
	"github.com/minicp/minicp/apiserver/request"
	"github.com/minicp/minicp/clock"
)

// Strategy is the rules of the certificatesigningrequests resource. On
// create the spec's username, uid and groups are the requesting user's,
// whatever the client sent, and the status is empty: nobody creates a
// pre-approved request. An update of the main resource changes metadata
// only: spec and status are kept as stored.
//
// Upstream: k8s.io/kubernetes/pkg/registry/certificates/certificates (csrStrategy).
type Strategy struct{ registry.DefaultStrategy }

// PrepareForCreate implements registry.Strategy.
func (Strategy) PrepareForCreate(ctx context.Context, obj runtime.Object) {
	csr := obj.(*certificatesv1.CertificateSigningRequest)
	csr.Spec.Username, csr.Spec.UID, csr.Spec.Groups, csr.Spec.Extra = "", "", nil, nil
	if u, ok := request.UserFrom(ctx); ok {
		csr.Spec.Username, csr.Spec.UID = u.Name, u.UID
		csr.Spec.Groups = append([]string(nil), u.Groups...)
	}
	csr.Status = certificatesv1.CertificateSigningRequestStatus{}
}

// PrepareForUpdate implements registry.Strategy.
func (Strategy) PrepareForUpdate(_ context.Context, obj, old runtime.Object) {
	csr, prev := obj.(*certificatesv1.CertificateSigningRequest), old.(*certificatesv1.CertificateSigningRequest)
	csr.Spec, csr.Status = prev.Spec, prev.Status
}

// Validate implements registry.Strategy.
func (Strategy) Validate(_ context.Context, obj runtime.Object) apierrors.FieldErrors {
	return validation.ValidateCertificateSigningRequestCreate(obj.(*certificatesv1.CertificateSigningRequest))
}

// ValidateUpdate implements registry.Strategy.
func (Strategy) ValidateUpdate(_ context.Context, obj, old runtime.Object) apierrors.FieldErrors {
	return validation.ValidateCertificateSigningRequestUpdate(obj.(*certificatesv1.CertificateSigningRequest), old.(*certificatesv1.CertificateSigningRequest))
}

// SelectableFields implements registry.Strategy with spec.signerName, so
// a signer can watch only its own requests, as upstream.
func (Strategy) SelectableFields(obj runtime.Object) fields.Set {
	return fields.Set{"spec.signerName": obj.(*certificatesv1.CertificateSigningRequest).Spec.SignerName}
}

// ApprovalStrategy is the rules of certificatesigningrequests/approval:
// only status.conditions change, so an approver adds Approved or Denied
// (validation refuses both, and removing either). Conditions get the
// timestamps of the write.
//
// Upstream: k8s.io/kubernetes/pkg/registry/certificates/certificates (csrApprovalStrategy).
type ApprovalStrategy struct {
	Strategy
	// Clock stamps the conditions. Defaults to clock.Real.
	Clock clock.Clock
}

// PrepareForUpdate implements registry.Strategy.
func (s ApprovalStrategy) PrepareForUpdate(_ context.Context, obj, old runtime.Object) {
	csr, prev := obj.(*certificatesv1.CertificateSigningRequest), old.(*certificatesv1.CertificateSigningRequest)
	populateConditionTimestamps(csr, prev, now(s.Clock))
	conditions := csr.Status.Conditions
	csr.Spec, csr.Status = prev.Spec, prev.Status
	csr.Status.Conditions = conditions
}

// ValidateUpdate implements registry.Strategy.
func (ApprovalStrategy) ValidateUpdate(_ context.Context, obj, old runtime.Object) apierrors.FieldErrors {
	return validation.ValidateCertificateSigningRequestApprovalUpdate(obj.(*certificatesv1.CertificateSigningRequest), old.(*certificatesv1.CertificateSigningRequest))
}

// StatusStrategy is the rules of certificatesigningrequests/status: the
// signer sets the certificate (once) and conditions other than Approved
// and Denied, which keep their stored values.
//
// Upstream: k8s.io/kubernetes/pkg/registry/certificates/certificates (csrStatusStrategy).
type StatusStrategy struct {
	Strategy
	// Clock stamps the conditions. Defaults to clock.Real.
	Clock clock.Clock
}

// PrepareForUpdate implements registry.Strategy.
func (s StatusStrategy) PrepareForUpdate(_ context.Context, obj, old runtime.Object) {
	csr, prev := obj.(*certificatesv1.CertificateSigningRequest), old.(*certificatesv1.CertificateSigningRequest)
	csr.Spec = prev.Spec
	// A different number of Approved or Denied conditions cannot be
	// preserved: validation then reports the change.
	preserveConditions(csr, prev, certificatesv1.CertificateApproved)
	preserveConditions(csr, prev, certificatesv1.CertificateDenied)
	populateConditionTimestamps(csr, prev, now(s.Clock))
}

// ValidateUpdate implements registry.Strategy.
func (StatusStrategy) ValidateUpdate(_ context.Context, obj, old runtime.Object) apierrors.FieldErrors {
	return validation.ValidateCertificateSigningRequestStatusUpdate(obj.(*certificatesv1.CertificateSigningRequest), old.(*certificatesv1.CertificateSigningRequest))
}

func now(c clock.Clock) time.Time {
	if c == nil {
		c = clock.Real
	}
	return c.Now()
}

// preserveConditions puts prev's conditions of type t back in place of
// csr's, when both have as many.
//
// Upstream: k8s.io/kubernetes/pkg/registry/certificates/certificates (preserveConditionInstances).
func preserveConditions(csr, prev *certificatesv1.CertificateSigningRequest, t certificatesv1.RequestConditionType) {
	oldIdx, newIdx := conditionIndices(prev, t), conditionIndices(csr, t)
	if len(oldIdx) != len(newIdx) {
		return
	}
	for i, o := range oldIdx {
		csr.Status.Conditions[newIdx[i]] = prev.Status.Conditions[o]
	}
}

func conditionIndices(csr *certificatesv1.CertificateSigningRequest, t certificatesv1.RequestConditionType) []int {
	var idx []int
	for i, c := range csr.Status.Conditions {
		if c.Type == t {
			idx = append(idx, i)
		}
	}
	return idx
}

// populateConditionTimestamps sets the lastUpdateTime of conditions that
// have none to now, and their lastTransitionTime to that of the stored
// condition of the same type and status, or now.
//
// Upstream: k8s.io/kubernetes/pkg/registry/certificates/certificates (populateConditionTimestamps).
func populateConditionTimestamps(csr, prev *certificatesv1.CertificateSigningRequest, now time.Time) {
	for i := range csr.Status.Conditions {
		c := &csr.Status.Conditions[i]
		if c.LastUpdateTime.IsZero() {
			c.LastUpdateTime = metav1.NewTime(now)
		}
		if !c.LastTransitionTime.IsZero() {
			continue
		}
		c.LastTransitionTime = metav1.NewTime(now)
		for _, o := range prev.Status.Conditions {
			if o.Type == c.Type && o.Status == c.Status && !o.LastTransitionTime.IsZero() {
				c.LastTransitionTime = o.LastTransitionTime
				break
			}
		}
	}
}
