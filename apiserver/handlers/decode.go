package handlers

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"

	kjson "sigs.k8s.io/json"

	"github.com/minicp/minicp/api/apierrors"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/handlers/negotiation"
	"github.com/minicp/minicp/apiserver/registry"
)

// fieldValidation is the ?fieldValidation= mode for unknown fields.
type fieldValidation string

const (
	fieldValidationIgnore fieldValidation = "Ignore"
	fieldValidationWarn   fieldValidation = "Warn"
	fieldValidationStrict fieldValidation = "Strict"
)

// maxPresizedBody is the largest announced Content-Length readBody
// allocates for up front: objects are a few KB; a larger body, or a
// length a client may have made up, is read growing the buffer instead.
const maxPresizedBody = 64 << 10

// readBody reads the request body; a body over the limit is 413. A body
// whose length is announced is read into one buffer of that size, not one
// io.ReadAll grows from 512 bytes (several copies of every body).
func readBody(r *http.Request) ([]byte, error) {
	if r.Body == nil {
		return nil, apierrors.NewBadRequest("the request body is empty")
	}
	var buf bytes.Buffer
	if n := r.ContentLength; n > 0 && n <= maxPresizedBody {
		// MinRead more: ReadFrom wants that much room to see the end.
		buf.Grow(int(n) + bytes.MinRead)
	}
	_, err := buf.ReadFrom(r.Body)
	data := buf.Bytes()
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return nil, apierrors.NewRequestEntityTooLarge(fmt.Sprintf("limit is %d", tooLarge.Limit))
	}
	if errors.Is(err, os.ErrDeadlineExceeded) {
		// The client did not send its body within the request timeout
		// (filters.Limits.RequestTimeout).
		return nil, apierrors.NewTimeoutError("Timeout: request did not complete within the allotted timeout")
	}
	if err != nil {
		return nil, apierrors.NewBadRequest("read request body: " + err.Error())
	}
	return data, nil
}

// decodeBody reads r's body into a new object of the scope's kind, by its
// Content-Type (negotiation.NegotiateInputSerializer): JSON or YAML, or
// Kubernetes protobuf, which client-go's typed clients send. Unknown
// fields, and fields a JSON body sets twice, are handled by
// ?fieldValidation: Strict rejects them (400), Warn (the default, as in
// Kubernetes) drops them with a Warning header, Ignore drops them
// silently.
func (s *Scope) decodeBody(w http.ResponseWriter, r *http.Request, into runtime.Object) error {
	in, err := negotiation.NegotiateInputSerializer(r)
	if err != nil {
		return err
	}
	mode, err := parseFieldValidation(r)
	if err != nil {
		return err
	}
	data, err := readBody(r)
	if err != nil {
		return err
	}
	if in == negotiation.Protobuf {
		// Protobuf has no unknown-field report: like Kubernetes, fields the
		// server does not know are dropped.
		if err := runtime.DecodeProtobuf(data, into); err != nil {
			return apierrors.NewBadRequest(err.Error())
		}
		return s.checkKind(into)
	}
	unknown, err := runtime.Decode(data, into)
	if err != nil {
		return apierrors.NewBadRequest(err.Error())
	}
	pruned, err := s.normalizeDecoded(into)
	if err != nil {
		return err
	}
	var duplicate []string
	if mode != fieldValidationIgnore {
		duplicate = duplicateFields(data)
	}
	if err := checkStrictFields(w, mode, append(unknown, pruned...), duplicate); err != nil {
		return err
	}
	return s.checkKind(into)
}

// duplicateFields returns the paths of the fields a JSON document sets
// more than once ("metadata.name", "spec.containers[0].image"), which a
// decode silently resolves to the last value. A YAML body has none to
// report: converting it to JSON already kept one value per key.
//
// Upstream: sigs.k8s.io/json (UnmarshalStrict with DisallowDuplicateFields),
// as k8s.io/apimachinery/pkg/runtime/serializer/json's strict decoding uses it.
func duplicateFields(data []byte) []string {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || data[0] != '{' {
		return nil
	}
	var v any
	strict, err := kjson.UnmarshalStrict(data, &v, kjson.DisallowDuplicateFields)
	if err != nil {
		// The typed decode has already read the document; nothing is left
		// to report.
		return nil
	}
	paths := make([]string, 0, len(strict))
	for _, e := range strict {
		if fp, ok := e.(kjson.FieldError); ok {
			paths = append(paths, fp.FieldPath())
		}
	}
	return paths
}

// normalizeDecoded prunes and defaults a decoded body when the
// resource's strategy shapes its objects by a schema, and returns the
// pruned paths (see registry.DecodeNormalizingStrategy).
func (s *Scope) normalizeDecoded(obj runtime.Object) ([]string, error) {
	n, ok := s.Store.Strategy.(registry.DecodeNormalizingStrategy)
	if !ok || s.Scale != nil || s.Subresource == "binding" {
		return nil, nil
	}
	pruned, err := n.NormalizeDecoded(obj)
	if err != nil {
		return nil, apierrors.NewBadRequest(err.Error())
	}
	return pruned, nil
}

func checkUnknownFields(w http.ResponseWriter, mode fieldValidation, unknown []string) error {
	return checkStrictFields(w, mode, unknown, nil)
}

// checkStrictFields answers the unknown and duplicate fields of a body as
// ?fieldValidation asks: Strict is 400, Warn is one Warning header per
// field, Ignore is nothing; the wording is kube-apiserver's.
func checkStrictFields(w http.ResponseWriter, mode fieldValidation, unknown, duplicate []string) error {
	if len(unknown)+len(duplicate) == 0 {
		return nil
	}
	msgs := make([]string, 0, len(unknown)+len(duplicate))
	for _, f := range unknown {
		msgs = append(msgs, fmt.Sprintf("unknown field %q", f))
	}
	for _, f := range duplicate {
		msgs = append(msgs, fmt.Sprintf("duplicate field %q", f))
	}
	switch mode {
	case fieldValidationStrict:
		return apierrors.NewBadRequest("strict decoding error: " + strings.Join(msgs, ", "))
	case fieldValidationWarn:
		for _, m := range msgs {
			w.Header().Add("Warning", fmt.Sprintf("299 - %q", m))
		}
	}
	return nil
}

func parseFieldValidation(r *http.Request) (fieldValidation, error) {
	switch v := fieldValidation(r.URL.Query().Get("fieldValidation")); v {
	case "":
		return fieldValidationWarn, nil
	case fieldValidationIgnore, fieldValidationWarn, fieldValidationStrict:
		return v, nil
	default:
		return "", apierrors.NewBadRequest(fmt.Sprintf("fieldValidation parameter unsupported: %q; must be one of Ignore, Warn, Strict", v))
	}
}

// checkKind rejects a body that names another kind or version, and fills
// kind and apiVersion when the body left them out.
func (s *Scope) checkKind(obj runtime.Object) error {
	want := s.bodyGVK()
	tm := obj.GetTypeMeta()
	if s.creater != nil && tm.Kind == want.Kind {
		for _, gv := range s.creater.AcceptedVersions {
			if tm.APIVersion == gv.String() {
				// Same fields, another spelling: read it as the kind the
				// creater expects.
				tm.APIVersion = want.GroupVersion().String()
			}
		}
	}
	if tm.APIVersion != "" && tm.APIVersion != want.GroupVersion().String() {
		return apierrors.NewBadRequest(fmt.Sprintf("the API version in the data (%s) does not match the expected API version (%s)",
			tm.APIVersion, want.GroupVersion()))
	}
	if tm.Kind != "" && tm.Kind != want.Kind {
		return apierrors.NewBadRequest(fmt.Sprintf("the kind in the data (%s) does not match the expected kind (%s)", tm.Kind, want.Kind))
	}
	tm.APIVersion, tm.Kind = want.GroupVersion().String(), want.Kind
	return nil
}

// bodyGVK is the kind a write to this scope carries: the resource's kind,
// or a subresource's own (Binding for pods/binding, autoscaling/v1 Scale
// for a scale subresource).
func (s *Scope) bodyGVK() runtime.GroupVersionKind {
	switch {
	case s.Scale != nil:
		return registry.ScaleGVK
	case s.Subresource == "binding":
		return runtime.GroupVersionKind{Version: "v1", Kind: "Binding"}
	case s.creater != nil && s.creater.Kind.Kind != "":
		return s.creater.Kind
	}
	return s.Store.Resource.GVK()
}

func isDryRun(r *http.Request) (bool, error) {
	values := r.URL.Query()["dryRun"]
	for _, v := range values {
		if v != "All" {
			return false, apierrors.NewBadRequest(fmt.Sprintf("dryRun: unsupported value %q; supported values: \"All\"", v))
		}
	}
	return len(values) > 0, nil
}
