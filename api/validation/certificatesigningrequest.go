package validation

import (
	"bytes"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/minicp/minicp/api/apierrors"
	certificatesv1 "github.com/minicp/minicp/api/certificates/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
)

// allValidUsages are the key usages a request may ask for, sorted as
// upstream's NotSupported lists them.
var allValidUsages = func() []string {
	usages := []string{
		"signing", "digital signature", "content commitment", "key encipherment", "key agreement",
		"data encipherment", "cert sign", "crl sign", "encipher only", "decipher only", "any",
		"server auth", "client auth", "code signing", "email protection", "s/mime", "ipsec end system",
		"ipsec tunnel", "ipsec user", "timestamping", "ocsp signing", "microsoft sgc", "netscape sgc",
	}
	slices.Sort(usages)
	return usages
}()

// csrValidationOptions are what a write may do beyond the defaults: the
// subresource it goes through allows some, and data stored before a rule
// existed is tolerated on update.
//
// Upstream: k8s.io/kubernetes/pkg/apis/certificates/validation (certificateValidationOptions).
type csrValidationOptions struct {
	allowSettingApprovalConditions bool // the approval subresource
	allowSettingCertificate        bool // the status subresource
	allowBothApprovedAndDenied     bool
	allowLegacySignerName          bool
	allowDuplicateConditionTypes   bool
	allowEmptyConditionType        bool
	allowArbitraryCertificate      bool
	allowUnknownUsages             bool
	allowDuplicateUsages           bool
}

// ValidateCertificateSigningRequestCreate checks a request being created:
// a PEM-encoded, correctly signed PKCS#10 request, known and distinct
// usages, a qualified signer name, an expiration of at least ten minutes,
// and well-formed conditions.
//
// Upstream: k8s.io/kubernetes/pkg/apis/certificates/validation (ValidateCertificateSigningRequestCreate).
func ValidateCertificateSigningRequestCreate(csr *certificatesv1.CertificateSigningRequest) apierrors.FieldErrors {
	return validateCSR(csr, csrOptions(csr, nil))
}

// ValidateCertificateSigningRequestUpdate checks an update of the main
// resource, which may change neither the approval conditions nor the
// certificate.
//
// Upstream: k8s.io/kubernetes/pkg/apis/certificates/validation (ValidateCertificateSigningRequestUpdate).
func ValidateCertificateSigningRequestUpdate(csr, old *certificatesv1.CertificateSigningRequest) apierrors.FieldErrors {
	return validateCSRUpdate(csr, old, csrOptions(csr, old))
}

// ValidateCertificateSigningRequestStatusUpdate checks a write of the
// status subresource: it may set the certificate, once.
//
// Upstream: k8s.io/kubernetes/pkg/apis/certificates/validation (ValidateCertificateSigningRequestStatusUpdate).
func ValidateCertificateSigningRequestStatusUpdate(csr, old *certificatesv1.CertificateSigningRequest) apierrors.FieldErrors {
	opts := csrOptions(csr, old)
	opts.allowSettingCertificate = true
	return validateCSRUpdate(csr, old, opts)
}

// ValidateCertificateSigningRequestApprovalUpdate checks a write of the
// approval subresource: it may add an Approved or a Denied condition, not
// both.
//
// Upstream: k8s.io/kubernetes/pkg/apis/certificates/validation (ValidateCertificateSigningRequestApprovalUpdate).
func ValidateCertificateSigningRequestApprovalUpdate(csr, old *certificatesv1.CertificateSigningRequest) apierrors.FieldErrors {
	opts := csrOptions(csr, old)
	opts.allowSettingApprovalConditions = true
	return validateCSRUpdate(csr, old, opts)
}

func validateCSR(csr *certificatesv1.CertificateSigningRequest, opts csrValidationOptions) apierrors.FieldErrors {
	// Any name will do: upstream does not care what requests are called.
	errs := ValidateObjectMeta(&csr.ObjectMeta, false, func(string, bool) []string { return nil }, "metadata")
	spec := path("spec")
	if err := checkCertificateRequest(csr.Spec.Request); err != nil {
		errs = append(errs, apierrors.Invalid(spec.child("request").String(), csr.Spec.Request, err.Error()))
	}
	if len(csr.Spec.Usages) == 0 {
		errs = append(errs, apierrors.Required(spec.child("usages").String(), ""))
	}
	if !opts.allowUnknownUsages {
		for i, u := range csr.Spec.Usages {
			if !slices.Contains(allValidUsages, string(u)) {
				errs = append(errs, apierrors.NotSupported(spec.child("usages").index(i).String(), u, allValidUsages))
			}
		}
	}
	if !opts.allowDuplicateUsages {
		for i, u := range csr.Spec.Usages {
			if slices.Contains(csr.Spec.Usages[:i], u) {
				errs = append(errs, apierrors.Duplicate(spec.child("usages").index(i).String(), u))
			}
		}
	}
	if !opts.allowLegacySignerName && csr.Spec.SignerName == certificatesv1.LegacyUnknownSignerName {
		errs = append(errs, apierrors.Invalid(spec.child("signerName").String(), csr.Spec.SignerName, "the legacy signerName is not allowed via this API version"))
	} else {
		errs = append(errs, validateSignerName(spec.child("signerName"), csr.Spec.SignerName)...)
	}
	if e := csr.Spec.ExpirationSeconds; e != nil && *e < 600 {
		errs = append(errs, apierrors.Invalid(spec.child("expirationSeconds").String(), *e, "may not specify a duration less than 600 seconds (10 minutes)"))
	}
	errs = append(errs, validateCSRConditions(path("status.conditions"), csr, opts)...)
	if !opts.allowArbitraryCertificate {
		if err := checkCertificate(csr.Status.Certificate); err != nil {
			errs = append(errs, apierrors.Invalid("status.certificate", "<certificate data>", err.Error()))
		}
	}
	return errs
}

// checkCertificateRequest parses a PEM-encoded PKCS#10 request and checks
// its signature: a request whose signature is wrong was not made by the
// holder of the key.
//
// Upstream: k8s.io/kubernetes/pkg/apis/certificates (ParseCSR) and
// validation (validateCSR).
func checkCertificateRequest(pemBytes []byte) error {
	block, _ := pem.Decode(pemBytes)
	if block == nil || block.Type != "CERTIFICATE REQUEST" {
		return errors.New("PEM block type must be CERTIFICATE REQUEST")
	}
	csr, err := x509.ParseCertificateRequest(block.Bytes)
	if err != nil {
		return err
	}
	return csr.CheckSignature()
}

// checkCertificate checks status.certificate: empty, or only CERTIFICATE
// PEM blocks without headers, each holding certificates.
//
// Upstream: k8s.io/kubernetes/pkg/apis/certificates/validation (validateCertificate).
func checkCertificate(pemData []byte) error {
	if len(pemData) == 0 {
		return nil
	}
	blocks := 0
	for {
		block, rest := pem.Decode(pemData)
		if block == nil {
			break
		}
		if block.Type != "CERTIFICATE" {
			return fmt.Errorf("only CERTIFICATE PEM blocks are allowed, found %q", block.Type)
		}
		if len(block.Headers) != 0 {
			return errors.New("no PEM block headers are permitted")
		}
		blocks++
		certs, err := x509.ParseCertificates(block.Bytes)
		if err != nil {
			return err
		}
		if len(certs) == 0 {
			return errors.New("found CERTIFICATE PEM block containing 0 certificates")
		}
		pemData = rest
	}
	if blocks == 0 {
		return errors.New("must contain at least one CERTIFICATE PEM block")
	}
	return nil
}

// validateSignerName checks a signer name: a DNS domain of at least two
// labels, a slash, and a path that is a DNS subdomain
// ("example.com/signer").
//
// Upstream: k8s.io/kubernetes/pkg/apis/core/validation (ValidateSignerName).
func validateSignerName(fldPath path, signerName string) apierrors.FieldErrors {
	if signerName == "" {
		return apierrors.FieldErrors{apierrors.Required(fldPath.String(), "")}
	}
	segments := strings.Split(signerName, "/")
	if len(segments) != 2 {
		// Which part is the domain is unknown: nothing more to check.
		return apierrors.FieldErrors{apierrors.Invalid(fldPath.String(), signerName, "must be a fully qualified domain and path of the form 'example.com/signer-name'")}
	}
	var errs apierrors.FieldErrors
	// 253 is a DNS subdomain's maximum length.
	if len(segments[0]) > 253 {
		errs = append(errs, apierrors.TooLong(fldPath.String(), segments[0], 253))
	}
	labels := strings.Split(segments[0], ".")
	for _, label := range labels {
		if msgs := IsDNS1123Label(label); len(msgs) > 0 {
			for _, msg := range msgs {
				errs = append(errs, apierrors.Invalid(fldPath.String(), segments[0], fmt.Sprintf("validating label %q: %s", label, msg)))
			}
			// Later labels would repeat the same errors.
			break
		}
	}
	if len(labels) < 2 {
		errs = append(errs, apierrors.Invalid(fldPath.String(), segments[0], "should be a domain with at least two segments separated by dots"))
	}
	if len(segments[1]) > 253 {
		errs = append(errs, apierrors.TooLong(fldPath.String(), segments[1], 253))
	}
	for _, msg := range IsDNS1123Subdomain(segments[1]) {
		errs = append(errs, apierrors.Invalid(fldPath.String(), segments[1], fmt.Sprintf("validating path %q: %s", segments[1], msg)))
	}
	return errs
}

// trueOnlyConditions are the condition types whose status may only be
// True.
var trueOnlyConditions = []certificatesv1.RequestConditionType{
	certificatesv1.CertificateApproved, certificatesv1.CertificateDenied, certificatesv1.CertificateFailed,
}

func validateCSRConditions(fldPath path, csr *certificatesv1.CertificateSigningRequest, opts csrValidationOptions) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	seen := map[certificatesv1.RequestConditionType]bool{}
	hasApproved, hasDenied := false, false
	for i, c := range csr.Status.Conditions {
		cp := fldPath.index(i)
		if !opts.allowEmptyConditionType && c.Type == "" {
			errs = append(errs, apierrors.Required(cp.child("type").String(), ""))
		}
		allowed := []string{string(corev1.ConditionFalse), string(corev1.ConditionTrue), string(corev1.ConditionUnknown)}
		if slices.Contains(trueOnlyConditions, c.Type) {
			allowed = []string{string(corev1.ConditionTrue)}
		}
		switch {
		case c.Status == "":
			errs = append(errs, apierrors.Required(cp.child("status").String(), ""))
		case !slices.Contains(allowed, string(c.Status)):
			errs = append(errs, apierrors.NotSupported(cp.child("status").String(), c.Status, allowed))
		}
		if !opts.allowBothApprovedAndDenied {
			switch c.Type {
			case certificatesv1.CertificateApproved:
				hasApproved = true
				if hasDenied {
					errs = append(errs, apierrors.Invalid(cp.child("type").String(), c.Type, "Approved and Denied conditions are mutually exclusive"))
				}
			case certificatesv1.CertificateDenied:
				hasDenied = true
				if hasApproved {
					errs = append(errs, apierrors.Invalid(cp.child("type").String(), c.Type, "Approved and Denied conditions are mutually exclusive"))
				}
			}
		}
		if !opts.allowDuplicateConditionTypes {
			if seen[c.Type] {
				errs = append(errs, apierrors.Duplicate(cp.child("type").String(), c.Type))
			}
			seen[c.Type] = true
		}
	}
	return errs
}

func validateCSRUpdate(csr, old *certificatesv1.CertificateSigningRequest, opts csrValidationOptions) apierrors.FieldErrors {
	errs := validateCSR(csr, opts)
	for _, t := range trueOnlyConditions {
		if len(findCSRConditions(csr, t)) < len(findCSRConditions(old, t)) {
			errs = append(errs, apierrors.Forbidden("status.conditions", fmt.Sprintf("updates may not remove a condition of type %q", t)))
		}
	}
	if !opts.allowSettingApprovalConditions {
		for _, t := range []certificatesv1.RequestConditionType{certificatesv1.CertificateApproved, certificatesv1.CertificateDenied} {
			oldConditions, newConditions := findCSRConditions(old, t), findCSRConditions(csr, t)
			switch {
			case len(newConditions) < len(oldConditions):
				// Reported above.
			case len(newConditions) > len(oldConditions):
				errs = append(errs, apierrors.Forbidden("status.conditions", fmt.Sprintf("updates may not add a condition of type %q", t)))
			case !conditionsEqual(oldConditions, newConditions):
				errs = append(errs, apierrors.Forbidden("status.conditions", fmt.Sprintf("updates may not modify a condition of type %q", t)))
			}
		}
	}
	if !bytes.Equal(csr.Status.Certificate, old.Status.Certificate) {
		if !opts.allowSettingCertificate {
			errs = append(errs, apierrors.Forbidden("status.certificate", "updates may not set certificate content"))
		} else if len(old.Status.Certificate) > 0 {
			errs = append(errs, apierrors.Forbidden("status.certificate", "updates may not modify existing certificate content"))
		}
	}
	return append(errs, ValidateObjectMetaUpdate(&csr.ObjectMeta, &old.ObjectMeta, "metadata")...)
}

func conditionsEqual(a, b []certificatesv1.CertificateSigningRequestCondition) bool {
	return slices.EqualFunc(a, b, func(x, y certificatesv1.CertificateSigningRequestCondition) bool {
		return x.Type == y.Type && x.Status == y.Status && x.Reason == y.Reason && x.Message == y.Message &&
			x.LastUpdateTime.Equal(y.LastUpdateTime.Time) && x.LastTransitionTime.Equal(y.LastTransitionTime.Time)
	})
}

func findCSRConditions(csr *certificatesv1.CertificateSigningRequest, t certificatesv1.RequestConditionType) []certificatesv1.CertificateSigningRequestCondition {
	var found []certificatesv1.CertificateSigningRequestCondition
	for _, c := range csr.Status.Conditions {
		if c.Type == t {
			found = append(found, c)
		}
	}
	return found
}

// csrOptions tolerates, on update, what the stored request already has,
// so that a request stored before a rule existed can still be approved
// and signed.
//
// Upstream: k8s.io/kubernetes/pkg/apis/certificates/validation (getValidationOptions).
func csrOptions(csr, old *certificatesv1.CertificateSigningRequest) csrValidationOptions {
	if old == nil {
		return csrValidationOptions{}
	}
	opts := csrValidationOptions{
		allowLegacySignerName:     old.Spec.SignerName == certificatesv1.LegacyUnknownSignerName,
		allowArbitraryCertificate: bytes.Equal(csr.Status.Certificate, old.Status.Certificate) || checkCertificate(old.Status.Certificate) != nil,
	}
	approved, denied := false, false
	seen := map[certificatesv1.RequestConditionType]bool{}
	for _, c := range old.Status.Conditions {
		approved = approved || c.Type == certificatesv1.CertificateApproved
		denied = denied || c.Type == certificatesv1.CertificateDenied
		opts.allowDuplicateConditionTypes = opts.allowDuplicateConditionTypes || seen[c.Type]
		opts.allowEmptyConditionType = opts.allowEmptyConditionType || c.Type == ""
		seen[c.Type] = true
	}
	opts.allowBothApprovedAndDenied = approved && denied
	for i, u := range old.Spec.Usages {
		opts.allowUnknownUsages = opts.allowUnknownUsages || !slices.Contains(allValidUsages, string(u))
		opts.allowDuplicateUsages = opts.allowDuplicateUsages || slices.Contains(old.Spec.Usages[:i], u)
	}
	return opts
}
