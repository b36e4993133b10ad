package validation

import (
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/minicp/minicp/api/apierrors"
	apiextensionsv1 "github.com/minicp/minicp/api/apiextensions/v1"
	apivalidation "github.com/minicp/minicp/api/validation"
)

// validateConversion checks spec.conversion. The paths are those of the
// internal form, where the webhook's settings sit directly in the
// conversion: spec.conversion.webhookClientConfig and
// spec.conversion.conversionReviewVersions.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation (validateCustomResourceConversion).
func validateConversion(c *apiextensionsv1.CustomResourceConversion, requireRecognizedVersion bool, fldPath path, opts options) apierrors.FieldErrors {
	if c == nil {
		return nil
	}
	var cc *apiextensionsv1.WebhookClientConfig
	var reviewVersions []string
	if c.Webhook != nil {
		cc, reviewVersions = c.Webhook.ClientConfig, c.Webhook.ConversionReviewVersions
	}
	all := validateEnumStrings(fldPath.child("strategy"), string(c.Strategy), []string{string(apiextensionsv1.NoneConverter), string(apiextensionsv1.WebhookConverter)}, true)
	if c.Strategy != apiextensionsv1.WebhookConverter {
		if cc != nil {
			all = append(all, forbidden(fldPath.child("webhookClientConfig"), "should not be set when strategy is not set to Webhook"))
		}
		if len(reviewVersions) > 0 {
			all = append(all, forbidden(fldPath.child("conversionReviewVersions"), "should not be set when strategy is not set to Webhook"))
		}
		return all
	}
	ccPath := fldPath.child("webhookClientConfig")
	if cc == nil {
		all = append(all, required(ccPath, "required when strategy is set to Webhook"))
	} else {
		switch {
		case (cc.URL == nil) == (cc.Service == nil):
			all = append(all, required(ccPath, "exactly one of url or service is required"))
		case cc.URL != nil:
			all = append(all, validateWebhookURL(ccPath.child("url"), *cc.URL)...)
		default:
			var port int32
			if cc.Service.Port != nil {
				port = *cc.Service.Port
			}
			all = append(all, validateWebhookService(ccPath.child("service"), cc.Service.Name, cc.Service.Namespace, cc.Service.Path, port)...)
		}
		if len(cc.CABundle) > 0 && !opts.allowInvalidCABundle {
			if err := checkCABundle(cc.CABundle); err != nil {
				all = append(all, invalid(ccPath.child("caBundle"), cc.CABundle, err.Error()))
			}
		}
	}
	return append(all, validateConversionReviewVersions(reviewVersions, requireRecognizedVersion, fldPath.child("conversionReviewVersions"))...)
}

func validateConversionReviewVersions(versions []string, requireRecognized bool, fldPath path) apierrors.FieldErrors {
	if len(versions) < 1 {
		return apierrors.FieldErrors{required(fldPath, "")}
	}
	var all apierrors.FieldErrors
	seen := map[string]bool{}
	recognized := false
	for i, v := range versions {
		if seen[v] {
			all = append(all, invalid(fldPath.index(i), v, "duplicate version"))
			continue
		}
		seen[v] = true
		for _, msg := range apivalidation.IsDNS1035Label(v) {
			all = append(all, invalid(fldPath.index(i), v, msg))
		}
		recognized = recognized || slices.Contains(acceptedConversionReviewVersions, v)
	}
	if requireRecognized && !recognized {
		all = append(all, invalid(fldPath, versions, fmt.Sprintf("must include at least one of %v", strings.Join(acceptedConversionReviewVersions, ", "))))
	}
	return all
}

func hasValidConversionReviewVersionOrEmpty(versions []string) bool {
	if len(versions) < 1 {
		return true
	}
	for _, v := range versions {
		if slices.Contains(acceptedConversionReviewVersions, v) {
			return true
		}
	}
	return false
}

// allowInvalidCABundle allows an invalid CA bundle on update while the
// CRD is not established, or when the stored bundle is invalid too.
func allowInvalidCABundle(old *apiextensionsv1.CustomResourceDefinition) bool {
	if !apiextensionsv1.IsCRDConditionTrue(old, apiextensionsv1.Established) {
		return true
	}
	c := old.Spec.Conversion
	if c == nil || c.Webhook == nil || c.Webhook.ClientConfig == nil || len(c.Webhook.ClientConfig.CABundle) == 0 {
		return false
	}
	return checkCABundle(c.Webhook.ClientConfig.CABundle) != nil
}

// checkCABundle fails unless the bundle holds PEM certificates.
//
// Upstream: k8s.io/apiserver/pkg/util/webhook (ValidateCABundle), through
// k8s.io/client-go/transport (rootCertPool).
func checkCABundle(caBundle []byte) error {
	if x509.NewCertPool().AppendCertsFromPEM(caBundle) {
		return nil
	}
	err := errors.New("no valid certificate authority data seen")
	for rest := caBundle; len(rest) > 0; {
		var block *pem.Block
		block, rest = pem.Decode(rest)
		if block == nil {
			err = errors.New("unable to parse bytes as PEM block")
			break
		}
		if block.Type != "CERTIFICATE" || len(block.Headers) != 0 {
			continue
		}
		if _, perr := x509.ParseCertificate(block.Bytes); perr != nil {
			err = fmt.Errorf("failed to parse certificate: %w", perr)
			break
		}
	}
	return fmt.Errorf("unable to load root certificates: %w", err)
}

// validateWebhookURL checks an https URL without user info, query or
// fragment.
//
// Upstream: k8s.io/apiserver/pkg/util/webhook (ValidateWebhookURL).
func validateWebhookURL(fldPath path, rawURL string) apierrors.FieldErrors {
	const form = "; desired format: https://host[/path]"
	u, err := url.Parse(rawURL)
	if err != nil {
		return apierrors.FieldErrors{required(fldPath, "url must be a valid URL: "+err.Error()+form)}
	}
	var all apierrors.FieldErrors
	if u.Scheme != "https" {
		all = append(all, invalid(fldPath, u.Scheme, "'https' is the only allowed URL scheme"+form))
	}
	if u.Host == "" {
		all = append(all, invalid(fldPath, u.Host, "host must be specified"+form))
	}
	if u.User != nil {
		all = append(all, invalid(fldPath, u.User.String(), "user information is not permitted in the URL"))
	}
	if u.Fragment != "" {
		all = append(all, invalid(fldPath, u.Fragment, "fragments are not permitted in the URL"))
	}
	if u.RawQuery != "" {
		all = append(all, invalid(fldPath, u.RawQuery, "query parameters are not permitted in the URL"))
	}
	return all
}

// validateWebhookService checks a webhook's Service reference.
//
// Upstream: k8s.io/apiserver/pkg/util/webhook (ValidateWebhookService).
func validateWebhookService(fldPath path, name, namespace string, urlPath *string, port int32) apierrors.FieldErrors {
	var all apierrors.FieldErrors
	if name == "" {
		all = append(all, required(fldPath.child("name"), ""))
	}
	if namespace == "" {
		all = append(all, required(fldPath.child("namespace"), ""))
	}
	if errs := apivalidation.IsValidPortNum(int(port)); errs != nil {
		all = append(all, invalid(fldPath.child("port"), port, "port is not valid: "+strings.Join(errs, ", ")))
	}
	if urlPath == nil {
		return all
	}
	p := *urlPath
	if p == "/" || p == "" {
		return all
	}
	if p == "//" {
		return append(all, invalid(fldPath.child("path"), p, "segment[0] may not be empty"))
	}
	if !strings.HasPrefix(p, "/") {
		all = append(all, invalid(fldPath.child("path"), p, "must start with a '/'"))
	}
	check := strings.TrimSuffix(p[1:], "/")
	for i, step := range strings.Split(check, "/") {
		if step == "" {
			all = append(all, invalid(fldPath.child("path"), p, fmt.Sprintf("segment[%d] may not be empty", i)))
			continue
		}
		for _, failure := range apivalidation.IsDNS1123Subdomain(step) {
			all = append(all, invalid(fldPath.child("path"), p, fmt.Sprintf("segment[%d]: %v", i, failure)))
		}
	}
	return all
}
