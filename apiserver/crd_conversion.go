package apiserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"time"

	"github.com/google/uuid"

	"github.com/minicp/minicp/api/apierrors"
	apiextensionsv1 "github.com/minicp/minicp/api/apiextensions/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/meta/v1/unstructured"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/validation"
	"github.com/minicp/minicp/apiserver/webhookclient"
)

// conversionWebhookTimeout bounds a conversion webhook call. CRDs cannot
// set it; upstream's client manager gives conversion webhooks 30s, the
// timeout=30s of its calls.
const conversionWebhookTimeout = 30 * time.Second

// conversionReviewV1beta1 is the older ConversionReview version, sent to
// webhooks that list it first in conversionReviewVersions. Its JSON is
// v1's with another apiVersion.
var conversionReviewV1beta1 = runtime.GroupVersion{Group: apiextensionsv1.GroupName, Version: "v1beta1"}

// webhookConverter converts the custom resources of one CRD whose
// conversion strategy is Webhook by sending them to the CRD's conversion
// webhook in a ConversionReview. It is safe for concurrent use.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apiserver/conversion (webhookConverter).
type webhookConverter struct {
	clientConfig   webhookclient.ClientConfig
	reviewVersions []string
	client         *webhookclient.Client
	services       webhookclient.ServiceResolver
}

// newWebhookConverter returns the converter of crd, nil when its strategy
// is not Webhook.
func (s *Server) newWebhookConverter(crd *apiextensionsv1.CustomResourceDefinition) *webhookConverter {
	c := crd.Spec.Conversion
	if c == nil || c.Strategy != apiextensionsv1.WebhookConverter || c.Webhook == nil || c.Webhook.ClientConfig == nil {
		return nil
	}
	cc := c.Webhook.ClientConfig
	config := webhookclient.ClientConfig{CABundle: cc.CABundle}
	if cc.URL != nil {
		config.URL = *cc.URL
	}
	if svc := cc.Service; svc != nil {
		ref := &webhookclient.ServiceReference{Namespace: svc.Namespace, Name: svc.Name, Port: apiextensionsv1.DefaultServicePort}
		if svc.Path != nil {
			ref.Path = *svc.Path
		}
		if svc.Port != nil {
			ref.Port = *svc.Port
		}
		config.Service = ref
	}
	return &webhookConverter{
		clientConfig: config, reviewVersions: c.Webhook.ConversionReviewVersions,
		client: &s.conversionWebhooks, services: s,
	}
}

// convert converts objs in place to desired ("<group>/<version>") with one
// call of the webhook; objects already at desired are not sent, and with
// none left there is no call. Every failure is a 500 InternalError
// Status worded as upstream's, naming the kind of the first object sent;
// objs are then left as they were.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apiserver/conversion
// (webhookConverter.Convert; one object is checked and worded as
// upstream's single object, several as its list).
func (c *webhookConverter) convert(ctx context.Context, objs []*unstructured.Unstructured, desired string) error {
	var send []*unstructured.Unstructured
	for _, u := range objs {
		if u.APIVersion != desired {
			send = append(send, u)
		}
	}
	if len(send) == 0 {
		return nil
	}
	gvk := send[0].GroupVersionKind()
	converted, err := c.call(ctx, send, desired)
	if err != nil {
		return apierrors.NewInternalError(fmt.Errorf("conversion webhook for %v failed: %v", gvk, err))
	}
	if len(converted) != len(send) {
		return apierrors.NewInternalError(fmt.Errorf("conversion webhook for %v returned %d objects, expected %d", gvk, len(converted), len(send)))
	}
	out := make([]unstructured.Unstructured, len(send))
	for i, raw := range converted {
		if err := checkConverted(send[i], raw, desired, &out[i]); err != nil {
			return apierrors.NewInternalError(fmt.Errorf("conversion webhook for %v returned %s", gvk, err.describe(i, len(send) > 1)))
		}
	}
	for i, u := range send {
		*u = out[i]
	}
	return nil
}

// call sends objs to the webhook and returns the converted objects of a
// successful response, in the version of ConversionReview the CRD prefers.
func (c *webhookConverter) call(ctx context.Context, objs []*unstructured.Unstructured, desired string) ([]json.RawMessage, error) {
	var reviewGV runtime.GroupVersion
	for _, v := range c.reviewVersions {
		if v == apiextensionsv1.SchemeGroupVersion.Version || v == conversionReviewV1beta1.Version {
			reviewGV = runtime.GroupVersion{Group: apiextensionsv1.GroupName, Version: v}
			break
		}
	}
	if reviewGV.Version == "" {
		return nil, errors.New("no supported conversion review versions")
	}
	review := apiextensionsv1.ConversionReview{
		TypeMeta: metav1.TypeMeta{APIVersion: reviewGV.String(), Kind: "ConversionReview"},
		Request:  &apiextensionsv1.ConversionRequest{UID: uuid.NewString(), DesiredAPIVersion: desired},
	}
	for _, u := range objs {
		data, err := json.Marshal(u)
		if err != nil {
			return nil, err
		}
		review.Request.Objects = append(review.Request.Objects, data)
	}
	body, err := json.Marshal(&review)
	if err != nil {
		return nil, err
	}
	data, err := c.client.Post(ctx, webhookclient.Request{
		Config: c.clientConfig, Services: c.services, Timeout: conversionWebhookTimeout, Body: body,
	})
	if err != nil {
		return nil, err
	}
	var answer apiextensionsv1.ConversionReview
	if err := json.Unmarshal(data, &answer); err != nil {
		return nil, err
	}
	// Upstream checks the kind and uid of v1 answers only: v1beta1 never
	// checked them, and webhooks written then still answer without.
	if reviewGV == apiextensionsv1.SchemeGroupVersion {
		want := reviewGV.WithKind("ConversionReview")
		if got := runtime.ParseGroupVersion(answer.APIVersion).WithKind(answer.Kind); got != want {
			return nil, fmt.Errorf("expected webhook response of %v, got %v", want, got)
		}
	}
	if answer.Response == nil {
		return nil, errors.New("no response provided")
	}
	if reviewGV == apiextensionsv1.SchemeGroupVersion && answer.Response.UID != review.Request.UID {
		return nil, fmt.Errorf("expected response.uid=%q, got %q", review.Request.UID, answer.Response.UID)
	}
	if result := answer.Response.Result; result.Status != metav1.StatusSuccess {
		if result.Message != "" {
			return nil, errors.New(result.Message)
		}
		return nil, fmt.Errorf("response.result.status was '%s', not 'Success'", result.Status)
	}
	return answer.Response.ConvertedObjects, nil
}

// convertedError is what is wrong with one converted object.
type convertedError struct {
	// metadata is set for bad labels or annotations.
	metadata bool
	// atIndex is set for a wrong apiVersion or kind, which upstream words
	// with the object's index even when there is only one.
	atIndex bool
	err     error
}

// describe words e, which is about object i of a response of several
// (list) or of one, as upstream does after "returned".
func (e *convertedError) describe(i int, list bool) string {
	switch {
	case list && e.metadata:
		return fmt.Sprintf("invalid metadata in object at index %d: %v", i, e.err)
	case list:
		return fmt.Sprintf("invalid converted object at index %d: %v", i, e.err)
	case e.metadata:
		return fmt.Sprintf("invalid metadata: %v", e.err)
	case e.atIndex:
		return fmt.Sprintf("invalid object at index 0: %v", e.err)
	}
	return fmt.Sprintf("invalid object: %v", e.err)
}

// checkConverted decodes raw, the webhook's conversion of original, into
// out and checks it as upstream does: of the desired apiVersion, the same
// kind, name, namespace and uid. out's metadata is then original's, with
// the labels and annotations the webhook returned (checked as a client's
// would be when they changed). out shares original's metadata: the caller
// replaces original with out, or only encodes out.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apiserver/conversion
// (validateConvertedObject, restoreObjectMeta).
func checkConverted(original *unstructured.Unstructured, raw json.RawMessage, desired string, out *unstructured.Unstructured) *convertedError {
	if err := json.Unmarshal(raw, out); err != nil {
		return &convertedError{err: err}
	}
	if want, got := runtime.ParseGroupVersion(desired), runtime.ParseGroupVersion(out.APIVersion); want != got {
		return &convertedError{atIndex: true, err: fmt.Errorf("invalid groupVersion (expected %v, received %v)", want, got)}
	}
	if original.Kind != out.Kind {
		return &convertedError{atIndex: true, err: fmt.Errorf("invalid kind (expected %v, received %v)", original.Kind, out.Kind)}
	}
	switch {
	case original.Name != out.Name:
		return &convertedError{err: fmt.Errorf("must have the same name: %v != %v", original.Name, out.Name)}
	case original.Namespace != out.Namespace:
		return &convertedError{err: fmt.Errorf("must have the same namespace: %v != %v", original.Namespace, out.Namespace)}
	case original.UID != out.UID:
		return &convertedError{err: fmt.Errorf("must have the same UID: %v != %v", original.UID, out.UID)}
	}
	if !maps.Equal(original.Labels, out.Labels) {
		if errs := validation.ValidateLabels(out.Labels, "metadata.labels"); len(errs) > 0 {
			return &convertedError{metadata: true, err: errs}
		}
	}
	if !maps.Equal(original.Annotations, out.Annotations) {
		// Upstream's path, singular included.
		if errs := validation.ValidateAnnotations(out.Annotations, "metadata.annotation"); len(errs) > 0 {
			return &convertedError{metadata: true, err: errs}
		}
	}
	meta := original.ObjectMeta
	meta.Labels, meta.Annotations = out.Labels, out.Annotations
	out.ObjectMeta = meta
	return nil
}
