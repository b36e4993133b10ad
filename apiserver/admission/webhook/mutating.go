package webhook

import (
	"context"
	"errors"
	"log/slog"

	admissionregistrationv1 "github.com/minicp/minicp/api/admissionregistration/v1"
	"github.com/minicp/minicp/api/apierrors"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/admission"
	"github.com/minicp/minicp/apiserver/webhookclient"
	"github.com/minicp/minicp/logging"
)

// Mutating is the MutatingAdmissionWebhook plugin: for each request it
// calls, one after the other, the webhooks of the
// MutatingWebhookConfigurations whose rules and selectors match, and
// applies the JSON patch each one answers before calling the next, which
// so sees its predecessors' changes. A webhook that denies, or fails under
// failurePolicy Fail, stops the request.
//
// Reinvocation: when a webhook changes the object, every webhook with
// reinvocationPolicy IfNeeded that was called before it is called once
// more after the first round, in order, so that it sees the final object;
// there is never a third round.
//
// The zero value with Configurations set is ready to use; it is safe for
// concurrent use. It modifies Attributes.Object in place.
//
// Upstream: k8s.io/apiserver/pkg/admission/plugin/webhook/mutating (Plugin,
// mutatingDispatcher) and k8s.io/apiserver/pkg/admission (reinvoker).
type Mutating struct {
	// Configurations lists the MutatingWebhookConfigurations. Nil means
	// none.
	Configurations ConfigurationSource
	// Namespaces reads the namespaces namespaceSelectors are matched
	// against. Required for webhooks with a non-empty namespaceSelector.
	Namespaces admission.NamespaceGetter
	// Services resolves webhooks' service references. Required for
	// webhooks that name a Service.
	Services webhookclient.ServiceResolver
	// Resources lists the served resources for matchPolicy Equivalent.
	// Defaults to none: Equivalent then matches as Exact does.
	Resources ResourceLister
	// SetDefaults defaults an object in place; it runs after every patch,
	// as upstream defaults each patched object. Defaults to none.
	SetDefaults func(obj runtime.Object)
	// Logger defaults to a discard logger.
	Logger *slog.Logger

	// clients keeps the webhooks' HTTP clients between calls.
	clients webhookclient.Client
}

var _ admission.MutationInterface = (*Mutating)(nil)

// Name implements admission.Plugin.
func (*Mutating) Name() string { return "MutatingAdmissionWebhook" }

// Handles implements admission.Plugin: every operation; the webhooks'
// rules decide.
func (*Mutating) Handles(admission.Operation) bool { return true }

// Admit implements admission.MutationInterface.
func (m *Mutating) Admit(ctx context.Context, a *admission.Attributes) error {
	if m.Configurations == nil || exempt(a) {
		return nil
	}
	configs, err := m.Configurations.MutatingWebhookConfigurations(ctx)
	if err != nil {
		return apierrors.NewInternalError(err)
	}
	hooks := mutatingHooks(configs)
	if len(hooks) == 0 {
		return nil
	}
	match := matcher{namespaces: m.Namespaces, resources: m.Resources}
	log := logging.OrDiscard(m.Logger).With("component", "admission")
	// previouslyInvoked holds the IfNeeded webhooks called since the
	// object last changed; reinvoke those called before some change.
	// Upstream: webhookReinvokeContext.
	previouslyInvoked, reinvoke := map[string]bool{}, map[string]bool{}
	for round := range 2 {
		if round == 1 && len(reinvoke) == 0 {
			break
		}
		for _, h := range hooks {
			inv, err := match.shouldCall(ctx, h, a)
			if err != nil {
				return err
			}
			// A webhook not called in the first round is not called in
			// the second either, even if the object now matches it.
			if inv == nil || (round == 1 && !reinvoke[h.uid]) {
				continue
			}
			changed, err := m.call(ctx, inv, a)
			if changed {
				for uid := range previouslyInvoked {
					reinvoke[uid] = true
				}
				clear(previouslyInvoked)
			}
			if h.reinvocationPolicy == admissionregistrationv1.IfNeededReinvocationPolicy {
				previouslyInvoked[h.uid] = true
			}
			if err == nil {
				continue
			}
			var callErr *callError
			if !errors.As(err, &callErr) {
				return err
			}
			if h.failurePolicy != admissionregistrationv1.Ignore {
				return apierrors.NewInternalError(err)
			}
			// Failing open is the one outcome nobody else sees: log it.
			log.WarnContext(ctx, "failed calling webhook, failing open", "webhook", h.name, "err", err)
			if ctx.Err() != nil {
				// The request itself timed out, not only the webhook.
				return apierrors.NewTimeoutError("Timeout: request did not complete within requested timeout")
			}
		}
	}
	return nil
}

// call calls one webhook and applies its patch, reporting whether the
// object changed.
func (m *Mutating) call(ctx context.Context, inv *invocation, a *admission.Attributes) (bool, error) {
	h := inv.hook
	if a.DryRun {
		if err := checkDryRun(h); err != nil {
			return false, err
		}
	}
	objs, err := encodeObjects(a, inv.kind)
	if err != nil {
		return false, &callError{webhookName: h.name, reason: err}
	}
	review, err := newReview(a, inv, objs)
	if err != nil {
		return false, &callError{webhookName: h.name, reason: err}
	}
	resp, err := caller{services: m.Services, clients: &m.clients}.call(ctx, h, review, true)
	if err != nil {
		return false, err
	}
	logResponse(ctx, m.Logger, "admission.mutating", h, a, resp)
	if !resp.Allowed {
		return false, deniedError(a, h.name, resp.Result)
	}
	obj, _ := requestObjects(a)
	changed, err := applyPatch(h, obj, objs.object, resp)
	if err != nil || !changed {
		return false, err
	}
	if m.SetDefaults != nil {
		m.SetDefaults(obj)
	}
	return true, nil
}
