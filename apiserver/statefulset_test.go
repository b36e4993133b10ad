package apiserver_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	appsv1 "github.com/minicp/minicp/api/apps/v1"
	autoscalingv1 "github.com/minicp/minicp/api/autoscaling/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
)

const statefulSetsPath = "/apis/apps/v1/namespaces/default/statefulsets"

// webStatefulSet is a StatefulSet as a manifest writes it: no defaults,
// one volume claim template.
const webStatefulSet = `{"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"db"},
  "spec":{"serviceName":"db","selector":{"matchLabels":{"app":"db"}},
    "template":{"metadata":{"labels":{"app":"db"}},"spec":{"containers":[{"name":"pg","image":"postgres"}]}},
    "volumeClaimTemplates":[{"metadata":{"name":"data"},"spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}}}}]}}`

func TestStatefulSetLifecycle(t *testing.T) {
	s := newTestServer(t)
	ss := decode[appsv1.StatefulSet](t, s.mustDo(http.StatusCreated, "POST", statefulSetsPath, webStatefulSet))
	assert.Equal(t, "StatefulSet", ss.Kind)
	assert.Equal(t, int64(1), ss.Generation)
	assert.Equal(t, int32(1), *ss.Spec.Replicas, "defaulted")
	assert.Equal(t, appsv1.OrderedReadyPodManagement, ss.Spec.PodManagementPolicy)
	assert.Equal(t, appsv1.RollingUpdateStatefulSetStrategyType, ss.Spec.UpdateStrategy.Type)
	assert.Equal(t, int32(0), *ss.Spec.UpdateStrategy.RollingUpdate.Partition)
	assert.Equal(t, appsv1.RetainPersistentVolumeClaimRetentionPolicyType, ss.Spec.PersistentVolumeClaimRetentionPolicy.WhenDeleted)
	require.Len(t, ss.Spec.VolumeClaimTemplates, 1)
	assert.Equal(t, "Filesystem", string(*ss.Spec.VolumeClaimTemplates[0].Spec.VolumeMode))
	assert.Equal(t, "Pending", string(ss.Spec.VolumeClaimTemplates[0].Status.Phase))

	got := decode[appsv1.StatefulSet](t, s.mustDo(http.StatusOK, "GET", statefulSetsPath+"/db", ""))
	assert.Equal(t, ss.ResourceVersion, got.ResourceVersion)
	list := decode[appsv1.StatefulSetList](t, s.mustDo(http.StatusOK, "GET", statefulSetsPath, ""))
	require.Len(t, list.Items, 1)
	assert.Equal(t, "StatefulSetList", list.Kind)

	// A template change bumps the generation; status on the main resource
	// is ignored.
	ss.Spec.Template.Spec.Containers[0].Image = "postgres:17"
	ss.Status.Replicas = 5
	body, _ := json.Marshal(ss)
	ss = decode[appsv1.StatefulSet](t, s.mustDo(http.StatusOK, "PUT", statefulSetsPath+"/db", string(body)))
	assert.Equal(t, int64(2), ss.Generation)
	assert.Equal(t, int32(0), ss.Status.Replicas)

	// Fields other than the updatable ones are forbidden, as upstream.
	r := s.mustDo(http.StatusUnprocessableEntity, "PATCH", statefulSetsPath+"/db", `{"spec":{"serviceName":"other"}}`,
		withHeader("Content-Type", mergePatch))
	assert.Contains(t, r.status(t).Message, "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden")

	// The status subresource writes status only.
	ss.Status = appsv1.StatefulSetStatus{ObservedGeneration: 2, Replicas: 1, ReadyReplicas: 1, AvailableReplicas: 1}
	ss.Spec.MinReadySeconds = 9
	body, _ = json.Marshal(ss)
	ss = decode[appsv1.StatefulSet](t, s.mustDo(http.StatusOK, "PUT", statefulSetsPath+"/db/status", string(body)))
	assert.Equal(t, int32(1), ss.Status.ReadyReplicas)
	assert.Equal(t, int32(0), ss.Spec.MinReadySeconds, "a status write ignores spec")
	assert.Equal(t, int64(2), ss.Generation)

	// The scale subresource reads and writes spec.replicas.
	scale := decode[autoscalingv1.Scale](t, s.mustDo(http.StatusOK, "GET", statefulSetsPath+"/db/scale", ""))
	assert.Equal(t, int32(1), scale.Spec.Replicas)
	assert.Equal(t, int32(1), scale.Status.Replicas)
	assert.Equal(t, "app=db", scale.Status.Selector)
	s.mustDo(http.StatusOK, "PATCH", statefulSetsPath+"/db/scale", `{"spec":{"replicas":3}}`, withHeader("Content-Type", mergePatch))
	ss = decode[appsv1.StatefulSet](t, s.mustDo(http.StatusOK, "GET", statefulSetsPath+"/db", ""))
	assert.Equal(t, int32(3), *ss.Spec.Replicas)
	assert.Equal(t, int64(3), ss.Generation, "scaling is a spec change")

	table := decode[metav1.Table](t, s.mustDo(http.StatusOK, "GET", statefulSetsPath, "",
		withHeader("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io")))
	var columns []string
	for _, c := range table.ColumnDefinitions {
		if c.Priority == 0 {
			columns = append(columns, c.Name)
		}
	}
	assert.Equal(t, []string{"Name", "Ready", "Age"}, columns)
	require.Len(t, table.Rows, 1)
	assert.Equal(t, "1/3", table.Rows[0].Cells[1])
}

func TestStatefulSetValidation(t *testing.T) {
	s := newTestServer(t)
	tests := []struct {
		name, body, want string
	}{
		{"podManagementPolicy", `{"podManagementPolicy":"Sometimes"}`, `spec.podManagementPolicy: Invalid value: "Sometimes": must be 'OrderedReady' or 'Parallel'`},
		{"negative replicas", `{"replicas":-1}`, `spec.replicas: Invalid value: -1: must be greater than or equal to 0`},
		{"selector", `{"selector":{"matchLabels":{"app":"other"}}}`, "`selector` does not match template `labels`"},
		{"onDelete with rollingUpdate", `{"updateStrategy":{"type":"OnDelete","rollingUpdate":{"partition":1}}}`, "only allowed for updateStrategy 'RollingUpdate'"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var obj map[string]any
			require.NoError(t, json.Unmarshal([]byte(webStatefulSet), &obj))
			var spec map[string]any
			require.NoError(t, json.Unmarshal([]byte(tc.body), &spec))
			for k, v := range spec {
				obj["spec"].(map[string]any)[k] = v
			}
			body, _ := json.Marshal(obj)
			r := s.mustDo(http.StatusUnprocessableEntity, "POST", statefulSetsPath, string(body))
			assert.Contains(t, r.status(t).Message, tc.want, "POST with %s", tc.body)
		})
	}
}
