package v1

import metav1 "github.com/minicp/minicp/api/meta/v1"

// Secret holds sensitive data (passwords, tokens, keys) for pods to read
// as environment variables or files. Data goes on the wire base64-encoded,
// as any []byte does in JSON.
type Secret struct {
	metav1.TypeMeta   `json:""`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	// Immutable, once true, forbids changing Data (and setting it back to
	// false).
	Immutable *bool             `json:"immutable,omitempty" protobuf:"varint,5,opt,name=immutable"`
	Data      map[string][]byte `json:"data,omitempty" protobuf:"bytes,2,rep,name=data"`
	// StringData is a write-only convenience: the API server merges it
	// into Data (its keys win) and never stores or returns it.
	StringData map[string]string `json:"stringData,omitempty" protobuf:"bytes,4,rep,name=stringData"`
	// Type says what Data must hold. Defaults to Opaque.
	Type SecretType `json:"type,omitempty" protobuf:"bytes,3,opt,name=type,casttype=SecretType"`
}

// SecretList is a list of Secrets.
type SecretList struct {
	metav1.TypeMeta `json:""`
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items           []Secret `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// SecretType names what a Secret holds; validation checks the keys each
// built-in type needs.
type SecretType string

// The built-in secret types and the keys they require.
const (
	// SecretTypeOpaque is arbitrary user data.
	SecretTypeOpaque SecretType = "Opaque"

	// SecretTypeServiceAccountToken is a service account's token; it needs
	// the ServiceAccountNameKey annotation.
	SecretTypeServiceAccountToken SecretType = "kubernetes.io/service-account-token"
	// ServiceAccountNameKey and ServiceAccountUIDKey annotate a token
	// secret with its service account.
	ServiceAccountNameKey = "kubernetes.io/service-account.name"
	ServiceAccountUIDKey  = "kubernetes.io/service-account.uid"
	// ServiceAccountTokenKey, ServiceAccountRootCAKey and
	// ServiceAccountNamespaceKey are the data keys of a token secret.
	ServiceAccountTokenKey     = "token"
	ServiceAccountRootCAKey    = "ca.crt"
	ServiceAccountNamespaceKey = "namespace"

	// SecretTypeDockercfg holds a ~/.dockercfg under DockerConfigKey.
	SecretTypeDockercfg SecretType = "kubernetes.io/dockercfg"
	DockerConfigKey                = ".dockercfg"
	// SecretTypeDockerConfigJSON holds a ~/.docker/config.json under
	// DockerConfigJSONKey.
	SecretTypeDockerConfigJSON SecretType = "kubernetes.io/dockerconfigjson"
	DockerConfigJSONKey                   = ".dockerconfigjson"

	// SecretTypeBasicAuth holds BasicAuthUsernameKey and/or
	// BasicAuthPasswordKey.
	SecretTypeBasicAuth  SecretType = "kubernetes.io/basic-auth"
	BasicAuthUsernameKey            = "username"
	BasicAuthPasswordKey            = "password"

	// SecretTypeSSHAuth holds SSHAuthPrivateKey.
	SecretTypeSSHAuth SecretType = "kubernetes.io/ssh-auth"
	SSHAuthPrivateKey            = "ssh-privatekey"

	// SecretTypeTLS holds TLSCertKey and TLSPrivateKeyKey.
	SecretTypeTLS    SecretType = "kubernetes.io/tls"
	TLSCertKey                  = "tls.crt"
	TLSPrivateKeyKey            = "tls.key"

	// SecretTypeBootstrapToken holds a bootstrap token.
	SecretTypeBootstrapToken SecretType = "bootstrap.kubernetes.io/token"
)

// MaxSecretSize bounds the summed size of a Secret's data (and of a
// ConfigMap's): 1 MiB, so an object fits comfortably in one etcd value.
const MaxSecretSize = 1 * 1024 * 1024
