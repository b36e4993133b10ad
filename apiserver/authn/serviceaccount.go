package authn

import "github.com/minicp/minicp/apiserver/request"

// Keys of the extra information a service account token's user carries,
// spelled as kube-apiserver spells them: authorizers and admission (the
// NodeRestriction kind) read which pod and node a token was issued for.
const (
	ExtraPodName      = "authentication.kubernetes.io/pod-name"
	ExtraPodUID       = "authentication.kubernetes.io/pod-uid"
	ExtraNodeName     = "authentication.kubernetes.io/node-name"
	ExtraNodeUID      = "authentication.kubernetes.io/node-uid"
	ExtraCredentialID = "authentication.kubernetes.io/credential-id"
)

// DefaultServiceAccountIssuer is the issuer (iss claim) of service account
// tokens unless configured otherwise, and so the API server's audience:
// what kubeadm and kind configure as --service-account-issuer.
const DefaultServiceAccountIssuer = "https://kubernetes.default.svc.cluster.local"

// privateClaims are the Kubernetes-specific claims of a service account
// token, under "kubernetes.io".
//
// Upstream: k8s.io/kubernetes/pkg/serviceaccount (privateClaims).
type privateClaims struct {
	Kubernetes kubernetesClaims `json:"kubernetes.io,omitempty"`
}

type kubernetesClaims struct {
	Namespace string `json:"namespace,omitempty"`
	Svcacct   ref    `json:"serviceaccount,omitempty"`
	Pod       *ref   `json:"pod,omitempty"`
	Secret    *ref   `json:"secret,omitempty"`
	Node      *ref   `json:"node,omitempty"`
}

type ref struct {
	Name string `json:"name,omitempty"`
	UID  string `json:"uid,omitempty"`
}

// ServiceAccountUsername is the user name of a service account.
func ServiceAccountUsername(ns, name string) string {
	return request.ServiceAccountUsernamePrefix + ns + ":" + name
}

// serviceAccountUser is the user a verified token authenticates as.
//
// Upstream: k8s.io/apiserver/pkg/authentication/serviceaccount
// (ServiceAccountInfo.UserInfo).
func serviceAccountUser(c *kubernetesClaims, jti string) *request.User {
	u := &request.User{
		Name: ServiceAccountUsername(c.Namespace, c.Svcacct.Name),
		UID:  c.Svcacct.UID,
		Groups: []string{
			request.AllServiceAccounts, request.ServiceAccountGroupPrefix + c.Namespace, request.AllAuthenticated,
		},
	}
	extra := map[string][]string{}
	if c.Pod != nil {
		extra[ExtraPodName] = []string{c.Pod.Name}
		extra[ExtraPodUID] = []string{c.Pod.UID}
	}
	if c.Node != nil {
		extra[ExtraNodeName] = []string{c.Node.Name}
		if c.Node.UID != "" {
			extra[ExtraNodeUID] = []string{c.Node.UID}
		}
	}
	if jti != "" {
		extra[ExtraCredentialID] = []string{"JTI=" + jti}
	}
	if len(extra) > 0 {
		u.Extra = extra
	}
	return u
}
