// Package fields parses and matches field selectors
// ("metadata.name=x,spec.nodeName!=,status.phase=Running"), the
// ?fieldSelector= query parameter of list and watch. Each resource declares
// which fields it can be selected by; the API server rejects the others.
//
// Field selectors support only =, == and !=, joined by commas. A value may
// contain ',', '=' or '\' escaped with a backslash (EscapeValue).
//
// Upstream: k8s.io/apimachinery/pkg/fields.
package fields
