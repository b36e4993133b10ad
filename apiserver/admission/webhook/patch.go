package webhook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"

	jsonpatch "github.com/evanphx/json-patch/v5"

	admissionv1 "github.com/minicp/minicp/api/admission/v1"
	"github.com/minicp/minicp/api/apierrors"
	"github.com/minicp/minicp/api/runtime"
)

// applyPatch applies a mutating webhook's JSON patch to obj, in place, and
// reports whether the object changed. sent is the JSON the webhook was
// sent (obj presented as the invocation's kind); the patched JSON is
// decoded into a new value of obj's Go type (fields the type does not have
// are dropped, as upstream's decoder drops them), given obj's own kind and
// apiVersion back, and copied over *obj: the handlers keep working with the
// object they passed in the Attributes, so it must be that object that
// changes. An undecodable patch is the webhook's fault (a *callError,
// subject to the failure policy); a patch that does not apply or yields an
// object that does not decode is a 500, as upstream.
//
// Upstream: k8s.io/apiserver/pkg/admission/plugin/webhook/mutating
// (mutatingDispatcher.callAttrMutatingHook, from "if len(result.Patch) == 0").
func applyPatch(h *hook, obj runtime.Object, sent json.RawMessage, resp *admissionv1.AdmissionResponse) (bool, error) {
	if len(resp.Patch) == 0 {
		return false, nil
	}
	patch, err := jsonpatch.DecodePatch(resp.Patch)
	if err != nil {
		return false, &callError{webhookName: h.name, reason: fmt.Errorf("received undecodable patch in webhook response: %w", err)}
	}
	if len(patch) == 0 {
		return false, nil
	}
	if obj == nil {
		return false, apierrors.NewInternalError(fmt.Errorf("admission webhook %q attempted to modify the object, which is not supported for this operation", h.name))
	}
	if *resp.PatchType != admissionv1.PatchTypeJSONPatch {
		return false, &callError{webhookName: h.name, reason: fmt.Errorf("unsupported patch type %q", *resp.PatchType)}
	}
	patched, err := patch.Apply(sent)
	if err != nil {
		return false, apierrors.NewInternalError(err)
	}
	target := reflect.ValueOf(obj)
	if target.Kind() != reflect.Pointer || target.IsNil() {
		return false, apierrors.NewInternalError(fmt.Errorf("cannot patch an object of type %T", obj))
	}
	fresh := reflect.New(target.Type().Elem()).Interface().(runtime.Object)
	if _, err := runtime.Decode(patched, fresh); err != nil {
		return false, apierrors.NewInternalError(err)
	}
	// Compare encodings rather than Go values: a nil and an empty list
	// encode alike, and a patch whose operations change nothing (a lone
	// "test", a label set to the value it had) must not count as a change
	// that reinvokes webhooks.
	after, err := json.Marshal(fresh)
	if err != nil {
		return false, apierrors.NewInternalError(err)
	}
	changed := !bytes.Equal(after, sent)
	*fresh.GetTypeMeta() = *obj.GetTypeMeta()
	target.Elem().Set(reflect.ValueOf(fresh).Elem())
	return changed, nil
}
