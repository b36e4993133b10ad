package admissionplugin

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/apierrors"
	appsv1 "github.com/minicp/minicp/api/apps/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver"
	"github.com/minicp/minicp/apiserver/admission"
	"github.com/minicp/minicp/apiserver/apiservertest"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/workshop/workshoptest"
)

func newDeployment(ns, name, team string) *appsv1.Deployment {
	replicas := int32(1)
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Spec: appsv1.DeploymentSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": name}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": name}},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "nginx"}}},
			},
		},
	}
	if team != "" {
		d.Labels = map[string]string{TeamLabel: team}
	}
	return d
}

func attributes(op admission.Operation, gvr runtime.GroupVersionResource, subresource string, obj runtime.Object) *admission.Attributes {
	meta, _ := metav1.Accessor(obj)
	return &admission.Attributes{Operation: op, Resource: gvr, Subresource: subresource,
		Namespace: meta.Namespace, Name: meta.Name, Object: obj}
}

// TestPlugins calls the plugins as the admission chain does.
func TestPlugins(t *testing.T) {
	workshoptest.Require(t)
	ctx := t.Context()
	configMaps := runtime.GroupVersionResource{Version: "v1", Resource: "configmaps"}

	t.Run("Admit copies the team into the pod template", func(t *testing.T) {
		d := newDeployment("default", "web", "payments")
		workshoptest.Check(t, PropagateTeam{}.Admit(ctx, attributes(admission.Create, deploymentsGVR, "", d)), "PropagateTeam.Admit(create deployment web)")
		require.Equal(t, "payments", d.Spec.Template.Labels[TeamLabel], "the pod template's %s label after Admit", TeamLabel)
		require.Equal(t, "web", d.Spec.Template.Labels["app"], "Admit must keep the template's other labels")

		d = newDeployment("default", "web", "search")
		d.Spec.Template.Labels = nil
		workshoptest.Check(t, PropagateTeam{}.Admit(ctx, attributes(admission.Update, deploymentsGVR, "", d)), "PropagateTeam.Admit(update deployment web)")
		require.Equal(t, "search", d.Spec.Template.Labels[TeamLabel], "Admit of a template without labels")
	})
	t.Run("Admit leaves the rest alone", func(t *testing.T) {
		d := newDeployment("default", "web", "")
		workshoptest.Check(t, PropagateTeam{}.Admit(ctx, attributes(admission.Create, deploymentsGVR, "", d)), "PropagateTeam.Admit(deployment without a team)")
		require.NotContains(t, d.Spec.Template.Labels, TeamLabel, "Admit of a Deployment without a team")
		d = newDeployment("default", "web", "payments")
		workshoptest.Check(t, PropagateTeam{}.Admit(ctx, attributes(admission.Update, deploymentsGVR, "status", d)), "PropagateTeam.Admit(deployments/status)")
		require.NotContains(t, d.Spec.Template.Labels, TeamLabel, "Admit of a write to deployments/status")
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "c", Namespace: "default", Labels: map[string]string{TeamLabel: "x"}}}
		workshoptest.Check(t, PropagateTeam{}.Admit(ctx, attributes(admission.Create, configMaps, "", cm)), "PropagateTeam.Admit(configmap)")
	})
	t.Run("Validate", func(t *testing.T) {
		tests := []struct {
			name        string
			attrs       *admission.Attributes
			wantAllowed bool
		}{
			{"with a team", attributes(admission.Create, deploymentsGVR, "", newDeployment("default", "web", "payments")), true},
			{"without a team", attributes(admission.Create, deploymentsGVR, "", newDeployment("default", "web", "")), false},
			{"update without a team", attributes(admission.Update, deploymentsGVR, "", newDeployment("default", "web", "")), false},
			{"an empty team", attributes(admission.Create, deploymentsGVR, "", func() *appsv1.Deployment {
				d := newDeployment("default", "web", "")
				d.Labels = map[string]string{TeamLabel: ""}
				return d
			}()), false},
			{"kube-system is exempt", attributes(admission.Create, deploymentsGVR, "", newDeployment(ExemptNamespace, "dns", "")), true},
			{"deployments/status", attributes(admission.Update, deploymentsGVR, "status", newDeployment("default", "web", "")), true},
			{"a configmap", attributes(admission.Create, configMaps, "", &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "c", Namespace: "default"}}), true},
		}
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				err := RequireTeam{}.Validate(ctx, tc.attrs)
				if tc.wantAllowed {
					workshoptest.Check(t, err, "RequireTeam.Validate("+tc.name+")")
					return
				}
				workshoptest.Check(t, func() error {
					if apierrors.IsForbidden(err) {
						return nil
					}
					return err
				}(), "RequireTeam.Validate("+tc.name+")")
				require.True(t, apierrors.IsForbidden(err), "RequireTeam.Validate(%s) = %v, want a 403 Forbidden", tc.name, err)
				require.Contains(t, err.Error(), TeamLabel, "RequireTeam.Validate(%s): the message should name the label", tc.name)
			})
		}
	})
}

// TestThroughTheAPIServer puts the plugins in an API server's chain,
// after the built-in defaulting, and writes Deployments through it.
func TestThroughTheAPIServer(t *testing.T) {
	workshoptest.Require(t)
	ctx := t.Context()
	// A skeleton fails here, with its message, rather than as a 500.
	workshoptest.Check(t, PropagateTeam{}.Admit(ctx, attributes(admission.Create, deploymentsGVR, "", newDeployment("default", "x", "t"))), "PropagateTeam.Admit")
	workshoptest.Check(t, RequireTeam{}.Validate(ctx, attributes(admission.Create, deploymentsGVR, "", newDeployment("default", "x", "t"))), "RequireTeam.Validate")

	api := apiservertest.New(t, func(o *apiserver.Options) {
		// kube-apiserver's order: mutating plugins, then (after schema
		// validation) validating ones; Chain runs each kind in turn.
		o.Admission = admission.Chain{&admission.Defaulting{SetDefaults: apiserver.SetDefaults}, PropagateTeam{}, RequireTeam{}}
	})
	deployments := clustertest.InMemoryClientset(t, api).Deployments("default")

	_, err := deployments.Create(ctx, newDeployment("default", "anonymous", ""), client.WriteOptions{})
	require.True(t, apierrors.IsForbidden(err), "create a Deployment without a team: got %v, want 403 Forbidden", err)

	created, err := deployments.Create(ctx, newDeployment("default", "web", "payments"), client.WriteOptions{})
	require.NoError(t, err, "create a Deployment of team payments")
	require.Equal(t, "payments", created.Spec.Template.Labels[TeamLabel], "the stored pod template's %s label", TeamLabel)

	created.Labels = nil
	_, err = deployments.Update(ctx, created, client.WriteOptions{})
	require.True(t, apierrors.IsForbidden(err), "update that removes the team: got %v, want 403 Forbidden", err)

	created.Labels = map[string]string{TeamLabel: "search"}
	updated, err := deployments.Update(ctx, created, client.WriteOptions{})
	require.NoError(t, err, "update to team search")
	require.Equal(t, "search", updated.Spec.Template.Labels[TeamLabel], "the pod template follows the new team")

	updated.Status.ObservedGeneration = updated.Generation
	_, err = deployments.UpdateStatus(ctx, updated, client.WriteOptions{})
	require.NoError(t, err, "a status write is not the plugins' business")
}
