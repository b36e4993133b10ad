package main

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"time"

	admissionv1 "github.com/minicp/minicp/api/admission/v1"
	admissionregistrationv1 "github.com/minicp/minicp/api/admissionregistration/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/resource"
)

// maxReplicas is the most servers a Database may ask for: a rule of this
// operator (say, of the licences it has), which is what a webhook is for;
// the shape of a Database is the schema's to check.
const maxReplicas = 5

// webhookPath is where the webhook serves AdmissionReviews.
const webhookPath = "/validate-databases"

// maxReviewBytes bounds the AdmissionReview read: it carries at most two
// Databases (object and oldObject), a few KiB.
const maxReviewBytes = 1 << 20

// shutdownTimeout bounds how long Start waits for reviews in flight when
// it stops; the API server gives a webhook at most timeoutSeconds anyway.
const shutdownTimeout = 5 * time.Second

// Webhook is the operator's validating admission webhook: an HTTPS
// server in the operator's process that the API server POSTs an
// admission.k8s.io/v1 AdmissionReview to before it stores a Database,
// and that answers whether the Database may be stored. It runs on the
// validating admission step of the request path, after the schema
// validation and just before etcd.
type Webhook struct {
	ln    net.Listener
	srv   *http.Server
	caPEM []byte
}

// NewWebhook makes the webhook's certificates (valid from now) and
// listens on a free port of 127.0.0.1. Start serves.
func NewWebhook(now time.Time) (*Webhook, error) {
	caPEM, cert, err := webhookCerts(now)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("webhook: %w", err)
	}
	w := &Webhook{ln: ln, caPEM: caPEM}
	mux := http.NewServeMux()
	mux.Handle("POST "+webhookPath, w)
	w.srv = &http.Server{
		Handler:           mux,
		TLSConfig:         &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12},
		ReadHeaderTimeout: shutdownTimeout,
	}
	return w, nil
}

// URL is where the API server calls the webhook.
func (w *Webhook) URL() string { return "https://" + w.ln.Addr().String() + webhookPath }

// Start serves reviews until ctx is done, then waits for those in flight
// (up to shutdownTimeout) and returns.
func (w *Webhook) Start(ctx context.Context) error {
	// Buffer 1: Serve's error is read only if it ends before ctx.
	errCh := make(chan error, 1)
	go func() { errCh <- w.srv.ServeTLS(w.ln, "", "") }()
	select {
	case err := <-errCh:
		return fmt.Errorf("webhook: %w", err)
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownTimeout)
	defer cancel()
	if err := w.srv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("webhook: %w", err)
	}
	if err := <-errCh; !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("webhook: %w", err)
	}
	return nil
}

// Configuration is the ValidatingWebhookConfiguration that registers the
// webhook: the API server calls its URL, trusting only the webhook's own
// CA, for every create and update of a Database (not of its status,
// which is the operator's to write). failurePolicy Fail: when the webhook
// cannot answer, Databases are refused rather than stored unchecked.
func (w *Webhook) Configuration() *admissionregistrationv1.ValidatingWebhookConfiguration {
	url := w.URL()
	fail := admissionregistrationv1.Fail
	none := admissionregistrationv1.SideEffectClassNone
	timeout := int32(5) // seconds; the checks take microseconds
	return &admissionregistrationv1.ValidatingWebhookConfiguration{
		ObjectMeta: metav1.ObjectMeta{Name: "databases.example.com"},
		Webhooks: []admissionregistrationv1.ValidatingWebhook{{
			Name:         "validate.databases.example.com",
			ClientConfig: admissionregistrationv1.WebhookClientConfig{URL: &url, CABundle: w.caPEM},
			Rules: []admissionregistrationv1.RuleWithOperations{{
				Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Create, admissionregistrationv1.Update},
				Rule: admissionregistrationv1.Rule{
					APIGroups: []string{databasesGVR.Group}, APIVersions: []string{databasesGVR.Version},
					Resources: []string{databasesGVR.Resource},
				},
			}},
			FailurePolicy:           &fail,
			SideEffects:             &none,
			TimeoutSeconds:          &timeout,
			AdmissionReviewVersions: []string{"v1"},
		}},
	}
}

// ServeHTTP answers one AdmissionReview: the response echoes the
// request's uid and says whether the Database is allowed, with the
// reasons when it is not.
func (w *Webhook) ServeHTTP(rw http.ResponseWriter, req *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(rw, req.Body, maxReviewBytes))
	if err != nil {
		http.Error(rw, err.Error(), http.StatusRequestEntityTooLarge)
		return
	}
	var review admissionv1.AdmissionReview
	if err := json.Unmarshal(body, &review); err != nil || review.Request == nil {
		http.Error(rw, "expected an admission.k8s.io/v1 AdmissionReview with a request", http.StatusBadRequest)
		return
	}
	resp := &admissionv1.AdmissionResponse{UID: review.Request.UID, Allowed: true}
	if problems := admit(review.Request); len(problems) > 0 {
		resp.Allowed = false
		resp.Result = &metav1.Status{
			Status: metav1.StatusFailure, Code: http.StatusForbidden, Reason: metav1.StatusReasonForbidden,
			Message: strings.Join(problems, "; "),
		}
	}
	rw.Header().Set("Content-Type", "application/json")
	// The answer is an AdmissionReview too, of the version asked in. A
	// failed write means the API server hung up: there is no one to tell.
	_ = json.NewEncoder(rw).Encode(admissionv1.AdmissionReview{
		TypeMeta: metav1.TypeMeta{APIVersion: admissionv1.SchemeGroupVersion.String(), Kind: "AdmissionReview"},
		Response: resp,
	})
}

// admit returns why req may not proceed, or nothing.
func admit(req *admissionv1.AdmissionRequest) []string {
	var db Database
	if err := json.Unmarshal(req.Object, &db); err != nil {
		return []string{"not a Database: " + err.Error()}
	}
	if db.DeletionTimestamp != nil {
		return nil // being deleted: let the operator remove its finalizer
	}
	problems := validateSpec(db.Spec)
	if req.Operation == admissionv1.Update {
		var old Database
		if err := json.Unmarshal(req.OldObject, &old); err == nil && old.Spec.Engine != db.Spec.Engine {
			problems = append(problems, fmt.Sprintf("spec.engine: Forbidden: may not change from %q to %q (the data would not be readable)", old.Spec.Engine, db.Spec.Engine))
		}
	}
	return problems
}

// validateSpec checks the rules of the operator, in the wording of
// Kubernetes' field errors.
func validateSpec(spec DatabaseSpec) []string {
	var problems []string
	if _, ok := engines[spec.Engine]; !ok {
		var known []string
		for name := range engines {
			known = append(known, fmt.Sprintf("%q", name))
		}
		slices.Sort(known)
		problems = append(problems, fmt.Sprintf("spec.engine: Unsupported value: %q: supported values: %s", spec.Engine, strings.Join(known, ", ")))
	}
	if spec.Version == "" {
		problems = append(problems, "spec.version: Required value")
	}
	if spec.Replicas < 1 || spec.Replicas > maxReplicas {
		problems = append(problems, fmt.Sprintf("spec.replicas: Invalid value: %d: must be between 1 and %d", spec.Replicas, maxReplicas))
	}
	if spec.Storage != "" {
		if _, err := resource.ParseQuantity(spec.Storage); err != nil {
			problems = append(problems, fmt.Sprintf("spec.storage: Invalid value: %q: %v", spec.Storage, err))
		}
	}
	return problems
}
