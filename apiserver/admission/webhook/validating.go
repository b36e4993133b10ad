package webhook

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"

	admissionregistrationv1 "github.com/minicp/minicp/api/admissionregistration/v1"
	"github.com/minicp/minicp/api/apierrors"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/admission"
	"github.com/minicp/minicp/apiserver/webhookclient"
	"github.com/minicp/minicp/logging"
)

// Validating is the ValidatingAdmissionWebhook plugin: for each request it
// calls, all at once, the webhooks of the ValidatingWebhookConfigurations
// whose rules and selectors match, waits for every answer, and rejects the
// request if any webhook denies it or fails under failurePolicy Fail. When
// several do, the error of the first in call order is returned (upstream
// returns whichever arrives first).
//
// The zero value with Configurations set is ready to use; it is safe for
// concurrent use. Validate starts one goroutine per matching webhook and
// returns only after all of them have.
//
// Upstream: k8s.io/apiserver/pkg/admission/plugin/webhook/validating
// (Plugin, validatingDispatcher).
type Validating struct {
	// Configurations lists the ValidatingWebhookConfigurations. Nil means
	// none.
	Configurations ConfigurationSource
	// Namespaces, Services, Resources and Logger are as in Mutating.
	Namespaces admission.NamespaceGetter
	Services   webhookclient.ServiceResolver
	Resources  ResourceLister
	Logger     *slog.Logger

	// clients keeps the webhooks' HTTP clients between calls.
	clients webhookclient.Client
}

var _ admission.ValidationInterface = (*Validating)(nil)

// Name implements admission.Plugin.
func (*Validating) Name() string { return "ValidatingAdmissionWebhook" }

// Handles implements admission.Plugin: every operation; the webhooks'
// rules decide.
func (*Validating) Handles(admission.Operation) bool { return true }

// Validate implements admission.ValidationInterface.
func (v *Validating) Validate(ctx context.Context, a *admission.Attributes) error {
	if v.Configurations == nil || exempt(a) {
		return nil
	}
	configs, err := v.Configurations.ValidatingWebhookConfigurations(ctx)
	if err != nil {
		return apierrors.NewInternalError(err)
	}
	match := matcher{namespaces: v.Namespaces, resources: v.Resources}
	var invs []*invocation
	objs := map[runtime.GroupVersionKind]reviewObjects{}
	for _, h := range validatingHooks(configs) {
		inv, err := match.shouldCall(ctx, h, a)
		if err != nil {
			return err
		}
		if inv == nil {
			continue
		}
		invs = append(invs, inv)
		// Encoded here, once per kind, so the calls share them
		// read-only instead of each reading the object.
		if _, ok := objs[inv.kind]; !ok {
			if objs[inv.kind], err = encodeObjects(a, inv.kind); err != nil {
				return apierrors.NewInternalError(err)
			}
		}
	}
	if len(invs) == 0 {
		return nil
	}
	if ctx.Err() != nil {
		return apierrors.NewTimeoutError("Timeout: request did not complete within requested timeout")
	}
	// Each call writes only its own slot, so errs needs no lock; Wait
	// orders the writes before the reads below.
	errs := make([]error, len(invs))
	var wg sync.WaitGroup
	for i, inv := range invs {
		wg.Go(func() {
			defer func() {
				// A panic here would take the whole server down: the
				// handler chain's recovery only covers the request's own
				// goroutine.
				if r := recover(); r != nil {
					errs[i] = apierrors.NewInternalError(fmt.Errorf("validating webhook %q: panic: %v", inv.hook.name, r))
				}
			}()
			errs[i] = v.call(ctx, inv, a, objs[inv.kind])
		})
	}
	wg.Wait()
	log := logging.OrDiscard(v.Logger).With("component", "admission")
	var first error
	for i, err := range errs {
		if err == nil {
			continue
		}
		h := invs[i].hook
		var callErr *callError
		if errors.As(err, &callErr) {
			if h.failurePolicy == admissionregistrationv1.Ignore {
				// Failing open is the one outcome nobody else sees: log it.
				log.WarnContext(ctx, "failed calling webhook, failing open", "webhook", h.name, "err", err)
				continue
			}
			err = apierrors.NewInternalError(err)
		}
		if first == nil {
			first = err
		}
	}
	return first
}

// call calls one webhook and returns its denial or failure.
func (v *Validating) call(ctx context.Context, inv *invocation, a *admission.Attributes, objs reviewObjects) error {
	h := inv.hook
	if a.DryRun {
		if err := checkDryRun(h); err != nil {
			return err
		}
	}
	review, err := newReview(a, inv, objs)
	if err != nil {
		return &callError{webhookName: h.name, reason: err}
	}
	resp, err := caller{services: v.Services, clients: &v.clients}.call(ctx, h, review, false)
	if err != nil {
		return err
	}
	logResponse(ctx, v.Logger, "admission.validating", h, a, resp)
	if !resp.Allowed {
		return deniedError(a, h.name, resp.Result)
	}
	return nil
}
