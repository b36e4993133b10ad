package validation

import (
	"fmt"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/intstr"
)

// validateProbes checks a container's liveness, readiness and startup
// probes. Liveness and startup probes decide on one success, so their
// successThreshold must be 1; a readiness probe never kills, so it has no
// grace period.
func validateProbes(c *corev1.Container, spec *corev1.PodSpec, fldPath path) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	errs = append(errs, validateProbe(c.LivenessProbe, fldPath.child("livenessProbe"))...)
	errs = append(errs, validateProbe(c.ReadinessProbe, fldPath.child("readinessProbe"))...)
	errs = append(errs, validateProbe(c.StartupProbe, fldPath.child("startupProbe"))...)
	for _, pr := range []struct {
		name  string
		probe *corev1.Probe
	}{{"livenessProbe", c.LivenessProbe}, {"startupProbe", c.StartupProbe}} {
		if pr.probe != nil && pr.probe.SuccessThreshold != 1 {
			errs = append(errs, apierrors.Invalid(fldPath.child(pr.name, "successThreshold").String(), pr.probe.SuccessThreshold, "must be 1"))
		}
	}
	if c.ReadinessProbe != nil && c.ReadinessProbe.TerminationGracePeriodSeconds != nil {
		errs = append(errs, apierrors.Invalid(fldPath.child("readinessProbe", "terminationGracePeriodSeconds").String(),
			*c.ReadinessProbe.TerminationGracePeriodSeconds, "must not be set for readinessProbes"))
	}
	return errs
}

func validateProbe(probe *corev1.Probe, fldPath path) apierrors.FieldErrors {
	if probe == nil {
		return nil
	}
	h := probe.ProbeHandler
	errs := validateHandler(handler{exec: h.Exec, httpGet: h.HTTPGet, tcpSocket: h.TCPSocket, grpc: h.GRPC}, nil, fldPath)
	for _, f := range []struct {
		name  string
		value int32
	}{
		{"initialDelaySeconds", probe.InitialDelaySeconds},
		{"timeoutSeconds", probe.TimeoutSeconds},
		{"periodSeconds", probe.PeriodSeconds},
		{"successThreshold", probe.SuccessThreshold},
		{"failureThreshold", probe.FailureThreshold},
	} {
		if f.value < 0 {
			errs = append(errs, apierrors.Invalid(fldPath.child(f.name).String(), f.value, isNegativeErrorMsg))
		}
	}
	if g := probe.TerminationGracePeriodSeconds; g != nil && *g <= 0 {
		errs = append(errs, apierrors.Invalid(fldPath.child("terminationGracePeriodSeconds").String(), *g, "must be greater than 0"))
	}
	return errs
}

func validateLifecycleHandler(h *corev1.LifecycleHandler, grace *int64, fldPath path) apierrors.FieldErrors {
	if h == nil {
		return nil
	}
	return validateHandler(handler{exec: h.Exec, httpGet: h.HTTPGet, tcpSocket: h.TCPSocket, sleep: h.Sleep}, grace, fldPath)
}

// handler is the union of probe and lifecycle handler actions.
type handler struct {
	exec      *corev1.ExecAction
	httpGet   *corev1.HTTPGetAction
	tcpSocket *corev1.TCPSocketAction
	grpc      *corev1.GRPCAction
	sleep     *corev1.SleepAction
}

// validateHandler checks that exactly one action is set and valid. grace is
// the pod's termination grace period, which bounds a sleep action.
func validateHandler(h handler, grace *int64, fldPath path) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	n := 0
	one := func(name string, validate func(path) apierrors.FieldErrors) {
		if n > 0 {
			errs = append(errs, apierrors.Forbidden(fldPath.child(name).String(), "may not specify more than 1 handler type"))
			return
		}
		n++
		errs = append(errs, validate(fldPath.child(name))...)
	}
	if h.exec != nil {
		one("exec", func(p path) apierrors.FieldErrors {
			if len(h.exec.Command) == 0 {
				return apierrors.FieldErrors{apierrors.Required(p.child("command").String(), "")}
			}
			return nil
		})
	}
	if h.httpGet != nil {
		one("httpGet", func(p path) apierrors.FieldErrors { return validateHTTPGetAction(h.httpGet, p) })
	}
	if h.tcpSocket != nil {
		one("tcpSocket", func(p path) apierrors.FieldErrors { return validatePortNumOrName(h.tcpSocket.Port, p.child("port")) })
	}
	if h.grpc != nil {
		one("grpc", func(p path) apierrors.FieldErrors {
			var errs apierrors.FieldErrors
			for _, msg := range IsValidPortNum(int(h.grpc.Port)) {
				errs = append(errs, apierrors.Invalid(p.child("port").String(), h.grpc.Port, msg))
			}
			return errs
		})
	}
	if h.sleep != nil {
		one("sleep", func(p path) apierrors.FieldErrors {
			if grace != nil && (h.sleep.Seconds <= 0 || h.sleep.Seconds > *grace) {
				return apierrors.FieldErrors{apierrors.Invalid(p.child("seconds").String(), h.sleep.Seconds,
					fmt.Sprintf("must be greater than 0 and less than terminationGracePeriodSeconds (%d)", *grace))}
			}
			return nil
		})
	}
	if n == 0 {
		errs = append(errs, apierrors.Required(fldPath.String(), "must specify a handler type"))
	}
	return errs
}

func validateHTTPGetAction(a *corev1.HTTPGetAction, fldPath path) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	if a.Path == "" {
		errs = append(errs, apierrors.Required(fldPath.child("path").String(), ""))
	}
	errs = append(errs, validatePortNumOrName(a.Port, fldPath.child("port"))...)
	if a.Scheme != corev1.URISchemeHTTP && a.Scheme != corev1.URISchemeHTTPS {
		errs = append(errs, apierrors.NotSupported(fldPath.child("scheme").String(), a.Scheme,
			[]string{string(corev1.URISchemeHTTP), string(corev1.URISchemeHTTPS)}))
	}
	for _, hdr := range a.HTTPHeaders {
		for _, msg := range IsHTTPHeaderName(hdr.Name) {
			errs = append(errs, apierrors.Invalid(fldPath.child("httpHeaders").String(), hdr.Name, msg))
		}
	}
	return errs
}

// validatePortNumOrName checks a port given as a number or as the name of
// a container port.
func validatePortNumOrName(port intstr.IntOrString, fldPath path) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	if port.Type == intstr.String {
		for _, msg := range IsValidPortName(port.StrVal) {
			errs = append(errs, apierrors.Invalid(fldPath.String(), port.StrVal, msg))
		}
		return errs
	}
	for _, msg := range IsValidPortNum(int(port.IntVal)) {
		errs = append(errs, apierrors.Invalid(fldPath.String(), port.IntVal, msg))
	}
	return errs
}
