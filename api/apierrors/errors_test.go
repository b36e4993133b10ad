package apierrors_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/apierrors"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
)

var (
	pods        = runtime.GroupResource{Resource: "pods"}
	deployments = runtime.GroupResource{Group: "apps", Resource: "deployments"}
)

// predicates are every Is function, by the reason it reports.
var predicates = map[string]func(error) bool{
	"IsNotFound":              apierrors.IsNotFound,
	"IsAlreadyExists":         apierrors.IsAlreadyExists,
	"IsConflict":              apierrors.IsConflict,
	"IsInvalid":               apierrors.IsInvalid,
	"IsBadRequest":            apierrors.IsBadRequest,
	"IsUnauthorized":          apierrors.IsUnauthorized,
	"IsForbidden":             apierrors.IsForbidden,
	"IsMethodNotSupported":    apierrors.IsMethodNotSupported,
	"IsUnsupportedMediaType":  apierrors.IsUnsupportedMediaType,
	"IsTooManyRequests":       apierrors.IsTooManyRequests,
	"IsRequestEntityTooLarge": apierrors.IsRequestEntityTooLarge,
	"IsResourceExpired":       apierrors.IsResourceExpired,
	"IsGone":                  apierrors.IsGone,
	"IsInternalError":         apierrors.IsInternalError,
}

type constructorCase struct {
	name    string
	err     *apierrors.StatusError
	code    int32
	reason  metav1.StatusReason
	message string
	details *metav1.StatusDetails
	// is lists the predicates that hold; every other one must not.
	is []string
}

func constructorCases() []constructorCase {
	return []constructorCase{
		{name: "NotFound", err: apierrors.NewNotFound(pods, "x"),
			code: 404, reason: metav1.StatusReasonNotFound, message: `pods "x" not found`,
			details: &metav1.StatusDetails{Kind: "pods", Name: "x"}, is: []string{"IsNotFound"}},
		{name: "NotFound in a group", err: apierrors.NewNotFound(deployments, "d"),
			code: 404, reason: metav1.StatusReasonNotFound, message: `deployments.apps "d" not found`,
			details: &metav1.StatusDetails{Group: "apps", Kind: "deployments", Name: "d"}, is: []string{"IsNotFound"}},
		{name: "AlreadyExists", err: apierrors.NewAlreadyExists(pods, "x"),
			code: 409, reason: metav1.StatusReasonAlreadyExists, message: `pods "x" already exists`,
			details: &metav1.StatusDetails{Kind: "pods", Name: "x"}, is: []string{"IsAlreadyExists"}},
		{name: "Conflict", err: apierrors.NewConflict(pods, "x", errors.New("the object has been modified")),
			code: 409, reason: metav1.StatusReasonConflict,
			message: `Operation cannot be fulfilled on pods "x": the object has been modified`,
			details: &metav1.StatusDetails{Kind: "pods", Name: "x"}, is: []string{"IsConflict"}},
		{name: "BadRequest", err: apierrors.NewBadRequest("bad"),
			code: 400, reason: metav1.StatusReasonBadRequest, message: "bad", is: []string{"IsBadRequest"}},
		{name: "Unauthorized", err: apierrors.NewUnauthorized(""),
			code: 401, reason: metav1.StatusReasonUnauthorized, message: "Unauthorized", is: []string{"IsUnauthorized"}},
		{name: "Unauthorized with message", err: apierrors.NewUnauthorized("token expired"),
			code: 401, reason: metav1.StatusReasonUnauthorized, message: "token expired", is: []string{"IsUnauthorized"}},
		{name: "Forbidden", err: apierrors.NewForbidden(pods, "x", errors.New("no")),
			code: 403, reason: metav1.StatusReasonForbidden, message: `pods "x" is forbidden: no`,
			details: &metav1.StatusDetails{Kind: "pods", Name: "x"}, is: []string{"IsForbidden"}},
		{name: "Forbidden without a name", err: apierrors.NewForbidden(deployments, "", errors.New("no")),
			code: 403, reason: metav1.StatusReasonForbidden, message: `deployments.apps is forbidden: no`,
			details: &metav1.StatusDetails{Group: "apps", Kind: "deployments"}, is: []string{"IsForbidden"}},
		{name: "ResourceExpired", err: apierrors.NewResourceExpired("too old resource version: 1 (5)"),
			code: 410, reason: metav1.StatusReasonExpired, message: "too old resource version: 1 (5)",
			is: []string{"IsResourceExpired", "IsGone"}},
		{name: "Gone", err: apierrors.NewGone("gone"),
			code: 410, reason: metav1.StatusReasonGone, message: "gone", is: []string{"IsGone"}},
		{name: "MethodNotSupported", err: apierrors.NewMethodNotSupported(pods, "deletecollection"),
			code: 405, reason: metav1.StatusReasonMethodNotAllowed,
			message: `deletecollection is not supported on resources of kind "pods"`,
			details: &metav1.StatusDetails{Kind: "pods"}, is: []string{"IsMethodNotSupported"}},
		{name: "UnsupportedMediaType", err: apierrors.NewUnsupportedMediaType("text/plain"),
			code: 415, reason: metav1.StatusReasonUnsupportedMediaType,
			message: `the body of the request was in an unknown format - accepted media types include: application/json, application/yaml; got "text/plain"`,
			is:      []string{"IsUnsupportedMediaType"}},
		{name: "NotAcceptable", err: apierrors.NewNotAcceptable("application/vnd.kubernetes.protobuf"),
			code: 406, reason: metav1.StatusReasonNotAcceptable,
			message: `only the following media types are accepted: application/json, application/yaml; got "application/vnd.kubernetes.protobuf"`},
		{name: "RequestEntityTooLarge", err: apierrors.NewRequestEntityTooLarge("limit is 3145728"),
			code: 413, reason: metav1.StatusReasonRequestEntityTooLarge, message: "Request entity too large: limit is 3145728",
			is: []string{"IsRequestEntityTooLarge"}},
		{name: "TooManyRequests", err: apierrors.NewTooManyRequests("slow down", 7),
			code: 429, reason: metav1.StatusReasonTooManyRequests, message: "Too many requests: slow down",
			details: &metav1.StatusDetails{RetryAfterSeconds: 7}, is: []string{"IsTooManyRequests"}},
		{name: "ServiceUnavailable", err: apierrors.NewServiceUnavailable("starting"),
			code: 503, reason: metav1.StatusReasonServiceUnavailable, message: "starting"},
		{name: "Timeout", err: apierrors.NewTimeoutError("gave up"),
			code: 504, reason: metav1.StatusReasonTimeout, message: "gave up"},
		{name: "InternalError", err: apierrors.NewInternalError(errors.New("boom")),
			code: 500, reason: metav1.StatusReasonInternalError, message: "Internal error occurred: boom",
			details: &metav1.StatusDetails{Causes: []metav1.StatusCause{{Message: "boom"}}}, is: []string{"IsInternalError"}},
		{name: "Invalid", err: apierrors.NewInvalid(runtime.GroupVersionKind{Version: "v1", Kind: "Pod"}, "x",
			apierrors.FieldErrors{apierrors.Required("spec.containers[0].image", "")}),
			code: 422, reason: metav1.StatusReasonInvalid, message: `Pod "x" is invalid: spec.containers[0].image: Required value`,
			details: &metav1.StatusDetails{Kind: "Pod", Name: "x", Causes: []metav1.StatusCause{{
				Type: metav1.CauseTypeFieldValueRequired, Field: "spec.containers[0].image",
				Message: "spec.containers[0].image: Required value"}}},
			is: []string{"IsInvalid"}},
		{name: "Invalid in a group with two causes", err: apierrors.NewInvalid(
			runtime.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}, "d",
			apierrors.FieldErrors{
				apierrors.Invalid("spec.replicas", int32(-1), "must be greater than or equal to 0"),
				apierrors.Required("spec.selector", ""),
			}),
			code: 422, reason: metav1.StatusReasonInvalid,
			message: `Deployment.apps "d" is invalid: [spec.replicas: Invalid value: -1: must be greater than or equal to 0, spec.selector: Required value]`,
			details: &metav1.StatusDetails{Group: "apps", Kind: "Deployment", Name: "d", Causes: []metav1.StatusCause{
				{Type: metav1.CauseTypeFieldValueInvalid, Field: "spec.replicas",
					Message: "spec.replicas: Invalid value: -1: must be greater than or equal to 0"},
				{Type: metav1.CauseTypeFieldValueRequired, Field: "spec.selector", Message: "spec.selector: Required value"},
			}},
			is: []string{"IsInvalid"}},
	}
}

func TestConstructors(t *testing.T) {
	for _, tc := range constructorCases() {
		t.Run(tc.name, func(t *testing.T) {
			st := tc.err.Status()
			assert.Equal(t, tc.code, st.Code, "%s: code", tc.name)
			assert.Equal(t, tc.reason, st.Reason, "%s: reason", tc.name)
			assert.Equal(t, tc.message, st.Message, "%s: message", tc.name)
			assert.Equal(t, tc.message, tc.err.Error(), "%s: Error()", tc.name)
			assert.Equal(t, tc.details, st.Details, "%s: details", tc.name)
			assert.Equal(t, metav1.StatusFailure, st.Status, "%s: status", tc.name)
			assert.Equal(t, metav1.TypeMeta{Kind: "Status", APIVersion: "v1"}, st.TypeMeta, "%s: TypeMeta", tc.name)
			assert.Equal(t, tc.reason, apierrors.ReasonForError(tc.err), "ReasonForError(%s)", tc.name)
			assert.Equal(t, tc.code, apierrors.CodeForError(tc.err), "CodeForError(%s)", tc.name)
			assert.NotEmpty(t, http.StatusText(int(tc.code)), "%s: code %d is an HTTP status", tc.name, tc.code)
		})
	}
}

// The predicates see a StatusError however it reached the caller: as is,
// wrapped, or decoded from a response body by a client.
func TestPredicates(t *testing.T) {
	for _, tc := range constructorCases() {
		data, err := json.Marshal(tc.err.Status())
		require.NoError(t, err, "marshal %s", tc.name)
		var decoded metav1.Status
		require.NoError(t, json.Unmarshal(data, &decoded), "unmarshal %s: %s", tc.name, data)
		rebuilt := apierrors.FromStatus(decoded)
		assert.Equal(t, tc.err.Status(), rebuilt.Status(), "%s: Status after a JSON round trip", tc.name)

		forms := map[string]error{
			"direct":                tc.err,
			"wrapped":               fmt.Errorf("get pod: %w", tc.err),
			"wrapped twice":         fmt.Errorf("sync: %w", fmt.Errorf("get pod: %w", tc.err)),
			"joined":                errors.Join(errors.New("other"), tc.err),
			"from JSON":             rebuilt,
			"from JSON and wrapped": fmt.Errorf("client: %w", rebuilt),
		}
		for form, err := range forms {
			t.Run(tc.name+"/"+form, func(t *testing.T) {
				for name, is := range predicates {
					want := false
					for _, n := range tc.is {
						want = want || n == name
					}
					assert.Equal(t, want, is(err), "%s(%s, %s)", name, tc.name, form)
				}
				assert.Equal(t, tc.reason, apierrors.ReasonForError(err), "ReasonForError(%s, %s)", tc.name, form)
				assert.Equal(t, tc.code, apierrors.CodeForError(err), "CodeForError(%s, %s)", tc.name, form)
			})
		}
	}
}

func TestPredicatesOnOtherErrors(t *testing.T) {
	for name, err := range map[string]error{
		"nil":           nil,
		"plain":         errors.New("not found"),
		"wrapped plain": fmt.Errorf("x: %w", errors.New("conflict")),
	} {
		for pname, is := range predicates {
			assert.False(t, is(err), "%s(%s)", pname, name)
		}
		assert.Equal(t, metav1.StatusReasonUnknown, apierrors.ReasonForError(err), "ReasonForError(%s)", name)
		assert.Zero(t, apierrors.CodeForError(err), "CodeForError(%s)", name)
	}
}

func TestStatusDefaultsFailure(t *testing.T) {
	st := apierrors.FromStatus(metav1.Status{Code: 404, Reason: metav1.StatusReasonNotFound, Message: "m"}).Status()
	assert.Equal(t, metav1.StatusFailure, st.Status, "Status() of a Status without status")
	assert.Equal(t, metav1.TypeMeta{Kind: "Status", APIVersion: "v1"}, st.TypeMeta)
}

// The body of a NotFound is what kube-apiserver sends, field for field.
func TestStatusWireShape(t *testing.T) {
	data, err := json.Marshal(apierrors.NewNotFound(pods, "x").Status())
	require.NoError(t, err)
	assert.JSONEq(t, `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
		"message":"pods \"x\" not found","reason":"NotFound","details":{"name":"x","kind":"pods"},"code":404}`, string(data))
}

func TestFieldErrors(t *testing.T) {
	tests := []struct {
		name string
		err  *apierrors.FieldError
		want string
		typ  metav1.CauseType
	}{
		{name: "Required", err: apierrors.Required("metadata.name", ""),
			want: "metadata.name: Required value", typ: metav1.CauseTypeFieldValueRequired},
		{name: "Required with detail", err: apierrors.Required("metadata.name", "name or generateName is required"),
			want: "metadata.name: Required value: name or generateName is required", typ: metav1.CauseTypeFieldValueRequired},
		{name: "Invalid string", err: apierrors.Invalid("metadata.name", "Bad_Name", "a lowercase RFC 1123 subdomain"),
			want: `metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain`, typ: metav1.CauseTypeFieldValueInvalid},
		{name: "Invalid number", err: apierrors.Invalid("spec.replicas", -1, "must be greater than or equal to 0"),
			want: "spec.replicas: Invalid value: -1: must be greater than or equal to 0", typ: metav1.CauseTypeFieldValueInvalid},
		{name: "Invalid without detail", err: apierrors.Invalid("spec.x", true, ""),
			want: "spec.x: Invalid value: true", typ: metav1.CauseTypeFieldValueInvalid},
		{name: "NotSupported", err: apierrors.NotSupported("spec.restartPolicy", "Sometimes", []string{"Always", "OnFailure", "Never"}),
			want: `spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"`,
			typ:  metav1.CauseTypeFieldValueNotSupported},
		{name: "NotSupported without values", err: apierrors.NotSupported("spec.x", "y", nil),
			want: `spec.x: Unsupported value: "y"`, typ: metav1.CauseTypeFieldValueNotSupported},
		{name: "Forbidden", err: apierrors.Forbidden("spec.nodeName", "may not be changed"),
			want: "spec.nodeName: Forbidden: may not be changed", typ: metav1.CauseTypeFieldValueForbidden},
		{name: "Duplicate", err: apierrors.Duplicate("spec.containers[1].name", "c"),
			want: `spec.containers[1].name: Duplicate value: "c"`, typ: metav1.CauseTypeFieldValueDuplicate},
		{name: "TooLong", err: apierrors.TooLong("metadata.name", "xxx", 2),
			want: "metadata.name: Too long: must have at most 2 bytes", typ: metav1.CauseTypeFieldValueTooLong},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, tc.err.Error(), "%s.Error()", tc.name)
			assert.Equal(t, tc.typ, tc.err.Type, "%s.Type", tc.name)
		})
	}

	one := apierrors.FieldErrors{apierrors.Required("a", "")}
	assert.Equal(t, "a: Required value", one.Error(), "one FieldError")
	two := apierrors.FieldErrors{apierrors.Required("a", ""), apierrors.Forbidden("b", "")}
	assert.Equal(t, "[a: Required value, b: Forbidden]", two.Error(), "two FieldErrors")
}

func TestHasStatusCause(t *testing.T) {
	se := apierrors.NewForbidden(runtime.GroupResource{Resource: "pods"}, "p", errors.New("namespace is terminating"))
	se.ErrStatus.Details.Causes = []metav1.StatusCause{{Type: "NamespaceTerminating"}}
	assert.True(t, apierrors.HasStatusCause(fmt.Errorf("create: %w", se), "NamespaceTerminating"), "found through wrapping")
	assert.False(t, apierrors.HasStatusCause(se, "FieldValueInvalid"))
	assert.False(t, apierrors.HasStatusCause(errors.New("plain"), "NamespaceTerminating"))
	assert.False(t, apierrors.HasStatusCause(apierrors.NewConflict(runtime.GroupResource{Resource: "pods"}, "p", errors.New("x")), "NamespaceTerminating"))
}
