package node

import (
	"context"
	"fmt"
	"slices"

	"github.com/minicp/minicp/api/fields"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	rbacv1 "github.com/minicp/minicp/api/rbac/v1"
	"github.com/minicp/minicp/apiserver/authz"
	"github.com/minicp/minicp/apiserver/authz/rbac"
	"github.com/minicp/minicp/apiserver/authz/rbac/bootstrappolicy"
	"github.com/minicp/minicp/apiserver/request"
)

// Authorizer is the Node authorizer. For a node user (request.NodeIdentity)
// it allows, by resource:
//
//   - secrets, configmaps: get, list and watch of one object a pod bound to
//     the node references;
//   - persistentvolumeclaims: get of one such claim, update and patch of
//     its status; persistentvolumes: get of one such volume;
//   - serviceaccounts/token: create, for a service account of such a pod;
//   - leases: the node's own, in kube-node-lease;
//   - nodes: reading its own Node; create, update, patch and status
//     writes of any (NodeRestriction narrows those to its own);
//   - pods: get of a pod bound to it, list and watch with the field
//     selector spec.nodeName=<node>, create and delete (mirror pods,
//     narrowed by NodeRestriction), status writes and evictions;
//   - anything else: what bootstrappolicy.NodeRules grant.
//
// It has no opinion on other users, and never denies outright: a request
// it does not allow goes on to the next authorizer (RBAC) with a reason
// that says why. Safe for concurrent use.
//
// Upstream: k8s.io/kubernetes/plugin/pkg/auth/authorizer/node
// (NodeAuthorizer), with AuthorizeNodeWithSelectors on.
type Authorizer struct {
	graph     Graph
	nodeRules []rbacv1.PolicyRule
}

var _ authz.Authorizer = (*Authorizer)(nil)

// New returns a Node authorizer reading relations from graph.
func New(graph Graph) *Authorizer {
	return &Authorizer{graph: graph, nodeRules: bootstrappolicy.NodeRules()}
}

// Authorize implements authz.Authorizer.
func (a *Authorizer) Authorize(ctx context.Context, attrs authz.Attributes) (authz.Decision, string, error) {
	nodeName, isNode := request.NodeIdentity(attrs.User)
	if !isNode || attrs.RequestInfo == nil {
		return authz.DecisionNoOpinion, "", nil
	}
	if nodeName == "" {
		return authz.DecisionNoOpinion, fmt.Sprintf("unknown node for user %q", attrs.User.Name), nil
	}
	if attrs.IsResourceRequest {
		switch {
		case attrs.APIGroup == "" && (attrs.Resource == "secrets" || attrs.Resource == "configmaps"):
			return a.authorizeReadNamespacedObject(ctx, nodeName, attrs)
		case attrs.APIGroup == "" && attrs.Resource == "persistentvolumeclaims":
			if attrs.Subresource == "status" {
				return a.authorizeStatusUpdate(ctx, nodeName, attrs)
			}
			return a.authorizeGet(ctx, nodeName, attrs)
		case attrs.APIGroup == "" && attrs.Resource == "persistentvolumes":
			return a.authorizeGet(ctx, nodeName, attrs)
		case attrs.APIGroup == "" && attrs.Resource == "serviceaccounts":
			return a.authorizeCreateToken(ctx, nodeName, attrs)
		case attrs.APIGroup == "coordination.k8s.io" && attrs.Resource == "leases":
			return authorizeLease(nodeName, attrs)
		case attrs.APIGroup == "" && attrs.Resource == "nodes":
			return authorizeNode(nodeName, attrs)
		case attrs.APIGroup == "" && attrs.Resource == "pods":
			return a.authorizePod(ctx, nodeName, attrs)
		}
	}
	// Access to other resources is not subdivided by node.
	if slices.ContainsFunc(a.nodeRules, func(r rbacv1.PolicyRule) bool { return rbac.RuleAllows(attrs, &r) }) {
		return authz.DecisionAllow, "", nil
	}
	return authz.DecisionNoOpinion, "", nil
}

// authorizeReadNamespacedObject allows get, list and watch of one object
// related to the node; a list or watch names it by the field selector
// metadata.name=<name>, as the kubelet watches one Secret.
func (a *Authorizer) authorizeReadNamespacedObject(ctx context.Context, nodeName string, attrs authz.Attributes) (authz.Decision, string, error) {
	switch attrs.Verb {
	case "get", "list", "watch":
	default:
		return authz.DecisionNoOpinion, "can only read resources of this type", nil
	}
	if attrs.Subresource != "" {
		return authz.DecisionNoOpinion, "cannot read subresource", nil
	}
	if attrs.Namespace == "" {
		return authz.DecisionNoOpinion, "can only read namespaced object of this type", nil
	}
	name := attrs.Name
	if name == "" && attrs.Verb != "get" {
		name = selectedName(attrs.FieldSelector)
	}
	return a.authorize(ctx, nodeName, attrs.Resource, attrs.Namespace, name)
}

// authorizeGet allows get of one object related to the node.
func (a *Authorizer) authorizeGet(ctx context.Context, nodeName string, attrs authz.Attributes) (authz.Decision, string, error) {
	if attrs.Verb != "get" {
		return authz.DecisionNoOpinion, "can only get individual resources of this type", nil
	}
	if attrs.Subresource != "" {
		return authz.DecisionNoOpinion, "cannot get subresource", nil
	}
	return a.authorize(ctx, nodeName, attrs.Resource, attrs.Namespace, attrs.Name)
}

// authorizeStatusUpdate allows status writes of one object related to the
// node.
func (a *Authorizer) authorizeStatusUpdate(ctx context.Context, nodeName string, attrs authz.Attributes) (authz.Decision, string, error) {
	if attrs.Verb != "update" && attrs.Verb != "patch" {
		return authz.DecisionNoOpinion, "can only get/update/patch this type", nil
	}
	return a.authorize(ctx, nodeName, attrs.Resource, attrs.Namespace, attrs.Name)
}

// authorizeCreateToken allows a token for a service account of a pod
// bound to the node.
func (a *Authorizer) authorizeCreateToken(ctx context.Context, nodeName string, attrs authz.Attributes) (authz.Decision, string, error) {
	if attrs.Verb != "create" || attrs.Name == "" {
		return authz.DecisionNoOpinion, "can only create tokens for individual service accounts", nil
	}
	if attrs.Subresource != "token" {
		return authz.DecisionNoOpinion, "can only create token subresource of serviceaccount", nil
	}
	return a.authorize(ctx, nodeName, attrs.Resource, attrs.Namespace, attrs.Name)
}

// authorize allows what some pod bound to nodeName references.
func (a *Authorizer) authorize(ctx context.Context, nodeName, resource, namespace, name string) (authz.Decision, string, error) {
	if name == "" {
		return authz.DecisionNoOpinion, "No Object name found", nil
	}
	noRelation := fmt.Sprintf("no relationship found between node '%s' and this object", nodeName)
	pods, err := a.graph.PodsReferencing(ctx, Key(resource, namespace, name))
	if err != nil {
		return authz.DecisionNoOpinion, noRelation, err
	}
	for _, p := range pods {
		if p.Spec.NodeName == nodeName {
			return authz.DecisionAllow, "", nil
		}
	}
	return authz.DecisionNoOpinion, noRelation, nil
}

// authorizeLease allows the node's own Lease in kube-node-lease; a create
// names no object, and NodeRestriction checks the Lease's name.
func authorizeLease(nodeName string, attrs authz.Attributes) (authz.Decision, string, error) {
	switch attrs.Verb {
	case "get", "create", "update", "patch", "delete":
	default:
		return authz.DecisionNoOpinion, "can only get, create, update, patch, or delete a node lease", nil
	}
	if attrs.Namespace != metav1.NamespaceNodeLease {
		return authz.DecisionNoOpinion, fmt.Sprintf("can only access leases in the %q system namespace", metav1.NamespaceNodeLease), nil
	}
	if attrs.Verb != "create" && attrs.Name != nodeName {
		return authz.DecisionNoOpinion, "can only access node lease with the same name as the requesting node", nil
	}
	return authz.DecisionAllow, "", nil
}

// authorizeNode allows reading the node's own Node, by name rather than
// through the graph so that a kubelet can read its Node before creating
// it, and writes of Nodes, which NodeRestriction narrows to its own.
func authorizeNode(nodeName string, attrs authz.Attributes) (authz.Decision, string, error) {
	switch attrs.Subresource {
	case "":
		switch attrs.Verb {
		case "create", "update", "patch":
			return authz.DecisionAllow, "", nil
		case "get", "list", "watch":
			name := attrs.Name
			if name == "" && attrs.Verb != "get" {
				name = selectedName(attrs.FieldSelector)
			}
			switch name {
			case nodeName:
				return authz.DecisionAllow, "", nil
			case "":
				return authz.DecisionNoOpinion, fmt.Sprintf("node '%s' cannot read all nodes, only its own Node object", nodeName), nil
			default:
				return authz.DecisionNoOpinion, fmt.Sprintf("node '%s' cannot read '%s', only its own Node object", nodeName, name), nil
			}
		}
	case "status":
		if attrs.Verb == "update" || attrs.Verb == "patch" {
			return authz.DecisionAllow, "", nil
		}
	}
	return authz.DecisionNoOpinion, "", nil
}

// authorizePod allows a node its own pods: get of one bound to it, list
// and watch of those whose spec.nodeName is the node, and the writes
// NodeRestriction narrows (mirror pods, status, eviction).
func (a *Authorizer) authorizePod(ctx context.Context, nodeName string, attrs authz.Attributes) (authz.Decision, string, error) {
	switch attrs.Subresource {
	case "":
		switch attrs.Verb {
		case "get":
			return a.authorizeGet(ctx, nodeName, attrs)
		case "list", "watch":
			if sel, err := fields.ParseSelector(attrs.FieldSelector); err == nil {
				if v, ok := sel.RequiresExactMatch("spec.nodeName"); ok && v == nodeName {
					return authz.DecisionAllow, "", nil
				}
			}
			if name := selectedName(attrs.FieldSelector); name != "" {
				return a.authorize(ctx, nodeName, attrs.Resource, attrs.Namespace, name)
			}
			return authz.DecisionNoOpinion, "can only list/watch pods with spec.nodeName field selector", nil
		case "create", "delete":
			return authz.DecisionAllow, "", nil
		}
	case "status":
		if attrs.Verb == "update" || attrs.Verb == "patch" {
			return authz.DecisionAllow, "", nil
		}
	case "eviction":
		if attrs.Verb == "create" {
			return authz.DecisionAllow, "", nil
		}
	}
	return authz.DecisionNoOpinion, "", nil
}

// selectedName is the name a field selector metadata.name=<name> picks,
// or "": what kube-apiserver's request info makes the name of a list or
// watch.
func selectedName(selector string) string {
	if selector == "" {
		return ""
	}
	sel, err := fields.ParseSelector(selector)
	if err != nil {
		return ""
	}
	name, _ := sel.RequiresExactMatch("metadata.name")
	return name
}
