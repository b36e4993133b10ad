package clusterroleaggregation_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	rbacv1 "github.com/minicp/minicp/api/rbac/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/controllers/clusterroleaggregation"
)

// TestAggregation starts the controller on a cluster with the default
// policy: view, edit and admin fill in from the system:aggregate-to-*
// roles, edit holding view's rules (view is labelled aggregate-to-edit),
// and a new labelled ClusterRole (as a CRD's author adds) joins edit.
func TestAggregation(t *testing.T) {
	c := clustertest.New(t, clustertest.WithControllers())
	cl := c.Clientset().Client()
	roles, err := client.NewResource[*rbacv1.ClusterRole, *rbacv1.ClusterRoleList](cl, rbacv1.SchemeGroupVersion.WithResource("clusterroles"))
	require.NoError(t, err)
	clustertest.StartManager(t, cl, clock.Real, clusterroleaggregation.Add)

	hasRule := func(resource string) func(*rbacv1.ClusterRole) bool {
		return func(r *rbacv1.ClusterRole) bool {
			for _, rule := range r.Rules {
				for _, res := range rule.Resources {
					if res == resource {
						return true
					}
				}
			}
			return false
		}
	}
	waitRole(t, roles, "view", hasRule("deployments"))
	waitRole(t, roles, "edit", hasRule("deployments"))
	// admin aggregates edit, which aggregates view.
	waitRole(t, roles, "admin", func(r *rbacv1.ClusterRole) bool { return hasRule("rolebindings")(r) && hasRule("deployments")(r) })

	_, err = roles.Create(t.Context(), &rbacv1.ClusterRole{
		ObjectMeta: metav1.ObjectMeta{Name: "widgets-edit", Labels: map[string]string{"rbac.authorization.k8s.io/aggregate-to-edit": "true"}},
		Rules:      []rbacv1.PolicyRule{{Verbs: []string{"*"}, APIGroups: []string{"example.com"}, Resources: []string{"widgets"}}},
	}, client.WriteOptions{})
	require.NoError(t, err)
	waitRole(t, roles, "edit", hasRule("widgets"))
	view := waitRole(t, roles, "view", hasRule("deployments"))
	assert.False(t, hasRule("widgets")(view), "view does not select aggregate-to-edit")
}

// waitRole waits until cond holds for the ClusterRole name, and returns
// it.
func waitRole(t *testing.T, roles *client.Resource[*rbacv1.ClusterRole, *rbacv1.ClusterRoleList], name string, cond func(*rbacv1.ClusterRole) bool) *rbacv1.ClusterRole {
	t.Helper()
	return clustertest.WaitFor(t, roles, name, "condition", func(r *rbacv1.ClusterRole, found bool) bool { return found && cond(r) })
}
