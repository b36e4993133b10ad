// Package v1 holds the certificates.k8s.io/v1 CertificateSigningRequest:
// a request for an X.509 certificate that a user or component submits, an
// approver approves or denies (the approval subresource) and a signer
// answers with a certificate (the status subresource). Its types,
// registration (AddToScheme) and the Approved/Denied/Failed conditions.
// minicp serves the API only: no signer issues certificates.
//
// Import it as certificatesv1. Field names, JSON spellings and protobuf
// field numbers match upstream.
//
// Upstream: k8s.io/api/certificates/v1.
package v1
