package webhook

import (
	"encoding/json"

	"github.com/google/uuid"

	admissionv1 "github.com/minicp/minicp/api/admission/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/admission"
)

// reviewObjects are the JSON forms of a request's objects as one kind
// presents them. Encoding them once per kind serves every webhook that
// sees that kind, and lets parallel calls share them read-only.
type reviewObjects struct {
	object, oldObject json.RawMessage
}

// encodeObjects encodes the request's new and old objects with kind and
// apiVersion set to kind, as upstream's serializer always writes them.
// The objects of a are not modified.
func encodeObjects(a *admission.Attributes, kind runtime.GroupVersionKind) (reviewObjects, error) {
	obj, old := requestObjects(a)
	var out reviewObjects
	var err error
	if out.object, err = encodeAs(obj, kind); err != nil {
		return reviewObjects{}, err
	}
	if out.oldObject, err = encodeAs(old, kind); err != nil {
		return reviewObjects{}, err
	}
	return out, nil
}

// encodeAs encodes obj with its TypeMeta set to kind; nil gives nil, which
// the AdmissionRequest writes as null.
func encodeAs(obj runtime.Object, kind runtime.GroupVersionKind) (json.RawMessage, error) {
	if obj == nil {
		return nil, nil
	}
	tm := runtime.TypeMeta{APIVersion: kind.GroupVersion().String(), Kind: kind.Kind}
	if *obj.GetTypeMeta() != tm {
		// A copy: the object may be shared (the stored one comes from
		// the watch cache) or read by a parallel call.
		obj = obj.DeepCopyObject()
		*obj.GetTypeMeta() = tm
	}
	return json.Marshal(obj)
}

// operationOptions is the options object of a request: CreateOptions,
// UpdateOptions or DeleteOptions, with only the fields admission knows.
type operationOptions struct {
	Kind       string   `json:"kind"`
	APIVersion string   `json:"apiVersion"`
	DryRun     []string `json:"dryRun,omitempty"`
}

// optionsFor returns the options object of a's operation.
func optionsFor(a *admission.Attributes) (json.RawMessage, error) {
	var kind string
	switch a.Operation {
	case admission.Create:
		kind = "CreateOptions"
	case admission.Update:
		kind = "UpdateOptions"
	case admission.Delete:
		kind = "DeleteOptions"
	default:
		return nil, nil
	}
	opts := operationOptions{Kind: kind, APIVersion: "meta.k8s.io/v1"}
	if a.DryRun {
		opts.DryRun = []string{"All"}
	}
	return json.Marshal(opts)
}

// newReview returns the AdmissionReview of one call, with a fresh uid the
// response must echo.
//
// Upstream: k8s.io/apiserver/pkg/admission/plugin/webhook/request (CreateV1AdmissionReview).
func newReview(a *admission.Attributes, inv *invocation, objs reviewObjects) (*admissionv1.AdmissionReview, error) {
	options, err := optionsFor(a)
	if err != nil {
		return nil, err
	}
	dryRun := a.DryRun
	req := &admissionv1.AdmissionRequest{
		UID:                uuid.NewString(),
		Kind:               admissionv1.GroupVersionKind{Group: inv.kind.Group, Version: inv.kind.Version, Kind: inv.kind.Kind},
		Resource:           admissionv1.GroupVersionResource{Group: inv.resource.Group, Version: inv.resource.Version, Resource: inv.resource.Resource},
		SubResource:        a.Subresource,
		RequestKind:        &admissionv1.GroupVersionKind{Group: a.Kind.Group, Version: a.Kind.Version, Kind: a.Kind.Kind},
		RequestResource:    &admissionv1.GroupVersionResource{Group: a.Resource.Group, Version: a.Resource.Version, Resource: a.Resource.Resource},
		RequestSubResource: a.Subresource,
		Name:               a.Name,
		Namespace:          a.Namespace,
		Operation:          admissionv1.Operation(a.Operation),
		Object:             objs.object,
		OldObject:          objs.oldObject,
		DryRun:             &dryRun,
		Options:            options,
	}
	if u := a.User; u != nil {
		req.UserInfo = admissionv1.UserInfo{Username: u.Name, UID: u.UID, Groups: u.Groups}
	}
	return &admissionv1.AdmissionReview{
		TypeMeta: runtime.TypeMeta{APIVersion: admissionv1.SchemeGroupVersion.String(), Kind: "AdmissionReview"},
		Request:  req,
	}, nil
}
