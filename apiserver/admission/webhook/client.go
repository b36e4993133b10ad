package webhook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	admissionv1 "github.com/minicp/minicp/api/admission/v1"
	admissionregistrationv1 "github.com/minicp/minicp/api/admissionregistration/v1"
	"github.com/minicp/minicp/apiserver/webhookclient"
)

// caller makes the HTTPS calls to webhooks, through clients shared by
// every call to the same webhook. It is safe for concurrent use.
type caller struct {
	services webhookclient.ServiceResolver
	clients  *webhookclient.Client
}

// call POSTs review to h and returns the response, checked: an
// AdmissionReview v1 echoing the request's uid, with a patch only from a
// mutating webhook (and then with its type). Every failure is a
// *callError. The call is bounded by h's timeout.
//
// Upstream: k8s.io/apiserver/pkg/admission/plugin/webhook/mutating
// (mutatingDispatcher.callAttrMutatingHook) and validating
// (validatingDispatcher.callHook), and k8s.io/apiserver/pkg/util/webhook
// (ClientManager.HookClient).
func (c caller) call(ctx context.Context, h *hook, review *admissionv1.AdmissionReview, mutating bool) (*admissionv1.AdmissionResponse, error) {
	fail := func(format string, args ...any) error {
		return &callError{webhookName: h.name, reason: fmt.Errorf(format, args...)}
	}
	body, err := json.Marshal(review)
	if err != nil {
		return nil, fail("could not create admission objects: %w", err)
	}
	data, err := c.clients.Post(ctx, webhookclient.Request{
		Config: clientConfig(h.clientConfig), Services: c.services,
		Timeout: time.Duration(h.timeoutSeconds) * time.Second, Body: body,
	})
	var configErr *webhookclient.ConfigError
	switch {
	case errors.As(err, &configErr):
		return nil, fail("could not get REST client: %w", configErr.Err)
	case err != nil:
		return nil, fail("failed to call webhook: %w", err)
	}
	var answer admissionv1.AdmissionReview
	if err := json.Unmarshal(data, &answer); err != nil {
		return nil, fail("failed to call webhook: decode AdmissionReview: %w", err)
	}
	out, err := verifyResponse(review.Request.UID, mutating, &answer)
	if err != nil {
		return nil, fail("received invalid webhook response: %w", err)
	}
	return out, nil
}

// clientConfig is cc in the form webhookclient takes, with the Service
// port defaulted.
func clientConfig(cc *admissionregistrationv1.WebhookClientConfig) webhookclient.ClientConfig {
	out := webhookclient.ClientConfig{CABundle: cc.CABundle}
	if cc.URL != nil {
		out.URL = *cc.URL
	}
	if svc := cc.Service; svc != nil {
		out.Service = &webhookclient.ServiceReference{
			Namespace: svc.Namespace, Name: svc.Name, Path: deref(svc.Path, "/"), Port: deref(svc.Port, 443),
		}
	}
	return out
}
