package apiserver_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/netip"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	appsv1 "github.com/minicp/minicp/api/apps/v1"
	autoscalingv1 "github.com/minicp/minicp/api/autoscaling/v1"
	batchv1 "github.com/minicp/minicp/api/batch/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/intstr"
	metav1 "github.com/minicp/minicp/api/meta/v1"
)

// decode decodes the body into a new T.
func decode[T any](t testing.TB, r response) *T {
	t.Helper()
	var v T
	require.NoError(t, json.Unmarshal(r.body, &v), "decode %T from %s", v, r.body)
	return &v
}

const (
	deploymentsPath = "/apis/apps/v1/namespaces/default/deployments"
	replicaSetsPath = "/apis/apps/v1/namespaces/default/replicasets"
	jobsPath        = "/apis/batch/v1/namespaces/default/jobs"
	servicesPath    = "/api/v1/namespaces/default/services"
	mergePatch      = "application/merge-patch+json"
	jsonPatch       = "application/json-patch+json"
)

// webDeployment is what `kubectl create deployment web --image=nginx
// --replicas=2` sends, as JSON.
const webDeployment = `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","labels":{"app":"web"}},
  "spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},"strategy":{},
    "template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"nginx","image":"nginx"}]}}}}`

func TestWorkloadDiscovery(t *testing.T) {
	s := newTestServer(t)
	groups := decode[metav1.APIGroupList](t, s.mustDo(http.StatusOK, "GET", "/apis", ""))
	var names []string
	for _, g := range groups.Groups {
		names = append(names, g.Name)
	}
	assert.Subset(t, names, []string{"coordination.k8s.io", "apps", "batch", "apiextensions.k8s.io"})
	assert.Contains(t, names, "autoscaling", "horizontalpodautoscalers are served")

	resources := func(path string) map[string]metav1.APIResource {
		list := decode[metav1.APIResourceList](t, s.mustDo(http.StatusOK, "GET", path, ""))
		out := map[string]metav1.APIResource{}
		for _, r := range list.APIResources {
			out[r.Name] = r
		}
		return out
	}
	apps := resources("/apis/apps/v1")
	assert.Equal(t, []string{"deploy"}, apps["deployments"].ShortNames)
	assert.Equal(t, []string{"all"}, apps["deployments"].Categories)
	assert.Equal(t, []string{"rs"}, apps["replicasets"].ShortNames)
	for _, r := range []string{"deployments", "replicasets"} {
		scale := apps[r+"/scale"]
		assert.Equal(t, metav1.APIResource{Name: r + "/scale", Namespaced: true, Group: "autoscaling", Version: "v1", Kind: "Scale",
			Verbs: []string{"get", "patch", "update"}}, scale, "%s/scale names its kind's group, as kubectl scale needs", r)
		assert.Equal(t, "", apps[r+"/status"].Group, "%s/status is of the resource's own kind", r)
	}
	batch := resources("/apis/batch/v1")
	assert.Equal(t, "Job", batch["jobs"].Kind)
	assert.Contains(t, batch, "jobs/status")
	core := resources("/api/v1")
	assert.Equal(t, []string{"svc"}, core["services"].ShortNames)
	assert.Contains(t, core["services"].Verbs, "deletecollection", "as in Kubernetes 1.33")
	assert.Equal(t, []string{"ep"}, core["endpoints"].ShortNames)
	assert.Equal(t, "endpoints", core["endpoints"].SingularName)
	assert.Equal(t, []string{"cm"}, core["configmaps"].ShortNames)
	assert.Equal(t, []string{"sa"}, core["serviceaccounts"].ShortNames)
	assert.Contains(t, core, "secrets")
	assert.Contains(t, core, "services/status")
}

func TestDeploymentLifecycle(t *testing.T) {
	s := newTestServer(t)
	d := decode[appsv1.Deployment](t, s.mustDo(http.StatusCreated, "POST", deploymentsPath, webDeployment))
	assert.Equal(t, "Deployment", d.Kind)
	assert.Equal(t, "apps/v1", d.APIVersion)
	assert.Equal(t, int64(1), d.Generation)
	assert.Equal(t, appsv1.RollingUpdateDeploymentStrategyType, d.Spec.Strategy.Type, "defaulted by admission")
	assert.Equal(t, intstr.FromString("25%"), *d.Spec.Strategy.RollingUpdate.MaxSurge)
	assert.Equal(t, int32(600), *d.Spec.ProgressDeadlineSeconds)
	assert.Equal(t, corev1.RestartPolicyAlways, d.Spec.Template.Spec.RestartPolicy)

	// A spec change bumps the generation; the status it carries is ignored.
	d.Spec.Template.Spec.Containers[0].Image = "nginx:1.28"
	d.Status.Replicas = 9
	body, _ := json.Marshal(d)
	d = decode[appsv1.Deployment](t, s.mustDo(http.StatusOK, "PUT", deploymentsPath+"/web", string(body)))
	assert.Equal(t, int64(2), d.Generation)
	assert.Equal(t, int32(0), d.Status.Replicas, "the main resource cannot write status")

	// Annotations are copied to ReplicaSets: changing them bumps it too.
	d = decode[appsv1.Deployment](t, s.mustDo(http.StatusOK, "PATCH", deploymentsPath+"/web",
		`{"metadata":{"annotations":{"note":"x"}}}`, withHeader("Content-Type", mergePatch)))
	assert.Equal(t, int64(3), d.Generation)
	d = decode[appsv1.Deployment](t, s.mustDo(http.StatusOK, "PATCH", deploymentsPath+"/web",
		`{"metadata":{"labels":{"tier":"fe"}}}`, withHeader("Content-Type", mergePatch)))
	assert.Equal(t, int64(3), d.Generation, "labels do not")

	// The controller writes status through /status, which ignores spec.
	d.Status = appsv1.DeploymentStatus{ObservedGeneration: 3, Replicas: 2, UpdatedReplicas: 2, ReadyReplicas: 1, AvailableReplicas: 1, UnavailableReplicas: 1}
	d.Spec.Paused = true
	body, _ = json.Marshal(d)
	d = decode[appsv1.Deployment](t, s.mustDo(http.StatusOK, "PUT", deploymentsPath+"/web/status", string(body)))
	assert.Equal(t, int32(1), d.Status.ReadyReplicas)
	assert.False(t, d.Spec.Paused, "a status write ignores spec")
	assert.Equal(t, int64(3), d.Generation)
	d.Status.AvailableReplicas = 5
	body, _ = json.Marshal(d)
	r := s.mustDo(http.StatusUnprocessableEntity, "PUT", deploymentsPath+"/web/status", string(body))
	assert.Contains(t, r.status(t).Message, "status.availableReplicas: Invalid value: 5: cannot be greater than status.replicas")

	r = s.mustDo(http.StatusUnprocessableEntity, "PATCH", deploymentsPath+"/web",
		`{"spec":{"selector":{"matchLabels":{"app":"api"}}}}`, withHeader("Content-Type", smp))
	assert.Contains(t, r.status(t).Message, `Deployment.apps "web" is invalid`)
	assert.Contains(t, r.status(t).Message, "spec.selector: Invalid value")

	// A strategic merge patch follows the retainKeys strategy of
	// spec.strategy, as `kubectl apply` switching to Recreate sends it.
	d = decode[appsv1.Deployment](t, s.mustDo(http.StatusOK, "PATCH", deploymentsPath+"/web",
		`{"spec":{"strategy":{"$retainKeys":["type"],"type":"Recreate"}}}`, withHeader("Content-Type", smp)))
	assert.Equal(t, appsv1.DeploymentStrategy{Type: appsv1.RecreateDeploymentStrategyType}, d.Spec.Strategy)

	list := decode[appsv1.DeploymentList](t, s.mustDo(http.StatusOK, "GET", "/apis/apps/v1/deployments", ""))
	assert.Equal(t, "DeploymentList", list.Kind)
	require.Len(t, list.Items, 1)
	s.mustDo(http.StatusOK, "DELETE", deploymentsPath+"/web", "")
	s.mustDo(http.StatusNotFound, "GET", deploymentsPath+"/web", "")

	bad := `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"bad"},"spec":{"selector":{"matchLabels":{"app":"x"}},
	  "template":{"metadata":{"labels":{"app":"y"}},"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"i"}]}}}}`
	r = s.mustDo(http.StatusUnprocessableEntity, "POST", deploymentsPath, bad)
	causes := map[string]bool{}
	for _, c := range r.status(t).Details.Causes {
		causes[c.Field] = true
	}
	assert.Equal(t, map[string]bool{"spec.template.metadata.labels": true, "spec.template.spec.restartPolicy": true}, causes)
}

func TestScaleSubresource(t *testing.T) {
	s := newTestServer(t)
	d := decode[appsv1.Deployment](t, s.mustDo(http.StatusCreated, "POST", deploymentsPath, webDeployment))
	const scalePath = deploymentsPath + "/web/scale"

	scale := decode[autoscalingv1.Scale](t, s.mustDo(http.StatusOK, "GET", scalePath, ""))
	assert.Equal(t, &autoscalingv1.Scale{
		TypeMeta: metav1.TypeMeta{APIVersion: "autoscaling/v1", Kind: "Scale"},
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", UID: d.UID, ResourceVersion: d.ResourceVersion,
			CreationTimestamp: d.CreationTimestamp},
		Spec:   autoscalingv1.ScaleSpec{Replicas: 2},
		Status: autoscalingv1.ScaleStatus{Selector: "app=web"},
	}, scale)

	// PUT, as `kubectl scale --current-replicas` does: the Scale's
	// resourceVersion is the Deployment's.
	scale.Spec.Replicas = 3
	body, _ := json.Marshal(scale)
	scale = decode[autoscalingv1.Scale](t, s.mustDo(http.StatusOK, "PUT", scalePath, string(body)))
	assert.Equal(t, int32(3), scale.Spec.Replicas)
	got := decode[appsv1.Deployment](t, s.mustDo(http.StatusOK, "GET", deploymentsPath+"/web", ""))
	assert.Equal(t, int32(3), *got.Spec.Replicas)
	assert.Equal(t, int64(2), got.Generation, "scaling is a spec change")
	assert.Equal(t, got.ResourceVersion, scale.ResourceVersion)
	assert.Equal(t, "nginx", got.Spec.Template.Spec.Containers[0].Image, "only replicas change")

	// The old body is stale now.
	r := s.mustDo(http.StatusConflict, "PUT", scalePath, string(body))
	assert.Contains(t, r.status(t).Message, "the object has been modified")
	// Without a resourceVersion the write is unconditional.
	s.mustDo(http.StatusOK, "PUT", scalePath, `{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"web"},"spec":{"replicas":4}}`)

	// PATCH, as plain `kubectl scale` does, with each patch type.
	for i, p := range []struct{ contentType, body string }{
		{mergePatch, `{"spec":{"replicas":5}}`},
		{jsonPatch, `[{"op":"replace","path":"/spec/replicas","value":6}]`},
		{smp, `{"spec":{"replicas":7}}`},
	} {
		scale = decode[autoscalingv1.Scale](t, s.mustDo(http.StatusOK, "PATCH", scalePath, p.body, withHeader("Content-Type", p.contentType)))
		assert.Equal(t, int32(5+i), scale.Spec.Replicas, "PATCH %s", p.contentType)
		assert.Equal(t, "Scale", scale.Kind)
	}
	assert.Equal(t, int32(7), *decode[appsv1.Deployment](t, s.mustDo(http.StatusOK, "GET", deploymentsPath+"/web", "")).Spec.Replicas)

	r = s.mustDo(http.StatusUnprocessableEntity, "PATCH", scalePath, `{"spec":{"replicas":-1}}`, withHeader("Content-Type", mergePatch))
	assert.Equal(t, `Scale.autoscaling "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0`, r.status(t).Message)
	r = s.mustDo(http.StatusConflict, "PATCH", scalePath, `{"metadata":{"uid":"other"}}`, withHeader("Content-Type", mergePatch))
	assert.Contains(t, r.status(t).Message, "Precondition failed: UID in precondition: other")
	s.mustDo(http.StatusBadRequest, "PUT", scalePath, `{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"other"},"spec":{"replicas":1}}`)
	s.mustDo(http.StatusBadRequest, "PUT", scalePath, `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"}}`)
	s.mustDo(http.StatusNotFound, "GET", deploymentsPath+"/missing/scale", "")
	s.mustDo(http.StatusNotFound, "PATCH", deploymentsPath+"/missing/scale", `{"spec":{"replicas":1}}`, withHeader("Content-Type", mergePatch))
	s.mustDo(http.StatusMethodNotAllowed, "DELETE", scalePath, "")
	dry := decode[autoscalingv1.Scale](t, s.mustDo(http.StatusOK, "PATCH", scalePath+"?dryRun=All", `{"spec":{"replicas":9}}`,
		withHeader("Content-Type", mergePatch)))
	assert.Equal(t, int32(9), dry.Spec.Replicas)
	assert.Equal(t, int32(7), *decode[appsv1.Deployment](t, s.mustDo(http.StatusOK, "GET", deploymentsPath+"/web", "")).Spec.Replicas, "dry run")

	// `kubectl get --subresource=scale` asks for a Table.
	table := decode[metav1.Table](t, s.mustDo(http.StatusOK, "GET", scalePath, "",
		withHeader("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io")))
	require.Len(t, table.Rows, 1)
	assert.Equal(t, []any{"web", float64(7), float64(0)}, table.Rows[0].Cells[:3])

	// ReplicaSets scale the same way.
	rs := `{"apiVersion":"apps/v1","kind":"ReplicaSet","metadata":{"name":"web-1"},"spec":{"selector":{"matchLabels":{"app":"web","pod-template-hash":"1"}},
	  "template":{"metadata":{"labels":{"app":"web","pod-template-hash":"1"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}}}`
	s.mustDo(http.StatusCreated, "POST", replicaSetsPath, rs)
	scale = decode[autoscalingv1.Scale](t, s.mustDo(http.StatusOK, "GET", replicaSetsPath+"/web-1/scale", ""))
	assert.Equal(t, int32(1), scale.Spec.Replicas, "replicas default to 1")
	assert.Equal(t, "app=web,pod-template-hash=1", scale.Status.Selector)
	scale = decode[autoscalingv1.Scale](t, s.mustDo(http.StatusOK, "PATCH", replicaSetsPath+"/web-1/scale", `{"spec":{"replicas":0}}`,
		withHeader("Content-Type", mergePatch)))
	assert.Equal(t, int32(0), scale.Spec.Replicas)
	assert.Equal(t, int32(0), *decode[appsv1.ReplicaSet](t, s.mustDo(http.StatusOK, "GET", replicaSetsPath+"/web-1", "")).Spec.Replicas)
}

func TestJobSelectorGenerated(t *testing.T) {
	s := newTestServer(t)
	hello := `{"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"hello"},"spec":{"template":{"spec":{
	  "restartPolicy":"Never","containers":[{"name":"hello","image":"busybox","command":["sh","-c","echo hi"]}]}}}}`
	job := decode[batchv1.Job](t, s.mustDo(http.StatusCreated, "POST", jobsPath, hello))
	uid := job.UID
	require.NotEmpty(t, uid)
	assert.Equal(t, &metav1.LabelSelector{MatchLabels: map[string]string{batchv1.ControllerUidLabel: uid}}, job.Spec.Selector)
	want := map[string]string{
		batchv1.ControllerUidLabel: uid, batchv1.LegacyControllerUidLabel: uid,
		batchv1.JobNameLabel: "hello", batchv1.LegacyJobNameLabel: "hello",
	}
	assert.Equal(t, want, job.Spec.Template.Labels)
	assert.Equal(t, want, job.Labels, "a Job without labels gets its template's, as upstream")
	assert.Equal(t, int32(6), *job.Spec.BackoffLimit)
	assert.Equal(t, int32(1), *job.Spec.Completions)
	assert.Equal(t, batchv1.NonIndexedCompletion, *job.Spec.CompletionMode)

	// A Job that lets the restart policy default is refused.
	r := s.mustDo(http.StatusUnprocessableEntity, "POST", jobsPath,
		`{"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"bad"},"spec":{"template":{"spec":{"containers":[{"name":"c","image":"i"}]}}}}`)
	assert.Contains(t, r.status(t).Message, `spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"`)

	// A client-chosen selector is kept with manualSelector, and must
	// select the template.
	manual := `{"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"manual","labels":{"team":"a"}},"spec":{"manualSelector":true,
	  "selector":{"matchLabels":{"app":"manual"}},"template":{"metadata":{"labels":{"app":"manual"}},"spec":{
	  "restartPolicy":"OnFailure","containers":[{"name":"c","image":"i"}]}}}}`
	job = decode[batchv1.Job](t, s.mustDo(http.StatusCreated, "POST", jobsPath, manual))
	assert.Equal(t, map[string]string{"app": "manual"}, job.Spec.Selector.MatchLabels)
	assert.Equal(t, map[string]string{"app": "manual"}, job.Spec.Template.Labels)
	assert.Equal(t, map[string]string{"team": "a"}, job.Labels)

	// The template may not change, parallelism may.
	r = s.mustDo(http.StatusUnprocessableEntity, "PATCH", jobsPath+"/hello",
		`{"spec":{"template":{"spec":{"containers":[{"name":"hello","image":"busybox:2"}]}}}}`, withHeader("Content-Type", smp))
	assert.Contains(t, r.status(t).Message, "spec.template: Invalid value")
	job = decode[batchv1.Job](t, s.mustDo(http.StatusOK, "PATCH", jobsPath+"/hello", `{"spec":{"parallelism":2}}`, withHeader("Content-Type", mergePatch)))
	assert.Equal(t, int64(2), job.Generation)

	// The job controller's status write.
	job.Status = batchv1.JobStatus{Active: 1, Ready: ptrTo(int32(0))}
	body, _ := json.Marshal(job)
	job = decode[batchv1.Job](t, s.mustDo(http.StatusOK, "PUT", jobsPath+"/hello/status", string(body)))
	assert.Equal(t, int32(1), job.Status.Active)

	list := decode[batchv1.JobList](t, s.mustDo(http.StatusOK, "GET", jobsPath+"?fieldSelector=status.successful%3D0", ""))
	assert.Len(t, list.Items, 2)
}

func ptrTo[T any](v T) *T { return &v }

// serviceJSON is a Service with one port and the given spec fields.
func serviceJSON(name, extraSpec string) string {
	if extraSpec != "" {
		extraSpec = "," + extraSpec
	}
	return fmt.Sprintf(`{"apiVersion":"v1","kind":"Service","metadata":{"name":%q},"spec":{"selector":{"app":"web"},"ports":[{"port":80}]%s}}`,
		name, extraSpec)
}

func TestServiceClusterIPAllocation(t *testing.T) {
	s := newTestServer(t)
	cidr := netip.MustParsePrefix("10.96.0.0/12")
	create := func(name, extraSpec string) *corev1.Service {
		t.Helper()
		return decode[corev1.Service](t, s.mustDo(http.StatusCreated, "POST", servicesPath, serviceJSON(name, extraSpec)))
	}
	web := create("web", "")
	ip := netip.MustParseAddr(web.Spec.ClusterIP)
	assert.True(t, cidr.Contains(ip), "cluster IP %s is in the service CIDR", ip)
	assert.Equal(t, []string{web.Spec.ClusterIP}, web.Spec.ClusterIPs)
	assert.Equal(t, []corev1.IPFamily{corev1.IPv4Protocol}, web.Spec.IPFamilies)
	assert.Equal(t, corev1.IPFamilyPolicySingleStack, *web.Spec.IPFamilyPolicy)
	assert.Equal(t, intstr.FromInt32(80), web.Spec.Ports[0].TargetPort)
	assert.NotEqual(t, create("api", "").Spec.ClusterIP, web.Spec.ClusterIP, "each service gets its own IP")

	// A requested IP, taken or outside the CIDR.
	dns := create("dns", `"clusterIP":"10.96.0.10"`)
	assert.Equal(t, "10.96.0.10", dns.Spec.ClusterIP)
	r := s.mustDo(http.StatusUnprocessableEntity, "POST", servicesPath, serviceJSON("dns2", `"clusterIP":"10.96.0.10"`))
	assert.Contains(t, r.status(t).Message, "failed to allocate IP 10.96.0.10: provided IP is already allocated")
	r = s.mustDo(http.StatusUnprocessableEntity, "POST", servicesPath, serviceJSON("far", `"clusterIP":"192.168.0.1"`))
	assert.Contains(t, r.status(t).Message, "The range of valid IPs is 10.96.0.0/12")

	// The IP may not change; resubmitting the manifest without it keeps it.
	r = s.mustDo(http.StatusUnprocessableEntity, "PATCH", servicesPath+"/dns", `{"spec":{"clusterIP":"10.96.0.11","clusterIPs":["10.96.0.11"]}}`,
		withHeader("Content-Type", mergePatch))
	assert.Contains(t, r.status(t).Message, "may not change once set")
	r = s.mustDo(http.StatusUnprocessableEntity, "PATCH", servicesPath+"/dns", `{"spec":{"clusterIP":"10.96.0.11"}}`,
		withHeader("Content-Type", mergePatch))
	assert.Contains(t, r.status(t).Message, "may not change once set", "an old client that changes only clusterIP")
	replaced := s.mustDo(http.StatusOK, "PUT", servicesPath+"/dns", serviceJSON("dns", `"type":"ClusterIP"`))
	assert.Equal(t, "10.96.0.10", decode[corev1.Service](t, replaced).Spec.ClusterIP)

	// Deleting frees it; a failed create takes nothing.
	s.mustDo(http.StatusOK, "DELETE", servicesPath+"/dns", "")
	assert.Equal(t, "10.96.0.10", create("dns2", `"clusterIP":"10.96.0.10"`).Spec.ClusterIP)
	s.mustDo(http.StatusUnprocessableEntity, "POST", servicesPath, serviceJSON("Bad_Name", `"clusterIP":"10.96.0.20"`))
	create("good", `"clusterIP":"10.96.0.20"`)

	// Headless and ExternalName services get none.
	headless := create("headless", `"clusterIP":"None"`)
	assert.Equal(t, []string{"None"}, headless.Spec.ClusterIPs)
	ext := decode[corev1.Service](t, s.mustDo(http.StatusCreated, "POST", servicesPath,
		`{"apiVersion":"v1","kind":"Service","metadata":{"name":"ext"},"spec":{"type":"ExternalName","externalName":"db.example.com"}}`))
	assert.Empty(t, ext.Spec.ClusterIP)
	assert.Empty(t, ext.Spec.IPFamilies)

	// ExternalName -> ClusterIP allocates, and back releases.
	ext = decode[corev1.Service](t, s.mustDo(http.StatusOK, "PATCH", servicesPath+"/ext",
		`{"spec":{"type":"ClusterIP","externalName":null,"clusterIP":"10.96.0.30","ports":[{"port":5432}]}}`, withHeader("Content-Type", mergePatch)))
	assert.Equal(t, "10.96.0.30", ext.Spec.ClusterIP)
	s.mustDo(http.StatusUnprocessableEntity, "POST", servicesPath, serviceJSON("x", `"clusterIP":"10.96.0.30"`))
	ext = decode[corev1.Service](t, s.mustDo(http.StatusOK, "PATCH", servicesPath+"/ext",
		`{"spec":{"type":"ExternalName","externalName":"db.example.com"}}`, withHeader("Content-Type", mergePatch)))
	assert.Empty(t, ext.Spec.ClusterIPs, "fields of the old type the client left alone are dropped")
	create("x", `"clusterIP":"10.96.0.30"`)

	// Dry run allocates nothing.
	s.mustDo(http.StatusCreated, "POST", servicesPath+"?dryRun=All", serviceJSON("dry", `"clusterIP":"10.96.0.40"`))
	s.mustDo(http.StatusNotFound, "GET", servicesPath+"/dry", "")
	create("wet", `"clusterIP":"10.96.0.40"`)

	// kubectl get services.
	table := decode[metav1.Table](t, s.mustDo(http.StatusOK, "GET", servicesPath+"/web", "",
		withHeader("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io")))
	assert.Equal(t, []any{"web", "ClusterIP", web.Spec.ClusterIP, "<none>", "80/TCP"}, table.Rows[0].Cells[:5])
	assert.Equal(t, "app=web", table.Rows[0].Cells[6])
}

func TestServiceNodePortAllocation(t *testing.T) {
	s := newTestServer(t)
	svc := decode[corev1.Service](t, s.mustDo(http.StatusCreated, "POST", servicesPath, serviceJSON("web", `"type":"NodePort"`)))
	port := svc.Spec.Ports[0].NodePort
	assert.True(t, port >= 30000 && port <= 32767, "node port %d is in 30000-32767", port)
	assert.Equal(t, corev1.ServiceExternalTrafficPolicyCluster, svc.Spec.ExternalTrafficPolicy)

	taken := strconv.Itoa(int(port))
	r := s.mustDo(http.StatusUnprocessableEntity, "POST", servicesPath, serviceJSON("other", `"type":"NodePort","ports":[{"port":80,"nodePort":`+taken+`}]`))
	assert.Contains(t, r.status(t).Message, "spec.ports[0].nodePort: Invalid value: "+taken+": provided port is already allocated")
	r = s.mustDo(http.StatusUnprocessableEntity, "POST", servicesPath, serviceJSON("low", `"type":"NodePort","ports":[{"port":80,"nodePort":8080}]`))
	assert.Contains(t, r.status(t).Message, "The range of valid ports is 30000-32767")

	// Resubmitting without the node port keeps it.
	svc = decode[corev1.Service](t, s.mustDo(http.StatusOK, "PUT", servicesPath+"/web", serviceJSON("web", `"type":"NodePort"`)))
	assert.Equal(t, port, svc.Spec.Ports[0].NodePort)

	// Back to ClusterIP: the node port goes, and is free again.
	svc = decode[corev1.Service](t, s.mustDo(http.StatusOK, "PATCH", servicesPath+"/web", `{"spec":{"type":"ClusterIP"}}`,
		withHeader("Content-Type", mergePatch)))
	assert.Zero(t, svc.Spec.Ports[0].NodePort)
	assert.Empty(t, svc.Spec.ExternalTrafficPolicy)
	other := decode[corev1.Service](t, s.mustDo(http.StatusCreated, "POST", servicesPath,
		serviceJSON("other", `"type":"NodePort","ports":[{"port":80,"nodePort":`+taken+`}]`)))
	assert.Equal(t, port, other.Spec.Ports[0].NodePort)

	// A LoadBalancer gets node ports, and a health check port when Local.
	lb := decode[corev1.Service](t, s.mustDo(http.StatusCreated, "POST", servicesPath,
		serviceJSON("lb", `"type":"LoadBalancer","externalTrafficPolicy":"Local"`)))
	assert.NotZero(t, lb.Spec.Ports[0].NodePort)
	assert.NotZero(t, lb.Spec.HealthCheckNodePort)
	assert.True(t, *lb.Spec.AllocateLoadBalancerNodePorts)
	table := decode[metav1.Table](t, s.mustDo(http.StatusOK, "GET", servicesPath+"/lb", "",
		withHeader("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io")))
	assert.Equal(t, []any{"lb", "LoadBalancer", lb.Spec.ClusterIP, "<pending>", fmt.Sprintf("80:%d/TCP", lb.Spec.Ports[0].NodePort)},
		table.Rows[0].Cells[:5])

	// The status subresource allocates nothing and keeps the spec.
	lb.Status.LoadBalancer.Ingress = []corev1.LoadBalancerIngress{{IP: "203.0.113.10"}}
	lb.Spec.Ports[0].NodePort = 0
	body, _ := json.Marshal(lb)
	lb = decode[corev1.Service](t, s.mustDo(http.StatusOK, "PUT", servicesPath+"/lb/status", string(body)))
	assert.NotZero(t, lb.Spec.Ports[0].NodePort)
	assert.Equal(t, "203.0.113.10", lb.Status.LoadBalancer.Ingress[0].IP)

	// Deleting frees every port.
	s.mustDo(http.StatusOK, "DELETE", servicesPath+"/lb", "")
	s.mustDo(http.StatusCreated, "POST", servicesPath, serviceJSON("lb2", fmt.Sprintf(`"type":"LoadBalancer","externalTrafficPolicy":"Local","healthCheckNodePort":%d,"ports":[{"port":80,"nodePort":%d}]`,
		lb.Spec.HealthCheckNodePort, lb.Spec.Ports[0].NodePort)))
}

func TestConfigAndIdentityResources(t *testing.T) {
	s := newTestServer(t)
	table := func(path string) *metav1.Table {
		t.Helper()
		return decode[metav1.Table](t, s.mustDo(http.StatusOK, "GET", path, "", withHeader("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io")))
	}
	columns := func(tb *metav1.Table) []string {
		var cols []string
		for _, c := range tb.ColumnDefinitions {
			if c.Priority == 0 {
				cols = append(cols, c.Name)
			}
		}
		return cols
	}

	// Secrets: stringData is merged into data and never stored.
	secret := decode[corev1.Secret](t, s.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces/default/secrets",
		`{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s"},"data":{"a":"b2xk"},"stringData":{"a":"new","p":"q"}}`))
	assert.Equal(t, map[string][]byte{"a": []byte("new"), "p": []byte("q")}, secret.Data)
	assert.Nil(t, secret.StringData)
	assert.Equal(t, corev1.SecretTypeOpaque, secret.Type)
	s.mustDo(http.StatusUnprocessableEntity, "PATCH", "/api/v1/namespaces/default/secrets/s", `{"type":"kubernetes.io/tls"}`,
		withHeader("Content-Type", mergePatch))
	tb := table("/api/v1/namespaces/default/secrets")
	assert.Equal(t, []string{"Name", "Type", "Data", "Age"}, columns(tb))
	assert.Equal(t, []any{"s", "Opaque", float64(2)}, tb.Rows[0].Cells[:3])
	assert.Len(t, decode[corev1.SecretList](t, s.mustDo(http.StatusOK, "GET", "/api/v1/namespaces/default/secrets?fieldSelector=type%3DOpaque", "")).Items, 1)

	// ConfigMaps: an immutable one keeps its data.
	s.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces/default/configmaps",
		`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"},"immutable":true,"data":{"a":"b"},"binaryData":{"c":"AA=="}}`)
	r := s.mustDo(http.StatusUnprocessableEntity, "PATCH", "/api/v1/namespaces/default/configmaps/x", `{"data":{"a":"c"}}`,
		withHeader("Content-Type", mergePatch))
	assert.Contains(t, r.status(t).Message, "data: Forbidden: field is immutable when `immutable` is set")
	tb = table("/api/v1/namespaces/default/configmaps")
	assert.Equal(t, []string{"Name", "Data", "Age"}, columns(tb))
	assert.Equal(t, []any{"x", float64(2)}, tb.Rows[0].Cells[:2])

	// ServiceAccounts.
	s.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces/default/serviceaccounts",
		`{"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"builder"},"secrets":[{"name":"builder-token"}]}`)
	tb = table("/api/v1/namespaces/default/serviceaccounts")
	assert.Equal(t, []string{"Name", "Secrets", "Age"}, columns(tb))
	assert.Equal(t, []any{"builder", float64(1)}, tb.Rows[0].Cells[:2])

	// Endpoints, which PUT may create, as the endpoints controller does.
	ep := `{"apiVersion":"v1","kind":"Endpoints","metadata":{"name":"web"},"subsets":[{"addresses":[{"ip":"10.244.1.7"},{"ip":"10.244.2.4"}],"ports":[{"port":80}]}]}`
	s.mustDo(http.StatusCreated, "PUT", "/api/v1/namespaces/default/endpoints/web", ep)
	got := decode[corev1.Endpoints](t, s.mustDo(http.StatusOK, "GET", "/api/v1/namespaces/default/endpoints/web", ""))
	assert.Equal(t, corev1.ProtocolTCP, got.Subsets[0].Ports[0].Protocol, "defaulted")
	tb = table("/api/v1/namespaces/default/endpoints")
	assert.Equal(t, []string{"Name", "Endpoints", "Age"}, columns(tb))
	assert.Equal(t, []any{"web", "10.244.1.7:80,10.244.2.4:80"}, tb.Rows[0].Cells[:2])
	s.mustDo(http.StatusUnprocessableEntity, "POST", "/api/v1/namespaces/default/endpoints",
		`{"apiVersion":"v1","kind":"Endpoints","metadata":{"name":"bad"},"subsets":[{"ports":[{"port":80}]}]}`)
}

func TestWorkloadTables(t *testing.T) {
	s := newTestServer(t)
	s.mustDo(http.StatusCreated, "POST", deploymentsPath, webDeployment)
	s.mustDo(http.StatusCreated, "POST", jobsPath, `{"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"pi"},"spec":{"completions":3,
	  "template":{"spec":{"restartPolicy":"Never","containers":[{"name":"pi","image":"perl"}]}}}}`)
	s.mustDo(http.StatusCreated, "POST", replicaSetsPath, `{"apiVersion":"apps/v1","kind":"ReplicaSet","metadata":{"name":"rs"},"spec":{"replicas":3,
	  "selector":{"matchLabels":{"a":"b"}},"template":{"metadata":{"labels":{"a":"b"}},"spec":{"containers":[{"name":"c","image":"i"}]}}}}`)
	tests := []struct {
		path  string
		cols  []string
		wide  []string
		cells []any
	}{
		{path: deploymentsPath, cols: []string{"Name", "Ready", "Up-to-date", "Available", "Age"}, wide: []string{"Containers", "Images", "Selector"},
			cells: []any{"web", "0/2", float64(0), float64(0)}},
		{path: replicaSetsPath, cols: []string{"Name", "Desired", "Current", "Ready", "Age"}, wide: []string{"Containers", "Images", "Selector"},
			cells: []any{"rs", float64(3), float64(0), float64(0)}},
		{path: jobsPath, cols: []string{"Name", "Status", "Completions", "Duration", "Age"}, wide: []string{"Containers", "Images", "Selector"},
			cells: []any{"pi", "Running", "0/3", ""}},
	}
	for _, tc := range tests {
		tb := decode[metav1.Table](t, s.mustDo(http.StatusOK, "GET", tc.path, "", withHeader("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io")))
		var cols, wide []string
		for _, c := range tb.ColumnDefinitions {
			if c.Priority == 0 {
				cols = append(cols, c.Name)
			} else {
				wide = append(wide, c.Name)
			}
		}
		assert.Equal(t, tc.cols, cols, "columns of %s", tc.path)
		assert.Equal(t, tc.wide, wide, "wide columns of %s", tc.path)
		require.Len(t, tb.Rows, 1, "rows of %s", tc.path)
		assert.Equal(t, tc.cells, tb.Rows[0].Cells[:len(tc.cells)], "cells of %s", tc.path)
		assert.Len(t, tb.Rows[0].Cells, len(tc.cols)+len(tc.wide), "every column has a cell in %s", tc.path)
	}
}

func TestKubernetesService(t *testing.T) {
	s := newTestServer(t)
	require.NoError(t, s.api.EnsureKubernetesService(t.Context(), netip.MustParseAddrPort("127.0.0.1:6443")))
	// A second API server on the same prefix adds itself; calling again
	// changes nothing.
	require.NoError(t, s.api.EnsureKubernetesService(t.Context(), netip.MustParseAddrPort("0.0.0.0:6443")))
	require.NoError(t, s.api.EnsureKubernetesService(t.Context(), netip.MustParseAddrPort("10.0.0.2:6443")))

	svc := decode[corev1.Service](t, s.mustDo(http.StatusOK, "GET", servicesPath+"/kubernetes", ""))
	assert.Equal(t, "10.96.0.1", svc.Spec.ClusterIP)
	assert.Equal(t, []corev1.ServicePort{{Name: "https", Protocol: corev1.ProtocolTCP, Port: 443, TargetPort: intstr.FromInt32(6443)}}, svc.Spec.Ports)
	assert.Equal(t, map[string]string{"component": "apiserver", "provider": "kubernetes"}, svc.Labels)
	assert.Equal(t, corev1.ServiceAffinityNone, svc.Spec.SessionAffinity)
	ep := decode[corev1.Endpoints](t, s.mustDo(http.StatusOK, "GET", "/api/v1/namespaces/default/endpoints/kubernetes", ""))
	assert.Equal(t, []corev1.EndpointSubset{{
		Addresses: []corev1.EndpointAddress{{IP: "127.0.0.1"}, {IP: "10.0.0.2"}},
		Ports:     []corev1.EndpointPort{{Name: "https", Port: 6443, Protocol: corev1.ProtocolTCP}},
	}}, ep.Subsets)

	// Its IP is taken.
	r := s.mustDo(http.StatusUnprocessableEntity, "POST", servicesPath, serviceJSON("x", `"clusterIP":"10.96.0.1"`))
	assert.Contains(t, r.status(t).Message, "provided IP is already allocated")
}
