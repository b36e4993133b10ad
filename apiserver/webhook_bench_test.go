package apiserver_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	admissionv1 "github.com/minicp/minicp/api/admission/v1"
	"github.com/minicp/minicp/apiserver/admission/webhook/webhooktest"
)

// BenchmarkValidatingWebhook measures what one validating webhook adds
// to a create: pods created with no webhook, then with a webhook (HTTPS
// on loopback, AdmissionReview JSON both ways) that allows everything,
// in one run. Run with:
//
//	go test -run='^$' -bench=BenchmarkValidatingWebhook -benchmem ./apiserver/
func BenchmarkValidatingWebhook(b *testing.B) {
	s := newTestServer(b)
	seq := 0
	create := func(b *testing.B) {
		for b.Loop() {
			seq++
			s.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces/default/pods", podJSON(fmt.Sprintf("p-%d", seq), nil))
		}
	}
	b.Run("no-webhook", create)
	srv := webhooktest.New(b, func(context.Context, *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse {
		return webhooktest.Allow()
	})
	s.validatingConfig("allow", newValidatingHook("allow.example.com", urlClientConfig(srv)))
	b.Run("one-validating-webhook", create)
}
