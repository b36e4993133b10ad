package validation

import (
	"fmt"
	"net/url"
	"strings"

	admissionregistrationv1 "github.com/minicp/minicp/api/admissionregistration/v1"
	"github.com/minicp/minicp/api/apierrors"
)

// validateWebhookClientConfig checks where a webhook listens: exactly one
// of an https URL and a service reference.
func validateWebhookClientConfig(cc *admissionregistrationv1.WebhookClientConfig, p path) apierrors.FieldErrors {
	switch {
	case (cc.URL == nil) == (cc.Service == nil):
		return apierrors.FieldErrors{apierrors.Required(p.String(), "exactly one of url or service is required")}
	case cc.URL != nil:
		return validateWebhookURL(*cc.URL, p.child("url"))
	default:
		port := int32(admissionregistrationv1.DefaultServicePort)
		if cc.Service.Port != nil {
			port = *cc.Service.Port
		}
		return validateWebhookService(cc.Service, port, p.child("service"))
	}
}

// validateWebhookURL checks a webhook URL: https, with a host, and no user
// information, query or fragment (the API server adds its own query).
//
// Upstream: k8s.io/apiserver/pkg/util/webhook (ValidateWebhookURL).
func validateWebhookURL(rawURL string, p path) apierrors.FieldErrors {
	const form = "; desired format: https://host[/path]"
	u, err := url.Parse(rawURL)
	if err != nil {
		return apierrors.FieldErrors{apierrors.Required(p.String(), "url must be a valid URL: "+err.Error()+form)}
	}
	var errs apierrors.FieldErrors
	if u.Scheme != "https" {
		errs = append(errs, apierrors.Invalid(p.String(), u.Scheme, "'https' is the only allowed URL scheme"+form))
	}
	if u.Host == "" {
		errs = append(errs, apierrors.Invalid(p.String(), u.Host, "host must be specified"+form))
	}
	if u.User != nil {
		errs = append(errs, apierrors.Invalid(p.String(), u.User.String(), "user information is not permitted in the URL"))
	}
	if u.Fragment != "" {
		errs = append(errs, apierrors.Invalid(p.String(), u.Fragment, "fragments are not permitted in the URL"))
	}
	if u.RawQuery != "" {
		errs = append(errs, apierrors.Invalid(p.String(), u.RawQuery, "query parameters are not permitted in the URL"))
	}
	return errs
}

// validateWebhookService checks a service reference: a name, a namespace,
// a valid port and a path of DNS-subdomain segments.
//
// Upstream: k8s.io/apiserver/pkg/util/webhook (ValidateWebhookService).
func validateWebhookService(svc *admissionregistrationv1.ServiceReference, port int32, p path) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	if svc.Name == "" {
		errs = append(errs, apierrors.Required(p.child("name").String(), "service name is required"))
	}
	if svc.Namespace == "" {
		errs = append(errs, apierrors.Required(p.child("namespace").String(), "service namespace is required"))
	}
	if msgs := IsValidPortNum(int(port)); msgs != nil {
		errs = append(errs, apierrors.Invalid(p.child("port").String(), port, "port is not valid: "+strings.Join(msgs, ", ")))
	}
	if svc.Path == nil {
		return errs
	}
	urlPath := *svc.Path
	pathField := p.child("path").String()
	switch {
	case urlPath == "/" || urlPath == "":
		return errs
	case urlPath == "//":
		return append(errs, apierrors.Invalid(pathField, urlPath, "segment[0] may not be empty"))
	case !strings.HasPrefix(urlPath, "/"):
		errs = append(errs, apierrors.Invalid(pathField, urlPath, "must start with a '/'"))
	}
	toCheck := strings.TrimSuffix(urlPath[1:], "/")
	for i, step := range strings.Split(toCheck, "/") {
		if step == "" {
			errs = append(errs, apierrors.Invalid(pathField, urlPath, fmt.Sprintf("segment[%d] may not be empty", i)))
			continue
		}
		for _, msg := range IsDNS1123Subdomain(step) {
			errs = append(errs, apierrors.Invalid(pathField, urlPath, fmt.Sprintf("segment[%d]: %v", i, msg)))
		}
	}
	return errs
}
