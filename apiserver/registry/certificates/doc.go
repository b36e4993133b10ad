// Package certificates holds the registry strategies of the
// certificatesigningrequests resource: the main resource (which records
// the requesting user and never changes the spec afterwards), its
// approval subresource (Approved and Denied conditions) and its status
// subresource (the signer's certificate and Failed condition), and its
// table.
//
// Upstream: k8s.io/kubernetes/pkg/registry/certificates/certificates.
package certificates
