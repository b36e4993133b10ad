package registry

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/minicp/minicp/api/apierrors"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/storage"
)

// The storage-to-Status translations, one per verb, because the same
// storage error means different things to different verbs: ErrExists is
// AlreadyExists on create, ErrNotFound on update may mean "create it".
//
// Upstream: k8s.io/apiserver/pkg/storage/errors (InterpretCreateError...).

// interpretCreateError translates a storage error from Create.
func interpretCreateError(err error, gr runtime.GroupResource, name string) error {
	switch {
	case errors.Is(err, storage.ErrExists):
		return apierrors.NewAlreadyExists(gr, name)
	}
	return interpretCommon(err, gr, name)
}

// interpretGetError translates a storage error from Get.
func interpretGetError(err error, gr runtime.GroupResource, name string) error {
	return interpretCommon(err, gr, name)
}

// interpretUpdateError translates a storage error from GuaranteedUpdate.
func interpretUpdateError(err error, gr runtime.GroupResource, name string) error {
	switch {
	case errors.Is(err, storage.ErrConflict):
		return apierrors.NewConflict(gr, name, conflictDetail(err))
	case errors.Is(err, storage.ErrExists):
		// Create-on-update raced with another create.
		return apierrors.NewAlreadyExists(gr, name)
	}
	return interpretCommon(err, gr, name)
}

// interpretDeleteError translates a storage error from Delete.
func interpretDeleteError(err error, gr runtime.GroupResource, name string) error {
	if errors.Is(err, storage.ErrConflict) {
		return apierrors.NewConflict(gr, name, conflictDetail(err))
	}
	return interpretCommon(err, gr, name)
}

// interpretListError translates a storage error from GetList or Watch.
func interpretListError(err error, gr runtime.GroupResource) error {
	switch {
	case errors.Is(err, storage.ErrExpired):
		return apierrors.NewResourceExpired(detailOr(err, "too old resource version"))
	case errors.Is(err, storage.ErrInvalidContinue):
		return apierrors.NewBadRequest(detailOr(err, "invalid continue token"))
	}
	return interpretCommon(err, gr, "")
}

func interpretCommon(err error, gr runtime.GroupResource, name string) error {
	var se *apierrors.StatusError
	switch {
	case errors.As(err, &se):
		return err // already a Status: from a strategy, admission or tryUpdate
	case errors.Is(err, storage.ErrNotFound):
		return apierrors.NewNotFound(gr, name)
	case errors.Is(err, storage.ErrExpired):
		return apierrors.NewResourceExpired(detailOr(err, "too old resource version"))
	case errors.Is(err, storage.ErrInvalidKey), errors.Is(err, storage.ErrInvalidResourceVersion):
		return apierrors.NewBadRequest(detailOr(err, ""))
	case errors.Is(err, storage.ErrRequestTooLarge):
		return apierrors.NewRequestEntityTooLarge(fmt.Sprintf("%s %q is larger than etcd stores: %v", gr, name, storage.ErrRequestTooLarge))
	case errors.Is(err, storage.ErrTooLargeResourceVersion):
		// The client asked for a revision etcd has not reached: tell it to
		// retry shortly, as kube-apiserver does.
		return &apierrors.StatusError{ErrStatus: metav1.Status{
			Status: metav1.StatusFailure, Code: http.StatusGatewayTimeout, Reason: metav1.StatusReasonTimeout,
			Message: detailOr(err, "Too large resource version"),
			Details: &metav1.StatusDetails{RetryAfterSeconds: 1, Causes: []metav1.StatusCause{{Type: "ResourceVersionTooLarge", Message: "Too large resource version"}}},
		}}
	}
	return apierrors.NewInternalError(err)
}

func conflictDetail(err error) error {
	var se *storage.Error
	if errors.As(err, &se) && se.Detail != "" {
		return errors.New(se.Detail)
	}
	return errors.New("the object has been modified; please apply your changes to the latest version and try again")
}

func detailOr(err error, fallback string) string {
	var se *storage.Error
	if errors.As(err, &se) && se.Detail != "" {
		return se.Detail
	}
	if fallback == "" {
		return err.Error()
	}
	return fallback
}
