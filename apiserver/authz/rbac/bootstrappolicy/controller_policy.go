package bootstrappolicy

import (
	"slices"

	rbacv1 "github.com/minicp/minicp/api/rbac/v1"
)

// controllerRoles are the roles of the built-in controllers, by the
// name of the ServiceAccount each runs as in kube-system (upstream's
// --use-service-account-credentials).
//
// Upstream: k8s.io/kubernetes/plugin/pkg/auth/authorizer/rbac/bootstrappolicy
// (controller_policy.go).
var controllerRoles = map[string][]*ruleBuilder{
	"clusterrole-aggregation-controller": {
		rule("escalate", "get", "list", "watch", "update", "patch").groups(rbacGroup).resources("clusterroles"),
	},
	"deployment-controller": {
		rule("get", "list", "watch", "update").groups(appsGroup).resources("deployments"),
		rule("update").groups(appsGroup).resources("deployments/finalizers", "deployments/status"),
		rule("get", "list", "watch", "create", "update", "patch", "delete").groups(appsGroup).resources("replicasets"),
		rule("get", "list", "watch", "update").groups(legacyGroup).resources("pods"),
		eventsRule(),
	},
	"disruption-controller": {
		rule("get", "list", "watch").groups(appsGroup).resources("deployments", "replicasets", "statefulsets"),
		rule("get", "list", "watch").groups(legacyGroup).resources("replicationcontrollers"),
		rule("get", "list", "watch").groups(policyGroup).resources("poddisruptionbudgets"),
		rule("update").groups(policyGroup).resources("poddisruptionbudgets/status"),
		rule("get").groups("*").resources("*/scale"),
		rule("update").groups(legacyGroup).resources("pods/status"),
		eventsRule(),
	},
	"endpoint-controller": {
		rule("get", "list", "watch").groups(legacyGroup).resources("services", "pods"),
		rule("get", "list", "create", "update", "delete").groups(legacyGroup).resources("endpoints"),
		rule("create").groups(legacyGroup).resources("endpoints/restricted"),
		eventsRule(),
	},
	"endpointslice-controller": {
		rule("get", "list", "watch").groups(legacyGroup).resources("services", "pods", "nodes"),
		// Setting a Service's finalizers is what creating an EndpointSlice
		// owned by it needs, with OwnerReferencesPermissionEnforcement.
		rule("update").groups(legacyGroup).resources("services/finalizers"),
		rule("get", "list", "create", "update", "delete").groups(discoveryGroup).resources("endpointslices"),
		eventsRule(),
	},
	"generic-garbage-collector": {
		rule("get", "list", "watch", "patch", "update", "delete").groups("*").resources("*"),
	},
	"job-controller": {
		rule("get", "list", "watch", "update", "patch").groups(batchGroup).resources("jobs"),
		rule("update", "patch").groups(batchGroup).resources("jobs/status"),
		rule("update").groups(batchGroup).resources("jobs/finalizers"),
		rule("list", "watch", "create", "delete", "patch").groups(legacyGroup).resources("pods"),
		eventsRule(),
	},
	"namespace-controller": {
		rule("get", "list", "watch", "delete").groups(legacyGroup).resources("namespaces"),
		rule("update").groups(legacyGroup).resources("namespaces/finalize", "namespaces/status"),
		rule("get", "list", "delete", "deletecollection").groups("*").resources("*"),
	},
	"node-controller": {
		rule("get", "list", "update", "delete", "patch").groups(legacyGroup).resources("nodes"),
		rule("patch", "update").groups(legacyGroup).resources("nodes/status"),
		rule("patch", "update").groups(legacyGroup).resources("pods/status"),
		rule("list", "delete").groups(legacyGroup).resources("pods"),
		eventsRule(),
	},
	"replicaset-controller": {
		rule("get", "list", "watch", "update").groups(appsGroup).resources("replicasets"),
		rule("update").groups(appsGroup).resources("replicasets/status"),
		rule("update").groups(appsGroup).resources("replicasets/finalizers"),
		rule("list", "watch", "patch", "create", "delete").groups(legacyGroup).resources("pods"),
		eventsRule(),
	},
	"resourcequota-controller": {
		rule("list", "watch").groups("*").resources("*"),
		rule("update").groups(legacyGroup).resources("resourcequotas/status"),
		eventsRule(),
	},
	"root-ca-cert-publisher": {
		rule("create", "update").groups(legacyGroup).resources("configmaps"),
		eventsRule(),
	},
	"service-account-controller": {
		rule("create").groups(legacyGroup).resources("serviceaccounts"),
		eventsRule(),
	},
	// minicp's proxy writes LoadBalancer Services' ingress in this
	// role's name, as the service controller of a cloud provider does.
	"service-controller": {
		rule("get", "list", "watch").groups(legacyGroup).resources("services"),
		rule("patch", "update").groups(legacyGroup).resources("services/status"),
		rule("list", "watch").groups(legacyGroup).resources("nodes"),
		eventsRule(),
	},
	"ttl-after-finished-controller": {
		rule("get", "list", "watch", "delete").groups(batchGroup).resources("jobs"),
		eventsRule(),
	},
}

func eventsRule() *ruleBuilder {
	return rule("create", "update", "patch").groups(legacyGroup, eventsGroup).resources("events")
}

// ControllerRoles returns the system:controller:* ClusterRoles, sorted by
// name, fresh on every call.
func ControllerRoles() []rbacv1.ClusterRole {
	var out []rbacv1.ClusterRole
	for _, name := range controllerNames() {
		out = append(out, rbacv1.ClusterRole{
			ObjectMeta: objectMeta(controllerRolePrefix + name),
			Rules:      rules(controllerRoles[name]...),
		})
	}
	return out
}

// ControllerRoleBindings binds each controller role to its
// ServiceAccount in kube-system.
func ControllerRoleBindings() []rbacv1.ClusterRoleBinding {
	var out []rbacv1.ClusterRoleBinding
	for _, name := range controllerNames() {
		out = append(out, binding(controllerRolePrefix+name, controllerRolePrefix+name, rbacv1.Subject{
			Kind: rbacv1.ServiceAccountKind, Name: name, Namespace: controllerNamespace,
		}))
	}
	return out
}

func controllerNames() []string {
	names := make([]string, 0, len(controllerRoles))
	for name := range controllerRoles {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}
