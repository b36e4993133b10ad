package bootstrappolicy

import rbacv1 "github.com/minicp/minicp/api/rbac/v1"

// Well-known users and groups the default bindings name.
const (
	SystemMastersGroup     = "system:masters"
	AuthenticatedGroup     = "system:authenticated"
	UnauthenticatedGroup   = "system:unauthenticated"
	MonitoringGroup        = "system:monitoring"
	KubeSchedulerUser      = "system:kube-scheduler"
	KubeControllerManager  = "system:kube-controller-manager"
	KubeProxyUser          = "system:kube-proxy"
	controllerRolePrefix   = "system:controller:"
	controllerNamespace    = "kube-system"
	systemNodeRoleName     = "system:node"
	systemNodeProxierRole  = "system:node-proxier"
	publicInfoViewerRole   = "system:public-info-viewer"
	basicUserRole          = "system:basic-user"
	discoveryRole          = "system:discovery"
	monitoringRole         = "system:monitoring"
	kubeSchedulerRole      = "system:kube-scheduler"
	kubeControllerMgrRole  = "system:kube-controller-manager"
	clusterAdminRole       = "cluster-admin"
	aggregateToAdminRole   = "system:aggregate-to-admin"
	aggregateToEditRole    = "system:aggregate-to-edit"
	aggregateToViewRole    = "system:aggregate-to-view"
	selfSubjectReviewsRule = "selfsubjectreviews"
	// ServiceAccountsGroup holds every service account.
	ServiceAccountsGroup = "system:serviceaccounts"
	issuerDiscoveryRole  = "system:service-account-issuer-discovery"
)

// ClusterRoles returns the default ClusterRoles, fresh on every call.
//
// Upstream: k8s.io/kubernetes/plugin/pkg/auth/authorizer/rbac/bootstrappolicy
// (ClusterRoles).
func ClusterRoles() []rbacv1.ClusterRole {
	roles := []rbacv1.ClusterRole{
		{
			// cluster-admin may do anything, anywhere.
			ObjectMeta: objectMeta(clusterAdminRole),
			Rules: rules(
				rule("*").groups("*").resources("*"),
				rule("*").urls("*"),
			),
		},
		{
			// system:discovery reads the discovery and OpenAPI documents.
			ObjectMeta: objectMeta(discoveryRole),
			Rules: rules(rule("get").urls(
				"/api", "/api/*", "/apis", "/apis/*", "/healthz", "/livez",
				"/openapi", "/openapi/*", "/readyz", "/version", "/version/",
			)),
		},
		{
			// system:basic-user may ask what it may do and who it is.
			ObjectMeta: objectMeta(basicUserRole),
			Rules: rules(
				rule("create").groups(authorizationGroup).resources("selfsubjectaccessreviews", "selfsubjectrulesreviews"),
				rule("create").groups(authenticationGroup).resources(selfSubjectReviewsRule),
			),
		},
		{
			// system:service-account-issuer-discovery reads the OpenID
			// discovery document and keys of service account tokens.
			ObjectMeta: objectMeta(issuerDiscoveryRole),
			Rules: rules(rule("get").urls(
				"/.well-known/openid-configuration", "/.well-known/openid-configuration/",
				"/openid/v1/jwks", "/openid/v1/jwks/",
			)),
		},
		{
			// system:public-info-viewer reads health and version, also
			// anonymously.
			ObjectMeta: objectMeta(publicInfoViewerRole),
			Rules:      rules(rule("get").urls("/healthz", "/livez", "/readyz", "/version", "/version/")),
		},
		{
			// system:monitoring reads the metrics and the health checks,
			// each check on its own too: what a Prometheus scraping the
			// API server needs.
			ObjectMeta: objectMeta(monitoringRole),
			Rules: rules(rule("get").urls(
				"/metrics", "/metrics/slis", "/livez", "/readyz", "/healthz",
				"/livez/*", "/readyz/*", "/healthz/*",
			)),
		},
		{
			// admin is a namespace's administrator: edit, plus roles and
			// bindings in the namespace. Its rules are aggregated.
			ObjectMeta:      objectMeta("admin"),
			AggregationRule: aggregationRule("admin"),
		},
		{
			// edit reads and writes most objects of a namespace, but not
			// its roles and bindings.
			ObjectMeta:      objectMeta("edit", aggregateTo+"admin", "true"),
			AggregationRule: aggregationRule("edit"),
		},
		{
			// view reads most objects of a namespace, but not Secrets.
			ObjectMeta:      objectMeta("view", aggregateTo+"edit", "true"),
			AggregationRule: aggregationRule("view"),
		},
		{
			ObjectMeta: objectMeta(aggregateToAdminRole, aggregateTo+"admin", "true"),
			Rules: rules(
				rule("create").groups(authorizationGroup).resources("localsubjectaccessreviews"),
				rule(ReadWrite...).groups(rbacGroup).resources("roles", "rolebindings"),
			),
		},
		{
			ObjectMeta: objectMeta(aggregateToEditRole, aggregateTo+"edit", "true"),
			Rules: rules(
				rule("impersonate").groups(legacyGroup).resources("serviceaccounts"),
				rule(Write...).groups(legacyGroup).resources("pods", "pods/attach", "pods/proxy", "pods/exec", "pods/portforward"),
				rule("create").groups(legacyGroup).resources("pods/eviction"),
				rule(Write...).groups(legacyGroup).resources("replicationcontrollers", "replicationcontrollers/scale",
					"serviceaccounts", "services", "services/proxy", "persistentvolumeclaims", "configmaps", "secrets", "events"),
				rule("create").groups(legacyGroup).resources("serviceaccounts/token"),
				rule(Write...).groups(appsGroup).resources("daemonsets", "deployments", "deployments/rollback", "deployments/scale",
					"replicasets", "replicasets/scale", "statefulsets", "statefulsets/scale"),
				rule(Write...).groups(autoscalingGroup).resources("horizontalpodautoscalers"),
				rule(Write...).groups(batchGroup).resources("jobs", "cronjobs"),
				rule(Write...).groups(policyGroup).resources("poddisruptionbudgets"),
				rule(Write...).groups(networkingGroup).resources("networkpolicies", "ingresses"),
				rule(Write...).groups(coordinationGroup).resources("leases"),
			),
		},
		{
			ObjectMeta: objectMeta(aggregateToViewRole, aggregateTo+"view", "true"),
			Rules: rules(
				rule(Read...).groups(legacyGroup).resources("pods", "replicationcontrollers", "replicationcontrollers/scale",
					"serviceaccounts", "services", "services/status", "endpoints", "persistentvolumeclaims",
					"persistentvolumeclaims/status", "configmaps", "pods/log", "pods/status",
					"replicationcontrollers/status", "resourcequotas", "resourcequotas/status", "events", "limitranges",
					"bindings", "namespaces/status"),
				rule(Read...).groups(legacyGroup).resources("namespaces"),
				rule(Read...).groups(discoveryGroup).resources("endpointslices"),
				rule(Read...).groups(appsGroup).resources("controllerrevisions", "daemonsets", "daemonsets/status",
					"deployments", "deployments/scale", "deployments/status", "replicasets", "replicasets/scale",
					"replicasets/status", "statefulsets", "statefulsets/scale", "statefulsets/status"),
				rule(Read...).groups(autoscalingGroup).resources("horizontalpodautoscalers", "horizontalpodautoscalers/status"),
				rule(Read...).groups(batchGroup).resources("jobs", "cronjobs", "cronjobs/status", "jobs/status"),
				rule(Read...).groups(policyGroup).resources("poddisruptionbudgets", "poddisruptionbudgets/status"),
				rule(Read...).groups(networkingGroup).resources("networkpolicies", "ingresses", "ingresses/status"),
				rule(Read...).groups(coordinationGroup).resources("leases"),
			),
		},
		{
			ObjectMeta: objectMeta(kubeSchedulerRole),
			Rules: rules(
				rule("create", "patch", "update").groups(legacyGroup, eventsGroup).resources("events"),
				rule("create").groups(coordinationGroup).resources("leases"),
				rule("get", "update").groups(coordinationGroup).resources("leases").names("kube-scheduler"),
				rule("delete", "get", "list", "watch").groups(legacyGroup).resources("pods"),
				rule("create").groups(legacyGroup).resources("pods/binding", "bindings"),
				rule("patch", "update").groups(legacyGroup).resources("pods/status"),
				rule(Read...).groups(legacyGroup).resources("nodes", "namespaces", "services", "replicationcontrollers",
					"persistentvolumeclaims", "persistentvolumes", "configmaps"),
				rule(Read...).groups(appsGroup).resources("replicasets", "statefulsets"),
				rule(Read...).groups(policyGroup).resources("poddisruptionbudgets"),
				rule(Read...).groups(storageGroup).resources("storageclasses", "csinodes", "csidrivers", "csistoragecapacities", "volumeattachments"),
				rule("create").groups(authenticationGroup).resources("tokenreviews"),
				rule("create").groups(authorizationGroup).resources("subjectaccessreviews"),
			),
		},
		{
			ObjectMeta: objectMeta(kubeControllerMgrRole),
			Rules: rules(
				rule("create", "patch", "update").groups(legacyGroup, eventsGroup).resources("events"),
				rule("create").groups(coordinationGroup).resources("leases"),
				rule("get", "update").groups(coordinationGroup).resources("leases").names("kube-controller-manager"),
				rule("create").groups(legacyGroup).resources("secrets", "serviceaccounts"),
				rule("delete").groups(legacyGroup).resources("secrets"),
				rule("get").groups(legacyGroup).resources("configmaps", "namespaces", "secrets", "serviceaccounts"),
				rule("update").groups(legacyGroup).resources("secrets", "serviceaccounts"),
				rule("create").groups(authenticationGroup).resources("tokenreviews"),
				rule("create").groups(authorizationGroup).resources("subjectaccessreviews"),
				rule("list", "watch").groups("*").resources("*"),
				rule("create").groups(legacyGroup).resources("serviceaccounts/token"),
			),
		},
		{
			// system:node is what a kubelet may do; no one is bound to it
			// by default: the Node authorizer grants nodes these rules.
			ObjectMeta: objectMeta(systemNodeRoleName),
			Rules:      NodeRules(),
		},
		{
			ObjectMeta: objectMeta(systemNodeProxierRole),
			Rules: rules(
				rule("list", "watch").groups(legacyGroup).resources("services", "endpoints"),
				rule("get", "list", "watch").groups(legacyGroup).resources("nodes"),
				rule("create", "patch", "update").groups(legacyGroup, eventsGroup).resources("events"),
				rule("list", "watch").groups(discoveryGroup).resources("endpointslices"),
			),
		},
	}
	return append(roles, ControllerRoles()...)
}

// NodeRules are what a kubelet may do: the rules of the system:node
// ClusterRole, and those the Node authorizer applies to every node
// beyond the objects it subdivides by node. Fresh on every call.
//
// Upstream: k8s.io/kubernetes/plugin/pkg/auth/authorizer/rbac/bootstrappolicy
// (NodeRules).
func NodeRules() []rbacv1.PolicyRule {
	return rules(
		rule("create").groups(authenticationGroup).resources("tokenreviews"),
		rule("create").groups(authorizationGroup).resources("subjectaccessreviews", "localsubjectaccessreviews"),
		rule(Read...).groups(legacyGroup).resources("services"),
		rule("create", "get", "list", "watch").groups(legacyGroup).resources("nodes"),
		rule("update", "patch").groups(legacyGroup).resources("nodes/status"),
		rule("update", "patch").groups(legacyGroup).resources("nodes"),
		rule("create", "update", "patch").groups(legacyGroup, eventsGroup).resources("events"),
		rule(Read...).groups(legacyGroup).resources("pods"),
		rule("create", "delete").groups(legacyGroup).resources("pods"),
		rule("update", "patch").groups(legacyGroup).resources("pods/status"),
		rule("create").groups(legacyGroup).resources("pods/eviction"),
		rule("get").groups(legacyGroup).resources("secrets", "configmaps", "persistentvolumeclaims", "persistentvolumes", "endpoints"),
		rule("create").groups(legacyGroup).resources("serviceaccounts/token"),
		rule("get", "create", "update", "patch", "delete").groups(coordinationGroup).resources("leases"),
		rule("get").groups(storageGroup).resources("volumeattachments", "csidrivers"),
		rule("get", "list", "watch", "create", "update", "patch", "delete").groups(storageGroup).resources("csinodes"),
		rule("get", "list", "watch").groups(resourceGroup).resources("resourceslices"),
	)
}

// ClusterRoleBindings returns the default ClusterRoleBindings, fresh on
// every call.
//
// Upstream: k8s.io/kubernetes/plugin/pkg/auth/authorizer/rbac/bootstrappolicy
// (ClusterRoleBindings).
func ClusterRoleBindings() []rbacv1.ClusterRoleBinding {
	bindings := []rbacv1.ClusterRoleBinding{
		binding(clusterAdminRole, clusterAdminRole, group(SystemMastersGroup)),
		binding(discoveryRole, discoveryRole, group(AuthenticatedGroup)),
		binding(basicUserRole, basicUserRole, group(AuthenticatedGroup)),
		binding(monitoringRole, monitoringRole, group(MonitoringGroup)),
		binding(publicInfoViewerRole, publicInfoViewerRole, group(AuthenticatedGroup), group(UnauthenticatedGroup)),
		binding(issuerDiscoveryRole, issuerDiscoveryRole, group(ServiceAccountsGroup)),
		binding(systemNodeProxierRole, systemNodeProxierRole, user(KubeProxyUser)),
		binding(kubeControllerMgrRole, kubeControllerMgrRole, user(KubeControllerManager)),
		binding(kubeSchedulerRole, kubeSchedulerRole, user(KubeSchedulerUser)),
		binding(systemNodeRoleName, systemNodeRoleName),
	}
	return append(bindings, ControllerRoleBindings()...)
}

func binding(name, role string, subjects ...rbacv1.Subject) rbacv1.ClusterRoleBinding {
	return rbacv1.ClusterRoleBinding{
		ObjectMeta: objectMeta(name),
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: role},
		Subjects:   subjects,
	}
}

func group(name string) rbacv1.Subject {
	return rbacv1.Subject{Kind: rbacv1.GroupKind, APIGroup: rbacv1.GroupName, Name: name}
}

func user(name string) rbacv1.Subject {
	return rbacv1.Subject{Kind: rbacv1.UserKind, APIGroup: rbacv1.GroupName, Name: name}
}
