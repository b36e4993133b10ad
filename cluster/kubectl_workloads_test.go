package cluster_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/minicp/minicp/cluster"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rows splits kubectl's table output into rows of cells.
func rows(out string) [][]string {
	var rows [][]string
	for line := range strings.SplitSeq(strings.TrimSpace(out), "\n") {
		rows = append(rows, strings.Fields(line))
	}
	return rows
}

// row returns the row of kubectl's table output whose first cell is name.
func row(t *testing.T, out, name string) []string {
	t.Helper()
	for _, r := range rows(out) {
		if len(r) > 0 && r[0] == name {
			return r
		}
	}
	t.Fatalf("no row %q in:\n%s", name, out)
	return nil
}

// jobWithoutRestartPolicy leaves restartPolicy to defaulting, which makes
// it Always: not allowed for a Job.
const jobWithoutRestartPolicy = `apiVersion: batch/v1
kind: Job
metadata:
  name: forever
spec:
  template:
    spec:
      containers:
      - name: main
        image: busybox
`

// apiDeployment is a Deployment as a user writes it for kubectl apply.
const apiDeployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
spec:
  replicas: 2
  selector:
    matchLabels:
      app: api
  strategy:
    type: RollingUpdate
  template:
    metadata:
      labels:
        app: api
    spec:
      containers:
      - name: api
        image: busybox:1
        command: ["sleep", "3600"]
`

// TestKubectlWorkloads runs the kubectl commands of deployments, jobs,
// services and configuration against minicp. kubectl's typed create
// commands (deployment, job, configmap, secret) send protobuf bodies.
// No controllers and no nodes run here, so nothing changes what kubectl
// wrote and nothing becomes ready.
func TestKubectlWorkloads(t *testing.T) {
	t.Parallel()
	c := startCluster(t, func(o *cluster.Options) { o.Controllers = []string{} })
	k := newKubectl(t, c)

	assert.Contains(t, k.Run("create", "deployment", "web", "--image=nginx", "--replicas=2"), "deployment.apps/web created")
	out := k.Run("get", "deploy")
	assert.Equal(t, []string{"NAME", "READY", "UP-TO-DATE", "AVAILABLE", "AGE"}, rows(out)[0])
	assert.Equal(t, []string{"web", "0/2", "0", "0"}, row(t, out, "web")[:4])
	out = k.Run("get", "deployments", "web", "-o", "wide")
	assert.Equal(t, []string{"NAME", "READY", "UP-TO-DATE", "AVAILABLE", "AGE", "CONTAINERS", "IMAGES", "SELECTOR"}, rows(out)[0])
	assert.Equal(t, []string{"nginx", "nginx", "app=web"}, row(t, out, "web")[5:])
	assert.Equal(t, "RollingUpdate 25% 25% 10 600", k.Run("get", "deploy", "web", "-o",
		"jsonpath={.spec.strategy.type} {.spec.strategy.rollingUpdate.maxSurge} {.spec.strategy.rollingUpdate.maxUnavailable} {.spec.revisionHistoryLimit} {.spec.progressDeadlineSeconds}"),
		"defaulted by the server")

	// kubectl scale patches deployments/web/scale; with --current-replicas
	// it reads the Scale and updates it with a precondition.
	assert.Contains(t, k.Run("scale", "deploy/web", "--replicas=3"), "deployment.apps/web scaled")
	assert.Equal(t, "0/3", row(t, k.Run("get", "deploy"), "web")[1], "get shows 3 desired")
	assert.Equal(t, "3", k.Run("get", "deploy", "web", "-o", "jsonpath={.spec.replicas}"))
	assert.Contains(t, k.Run("scale", "deploy/web", "--current-replicas=3", "--replicas=4"), "deployment.apps/web scaled")
	assert.Contains(t, k.Fail("scale", "deploy/web", "--current-replicas=1", "--replicas=5"), "Expected replicas to be 1, was 4")
	out = k.Run("get", "deploy", "web", "--subresource=scale")
	assert.Equal(t, []string{"NAME", "DESIRED", "AVAILABLE"}, rows(out)[0][:3])
	assert.Equal(t, []string{"web", "4", "0"}, row(t, out, "web")[:3])
	assert.Equal(t, "3", k.Run("get", "deploy", "web", "-o", "jsonpath={.metadata.generation}"), "each scale bumped the generation")

	assert.Contains(t, k.Run("set", "image", "deploy/web", "nginx=nginx:1.27"), "deployment.apps/web image updated")
	assert.Equal(t, "nginx:1.27", k.Run("get", "deploy", "web", "-o", "jsonpath={.spec.template.spec.containers[0].image}"))

	// Jobs: the server generates the selector and the labels it selects.
	assert.Contains(t, k.Run("create", "job", "hello", "--image=busybox", "--", "sh", "-c", "echo hi"), "job.batch/hello created")
	out = k.Run("get", "jobs")
	assert.Equal(t, []string{"NAME", "STATUS", "COMPLETIONS", "DURATION", "AGE"}, rows(out)[0])
	assert.Equal(t, []string{"hello", "Running", "0/1"}, row(t, out, "hello")[:3])
	uid := k.Run("get", "job", "hello", "-o", "jsonpath={.metadata.uid}")
	assert.Equal(t, uid, k.Run("get", "job", "hello", "-o", `jsonpath={.spec.selector.matchLabels.batch\.kubernetes\.io/controller-uid}`))
	assert.Equal(t, "hello", k.Run("get", "job", "hello", "-o", `jsonpath={.spec.template.metadata.labels.job-name}`))
	manifest := filepath.Join(t.TempDir(), "job.yaml")
	require.NoError(t, os.WriteFile(manifest, []byte(jobWithoutRestartPolicy), 0o600))
	assert.Contains(t, k.Fail("create", "-f", manifest), `spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"`)

	// ConfigMaps and Secrets.
	assert.Contains(t, k.Run("create", "configmap", "x", "--from-literal=a=b"), "configmap/x created")
	out = k.Run("get", "cm", "x")
	assert.Equal(t, []string{"NAME", "DATA", "AGE"}, rows(out)[0])
	assert.Equal(t, []string{"x", "1"}, row(t, out, "x")[:2])
	assert.Contains(t, k.Run("create", "secret", "generic", "s", "--from-literal=p=q"), "secret/s created")
	out = k.Run("get", "secrets")
	assert.Equal(t, []string{"NAME", "TYPE", "DATA", "AGE"}, rows(out)[0])
	assert.Equal(t, []string{"s", "Opaque", "1"}, row(t, out, "s")[:3])
	assert.Equal(t, "cQ==", k.Run("get", "secret", "s", "-o", "jsonpath={.data.p}"))
	assert.Contains(t, k.Run("create", "serviceaccount", "builder"), "serviceaccount/builder created")
	assert.Equal(t, []string{"builder", "0"}, row(t, k.Run("get", "sa"), "builder")[:2])

	// kubectl expose reads the Deployment's selector and creates a
	// Service, whose cluster IP the server allocates.
	assert.Contains(t, k.Run("expose", "deployment", "web", "--port=80"), "service/web exposed")
	out = k.Run("get", "svc")
	assert.Equal(t, []string{"NAME", "TYPE", "CLUSTER-IP", "EXTERNAL-IP", "PORT(S)", "AGE"}, rows(out)[0])
	web := row(t, out, "web")
	assert.Equal(t, "ClusterIP", web[1])
	assert.Regexp(t, regexp.MustCompile(`^10\.(9[6-9]|10[0-9]|11[01])\.`), web[2], "a cluster IP from 10.96.0.0/12")
	assert.Equal(t, []string{"<none>", "80/TCP"}, web[3:5])
	assert.Equal(t, []string{"kubernetes", "ClusterIP", "10.96.0.1", "<none>", "443/TCP"}, row(t, out, "kubernetes")[:5],
		"the API server's own Service")
	assert.Equal(t, "app=web", k.Run("get", "svc", "web", "-o", "jsonpath=app={.spec.selector.app}"))
	assert.Contains(t, k.Fail("patch", "svc", "web", "-p", `{"spec":{"clusterIP":"10.96.0.99"}}`), "may not change once set")
	assert.Contains(t, k.Run("expose", "deployment", "web", "--name=web-np", "--port=8080", "--target-port=80", "--type=NodePort"), "service/web-np exposed")
	assert.Regexp(t, regexp.MustCompile(`^8080:3\d{4}/TCP$`), row(t, k.Run("get", "svc", "web-np"), "web-np")[4])

	// Discovery, as kubectl api-resources shows it.
	out = k.Run("api-resources")
	for name, want := range map[string][]string{
		"deployments":              {"deploy", "apps/v1", "true", "Deployment"},
		"replicasets":              {"rs", "apps/v1", "true", "ReplicaSet"},
		"jobs":                     {"batch/v1", "true", "Job"},
		"services":                 {"svc", "v1", "true", "Service"},
		"endpoints":                {"ep", "v1", "true", "Endpoints"},
		"configmaps":               {"cm", "v1", "true", "ConfigMap"},
		"secrets":                  {"v1", "true", "Secret"},
		"serviceaccounts":          {"sa", "v1", "true", "ServiceAccount"},
		"horizontalpodautoscalers": {"hpa", "autoscaling/v2", "true", "HorizontalPodAutoscaler"},
	} {
		assert.Equal(t, want, row(t, out, name)[1:], "kubectl api-resources: %s", name)
	}
	assert.NotContains(t, out, "Scale\n", "Scale is not a resource")

	// `kubectl get all` follows the "all" category.
	out = k.Run("get", "all")
	for _, name := range []string{"deployment.apps/web", "job.batch/hello", "service/web", "service/kubernetes"} {
		assert.Contains(t, out, name, "kubectl get all")
	}

	// kubectl apply: create, then a three-way strategic merge patch that
	// switches the rollout strategy (spec.strategy retains only the keys
	// the patch names) and the image.
	applied := filepath.Join(t.TempDir(), "api.yaml")
	require.NoError(t, os.WriteFile(applied, []byte(apiDeployment), 0o600))
	assert.Contains(t, k.Run("apply", "-f", applied), "deployment.apps/api created")
	require.NoError(t, os.WriteFile(applied, []byte(strings.NewReplacer("busybox:1", "busybox:2",
		"type: RollingUpdate", "type: Recreate").Replace(apiDeployment)), 0o600))
	assert.Contains(t, k.Run("apply", "-f", applied), "deployment.apps/api configured")
	assert.Equal(t, "Recreate busybox:2 2", k.Run("get", "deploy", "api", "-o",
		"jsonpath={.spec.strategy.type}{.spec.strategy.rollingUpdate} {.spec.template.spec.containers[0].image} {.metadata.generation}"))

	assert.Contains(t, k.Run("delete", "deployment", "web"), `deployment.apps "web" deleted`)
	assert.Contains(t, k.Run("delete", "svc", "web", "web-np"), `service "web-np" deleted`)
	require.Contains(t, k.Fail("get", "deploy", "web"), "NotFound")
}
