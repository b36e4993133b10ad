package validation

import (
	"fmt"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
)

// The length limits of new-style event fields.
const (
	eventReasonLengthLimit            = 128
	eventActionLengthLimit            = 128
	eventReportingInstanceLengthLimit = 128
	eventNoteLengthLimit              = 1024
)

// ValidateEvent checks a core/v1 event being created. Names only need to
// be usable in a URL (recorders use "<object>.<hash>"). An old-style event
// (no eventTime) must be in its involved object's namespace, or in
// "default" for a cluster-scoped object; a new-style event (eventTime set)
// must also name its reportingComponent, reportingInstance, action and
// reason within their length limits.
//
// Upstream: k8s.io/kubernetes/pkg/apis/core/validation (ValidateEventCreate
// for v1), with the generic metadata checks the API server adds.
func ValidateEvent(ev *corev1.Event) apierrors.FieldErrors {
	errs := ValidateObjectMeta(&ev.ObjectMeta, true, NameIsPathSegment, "metadata")
	return append(errs, validateEventFields(ev)...)
}

// ValidateEventUpdate checks an update of an event (recorders bump count
// and lastTimestamp): the metadata update rules and the rules of
// ValidateEvent.
func ValidateEventUpdate(newEv, oldEv *corev1.Event) apierrors.FieldErrors {
	errs := ValidateObjectMetaUpdate(&newEv.ObjectMeta, &oldEv.ObjectMeta, "metadata")
	return append(errs, validateEventFields(newEv)...)
}

func validateEventFields(ev *corev1.Event) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	involvedNS := path("involvedObject").child("namespace").String()
	if ev.EventTime.IsZero() {
		switch {
		case ev.InvolvedObject.Namespace == "":
			// Cluster-scoped objects' events go to "default"; very old
			// clients send none.
			if ev.Namespace != "" && ev.Namespace != metav1.NamespaceDefault {
				errs = append(errs, apierrors.Invalid(involvedNS, ev.InvolvedObject.Namespace, "does not match event.namespace"))
			}
		case ev.Namespace != ev.InvolvedObject.Namespace:
			errs = append(errs, apierrors.Invalid(involvedNS, ev.InvolvedObject.Namespace, "does not match event.namespace"))
		}
		return errs
	}
	if ev.InvolvedObject.Namespace == "" && ev.Namespace != metav1.NamespaceDefault && ev.Namespace != metav1.NamespaceSystem {
		errs = append(errs, apierrors.Invalid(involvedNS, ev.InvolvedObject.Namespace, "does not match event.namespace"))
	}
	if ev.ReportingController == "" {
		errs = append(errs, apierrors.Required("reportingComponent", ""))
	} else {
		errs = append(errs, validateQualifiedNameField(ev.ReportingController, path("reportingComponent"))...)
	}
	for _, f := range []struct {
		name  string
		value string
		limit int
	}{
		{"reportingInstance", ev.ReportingInstance, eventReportingInstanceLengthLimit},
		{"action", ev.Action, eventActionLengthLimit},
		{"reason", ev.Reason, eventReasonLengthLimit},
	} {
		if f.value == "" {
			errs = append(errs, apierrors.Required(f.name, ""))
		}
		if len(f.value) > f.limit {
			errs = append(errs, apierrors.Invalid(f.name, "", fmt.Sprintf("can have at most %v characters", f.limit)))
		}
	}
	if len(ev.Message) > eventNoteLengthLimit {
		errs = append(errs, apierrors.Invalid("message", "", fmt.Sprintf("can have at most %v characters", eventNoteLengthLimit)))
	}
	return errs
}
