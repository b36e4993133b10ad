package registry

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/apierrors"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/storage"
)

var pods = runtime.GroupResource{Resource: "pods"}

const podKey = "/registry/pods/ns/x"

// modified is the conflict message clients look for to retry.
const modified = "the object has been modified; please apply your changes to the latest version and try again"

// translation is one row of a per-verb table: a storage error in, the
// Status the client sees out.
type translation struct {
	name    string
	err     error
	code    int32
	reason  metav1.StatusReason
	message string
}

// The translations every verb shares.
func commonTranslations(name string) []translation {
	return []translation{
		{name: "not found", err: storage.NewNotFoundError(podKey, 5),
			code: 404, reason: metav1.StatusReasonNotFound, message: fmt.Sprintf("pods %q not found", name)},
		{name: "wrapped not found", err: fmt.Errorf("get: %w", storage.NewNotFoundError(podKey, 5)),
			code: 404, reason: metav1.StatusReasonNotFound, message: fmt.Sprintf("pods %q not found", name)},
		{name: "invalid key", err: storage.NewInvalidKeyError(podKey, `name may not be ".."`),
			code: 400, reason: metav1.StatusReasonBadRequest, message: `name may not be ".."`},
		{name: "invalid resource version", err: storage.NewInvalidResourceVersionError(podKey, "abc"),
			code: 400, reason: metav1.StatusReasonBadRequest, message: `invalid resource version "abc"`},
		{name: "too large resource version", err: storage.NewTooLargeResourceVersionError(podKey, 9, 5),
			code: 504, reason: metav1.StatusReasonTimeout, message: "Too large resource version: 9, current: 5"},
		{name: "expired", err: storage.NewExpiredError(podKey, 1, "too old resource version: 1 (5)"),
			code: 410, reason: metav1.StatusReasonExpired, message: "too old resource version: 1 (5)"},
		{name: "expired without detail", err: storage.NewExpiredError(podKey, 1, ""),
			code: 410, reason: metav1.StatusReasonExpired, message: "too old resource version"},
		{name: "too large for etcd", err: fmt.Errorf("create pods %s: %w", podKey, storage.ErrRequestTooLarge),
			code: 413, reason: metav1.StatusReasonRequestEntityTooLarge,
			message: fmt.Sprintf("Request entity too large: pods %q is larger than etcd stores: etcdserver: request is too large", name)},
		{name: "unknown error is a server fault", err: errors.New("etcdserver: request timed out"),
			code: 500, reason: metav1.StatusReasonInternalError, message: "Internal error occurred: etcdserver: request timed out"},
	}
}

func runTranslations(t *testing.T, verb string, interpret func(error) error, tests []translation) {
	t.Helper()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := interpret(tc.err)
			var se *apierrors.StatusError
			require.ErrorAs(t, got, &se, "%s(%v) is a Status", verb, tc.err)
			assert.Equal(t, tc.code, se.ErrStatus.Code, "%s(%v): code", verb, tc.err)
			assert.Equal(t, tc.reason, se.ErrStatus.Reason, "%s(%v): reason", verb, tc.err)
			assert.Equal(t, tc.message, se.ErrStatus.Message, "%s(%v): message", verb, tc.err)
		})
	}

	// A Status from a strategy, admission or tryUpdate goes through as is.
	t.Run("status passes through", func(t *testing.T) {
		in := apierrors.NewInvalid(runtime.GroupVersionKind{Version: "v1", Kind: "Pod"}, "x",
			apierrors.FieldErrors{apierrors.Required("spec.containers", "")})
		assert.Same(t, in, interpret(in), "%s(Invalid)", verb)
		wrapped := fmt.Errorf("admission: %w", apierrors.NewForbidden(pods, "x", errors.New("namespace is terminating")))
		assert.Equal(t, wrapped, interpret(wrapped), "%s(wrapped Forbidden)", verb)
	})
}

func TestInterpretCreateError(t *testing.T) {
	tests := append([]translation{
		{name: "exists", err: storage.NewExistsError(podKey, 5),
			code: 409, reason: metav1.StatusReasonAlreadyExists, message: `pods "x" already exists`},
		{name: "wrapped exists", err: fmt.Errorf("create: %w", storage.NewExistsError(podKey, 5)),
			code: 409, reason: metav1.StatusReasonAlreadyExists, message: `pods "x" already exists`},
	}, commonTranslations("x")...)
	runTranslations(t, "interpretCreateError", func(err error) error { return interpretCreateError(err, pods, "x") }, tests)
}

func TestInterpretGetError(t *testing.T) {
	tests := commonTranslations("x")
	runTranslations(t, "interpretGetError", func(err error) error { return interpretGetError(err, pods, "x") }, tests)
}

func TestInterpretUpdateError(t *testing.T) {
	tests := append([]translation{
		{name: "conflict", err: storage.NewConflictError(podKey, ""),
			code: 409, reason: metav1.StatusReasonConflict,
			message: `Operation cannot be fulfilled on pods "x": ` + modified},
		{name: "conflict with detail", err: storage.NewConflictError(podKey, "Precondition failed: UID in precondition: a, UID in object meta: b"),
			code: 409, reason: metav1.StatusReasonConflict,
			message: `Operation cannot be fulfilled on pods "x": Precondition failed: UID in precondition: a, UID in object meta: b`},
		{name: "wrapped conflict", err: fmt.Errorf("update: %w", storage.NewConflictError(podKey, "")),
			code: 409, reason: metav1.StatusReasonConflict,
			message: `Operation cannot be fulfilled on pods "x": ` + modified},
		{name: "exists (create on update raced)", err: storage.NewExistsError(podKey, 5),
			code: 409, reason: metav1.StatusReasonAlreadyExists, message: `pods "x" already exists`},
	}, commonTranslations("x")...)
	runTranslations(t, "interpretUpdateError", func(err error) error { return interpretUpdateError(err, pods, "x") }, tests)
}

func TestInterpretDeleteError(t *testing.T) {
	tests := append([]translation{
		{name: "conflict", err: storage.NewConflictError(podKey, ""),
			code: 409, reason: metav1.StatusReasonConflict,
			message: `Operation cannot be fulfilled on pods "x": ` + modified},
		{name: "precondition", err: storage.NewConflictError(podKey, "Precondition failed: ResourceVersion in precondition: 4, ResourceVersion in object meta: 5"),
			code: 409, reason: metav1.StatusReasonConflict,
			message: `Operation cannot be fulfilled on pods "x": Precondition failed: ResourceVersion in precondition: 4, ResourceVersion in object meta: 5`},
	}, commonTranslations("x")...)
	runTranslations(t, "interpretDeleteError", func(err error) error { return interpretDeleteError(err, pods, "x") }, tests)
}

func TestInterpretListError(t *testing.T) {
	tests := append([]translation{
		{name: "invalid continue", err: storage.NewInvalidContinueError("/registry/pods/", "continue key is not prefixed with the list key"),
			code: 400, reason: metav1.StatusReasonBadRequest, message: "continue key is not prefixed with the list key"},
		{name: "invalid continue without detail", err: storage.NewInvalidContinueError("/registry/pods/", ""),
			code: 400, reason: metav1.StatusReasonBadRequest, message: "invalid continue token"},
		{name: "wrapped expired", err: fmt.Errorf("list: %w", storage.NewExpiredError("/registry/pods/", 1, "")),
			code: 410, reason: metav1.StatusReasonExpired, message: "too old resource version"},
	}, commonTranslations("")...)
	runTranslations(t, "interpretListError", func(err error) error { return interpretListError(err, pods) }, tests)
}

// A too-large resourceVersion tells the client to retry shortly, with the
// cause kube-apiserver sends so client-go recognises it.
func TestTooLargeResourceVersionDetails(t *testing.T) {
	for verb, interpret := range map[string]func(error) error{
		"get":  func(err error) error { return interpretGetError(err, pods, "x") },
		"list": func(err error) error { return interpretListError(err, pods) },
	} {
		var se *apierrors.StatusError
		require.ErrorAs(t, interpret(storage.NewTooLargeResourceVersionError(podKey, 9, 5)), &se, verb)
		require.NotNil(t, se.ErrStatus.Details, verb)
		assert.Equal(t, int32(1), se.ErrStatus.Details.RetryAfterSeconds, "%s: RetryAfterSeconds", verb)
		assert.Equal(t, []metav1.StatusCause{{Type: "ResourceVersionTooLarge", Message: "Too large resource version"}},
			se.ErrStatus.Details.Causes, "%s: causes", verb)
	}
}
