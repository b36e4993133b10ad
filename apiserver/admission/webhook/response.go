package webhook

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	admissionv1 "github.com/minicp/minicp/api/admission/v1"
	"github.com/minicp/minicp/apiserver/admission"
	"github.com/minicp/minicp/logging"
)

// verifyResponse checks a webhook's answer.
//
// Upstream: k8s.io/apiserver/pkg/admission/plugin/webhook/request (VerifyAdmissionResponse).
func verifyResponse(uid string, mutating bool, review *admissionv1.AdmissionReview) (*admissionv1.AdmissionResponse, error) {
	r := review.Response
	if r == nil {
		return nil, errors.New("webhook response was absent")
	}
	if r.UID != uid {
		return nil, fmt.Errorf("expected response.uid=%q, got %q", uid, r.UID)
	}
	if want := admissionv1.SchemeGroupVersion.String(); review.APIVersion != want || review.Kind != "AdmissionReview" {
		return nil, fmt.Errorf("expected webhook response of %s, Kind=AdmissionReview, got %s, Kind=%s", want, review.APIVersion, review.Kind)
	}
	if !mutating {
		if len(r.Patch) > 0 {
			return nil, errors.New("validating webhook may not return response.patch")
		}
		if r.PatchType != nil {
			return nil, errors.New("validating webhook may not return response.patchType")
		}
		return r, nil
	}
	switch {
	case len(r.Patch) > 0 && r.PatchType == nil:
		return nil, errors.New("webhook returned response.patch but not response.patchType")
	case len(r.Patch) == 0 && r.PatchType != nil:
		return nil, errors.New("webhook returned response.patchType but not response.patch")
	case r.PatchType != nil && *r.PatchType == "":
		return nil, fmt.Errorf("webhook returned invalid response.patchType of %q", *r.PatchType)
	}
	return r, nil
}

// logResponse logs one call as a Debug hop, with the response's warnings
// and audit annotations, which admission cannot hand to the client or to
// the audit log.
func logResponse(ctx context.Context, logger *slog.Logger, hop string, h *hook, a *admission.Attributes, resp *admissionv1.AdmissionResponse) {
	log := logging.OrDiscard(logger)
	log.DebugContext(ctx, "called webhook", "hop", hop, "component", "admission", "webhook", h.name,
		"resource", a.Resource.Resource, "namespace", a.Namespace, "name", a.Name, "allowed", resp.Allowed)
	for _, w := range resp.Warnings {
		log.InfoContext(ctx, "webhook warning", "component", "admission", "webhook", h.name, "warning", w)
	}
	for k, val := range resp.AuditAnnotations {
		log.DebugContext(ctx, "webhook audit annotation", "component", "admission", "webhook", h.name, "key", h.name+"/"+k, "value", val)
	}
}
