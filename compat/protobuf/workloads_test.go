package protobuf

import (
	"os"
	"path/filepath"
	"reflect"

	kappsv1 "k8s.io/api/apps/v1"
	kautoscalingv1 "k8s.io/api/autoscaling/v1"
	kbatchv1 "k8s.io/api/batch/v1"
	kcorev1 "k8s.io/api/core/v1"
	kruntime "k8s.io/apimachinery/pkg/runtime"

	appsv1 "github.com/minicp/minicp/api/apps/v1"
	autoscalingv1 "github.com/minicp/minicp/api/autoscaling/v1"
	batchv1 "github.com/minicp/minicp/api/batch/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/runtime"
)

// The golden directories of the kinds outside core/v1: each package's
// own tests read them.
const (
	appsGoldenDir        = "../../api/apps/v1/testdata/protobuf"
	batchGoldenDir       = "../../api/batch/v1/testdata/protobuf"
	autoscalingGoldenDir = "../../api/autoscaling/v1/testdata/protobuf"
)

// fixture decodes a file of the main module's testdata (captured from
// kubectl, or encoded by k8s.io/api) into obj, with its kind and
// apiVersion as the file has them. It panics on error: fixtures are part
// of the repository.
func fixture[T runtime.Object](path string, obj T) T {
	data, err := os.ReadFile(filepath.Join("../../api", path))
	if err != nil {
		panic(err)
	}
	if _, err := runtime.Decode(data, obj); err != nil {
		panic(err)
	}
	return obj
}

// workloadCases are the kinds of apps/v1, batch/v1, autoscaling/v1 and the
// services and configuration kinds of core/v1: what kubectl create
// deployment, create job, create configmap and create secret send, live
// objects, and filled ones.
func workloadCases() []compatCase {
	k8s := func(obj kruntime.Object) func() kruntime.Object {
		return func() kruntime.Object { return reflect.New(reflect.TypeOf(obj).Elem()).Interface().(kruntime.Object) }
	}
	apps := func(tc compatCase) compatCase { tc.goldenDir = appsGoldenDir; return tc }
	batch := func(tc compatCase) compatCase { tc.goldenDir = batchGoldenDir; return tc }
	return []compatCase{
		apps(compatCase{name: "Deployment-kubectl-create", minicp: fixture("apps/v1/testdata/kubectl-create-deployment.yaml", &appsv1.Deployment{}), k8s: k8s(&kappsv1.Deployment{})}),
		apps(compatCase{name: "Deployment-live", minicp: fixture("apps/v1/testdata/deployment-live.json", &appsv1.Deployment{}), k8s: k8s(&kappsv1.Deployment{})}),
		apps(compatCase{name: "Deployment-zero", minicp: withTypeMeta(&appsv1.Deployment{}, "apps/v1", "Deployment"), k8s: k8s(&kappsv1.Deployment{})}),
		apps(compatCase{name: "Deployment-filled", minicp: withTypeMeta(fill(&appsv1.Deployment{}), "apps/v1", "Deployment"), k8s: k8s(&kappsv1.Deployment{})}),
		apps(compatCase{name: "DeploymentList-filled", minicp: withTypeMeta(fill(&appsv1.DeploymentList{}), "apps/v1", "DeploymentList"), k8s: k8s(&kappsv1.DeploymentList{}), noGolden: true}),
		apps(compatCase{name: "ReplicaSet-live", minicp: fixture("apps/v1/testdata/replicaset-live.json", &appsv1.ReplicaSet{}), k8s: k8s(&kappsv1.ReplicaSet{})}),
		apps(compatCase{name: "ReplicaSet-filled", minicp: withTypeMeta(fill(&appsv1.ReplicaSet{}), "apps/v1", "ReplicaSet"), k8s: k8s(&kappsv1.ReplicaSet{})}),
		apps(compatCase{name: "ReplicaSetList-filled", minicp: withTypeMeta(fill(&appsv1.ReplicaSetList{}), "apps/v1", "ReplicaSetList"), k8s: k8s(&kappsv1.ReplicaSetList{}), noGolden: true}),
		batch(compatCase{name: "Job-kubectl-create", minicp: fixture("batch/v1/testdata/kubectl-create-job.yaml", &batchv1.Job{}), k8s: k8s(&kbatchv1.Job{})}),
		batch(compatCase{name: "Job-live", minicp: fixture("batch/v1/testdata/job-live.json", &batchv1.Job{}), k8s: k8s(&kbatchv1.Job{})}),
		batch(compatCase{name: "Job-manifest", minicp: fixture("batch/v1/testdata/job-manifest.yaml", &batchv1.Job{}), k8s: k8s(&kbatchv1.Job{})}),
		batch(compatCase{name: "Job-filled", minicp: withTypeMeta(fill(&batchv1.Job{}), "batch/v1", "Job"), k8s: k8s(&kbatchv1.Job{})}),
		batch(compatCase{name: "JobList-filled", minicp: withTypeMeta(fill(&batchv1.JobList{}), "batch/v1", "JobList"), k8s: k8s(&kbatchv1.JobList{}), noGolden: true}),
		{name: "Scale-filled", minicp: withTypeMeta(fill(&autoscalingv1.Scale{}), "autoscaling/v1", "Scale"), k8s: k8s(&kautoscalingv1.Scale{}), goldenDir: autoscalingGoldenDir},
		{name: "Service-kubectl-create", minicp: fixture("core/v1/testdata/kubectl-create-service.yaml", &corev1.Service{}), k8s: k8s(&kcorev1.Service{})},
		{name: "Service-kubernetes", minicp: fixture("core/v1/testdata/service-kubernetes.json", &corev1.Service{}), k8s: k8s(&kcorev1.Service{})},
		{name: "Service-loadbalancer", minicp: fixture("core/v1/testdata/service-loadbalancer.json", &corev1.Service{}), k8s: k8s(&kcorev1.Service{})},
		{name: "Service-filled", minicp: withTypeMeta(fill(&corev1.Service{}), "v1", "Service"), k8s: k8s(&kcorev1.Service{})},
		{name: "ServiceList-filled", minicp: withTypeMeta(fill(&corev1.ServiceList{}), "v1", "ServiceList"), k8s: k8s(&kcorev1.ServiceList{}), noGolden: true},
		{name: "Endpoints-live", minicp: fixture("core/v1/testdata/endpoints-live.json", &corev1.Endpoints{}), k8s: k8s(&kcorev1.Endpoints{})},
		{name: "Endpoints-filled", minicp: withTypeMeta(fill(&corev1.Endpoints{}), "v1", "Endpoints"), k8s: k8s(&kcorev1.Endpoints{})},
		{name: "ConfigMap-kubectl-create", minicp: fixture("core/v1/testdata/kubectl-create-configmap.yaml", &corev1.ConfigMap{}), k8s: k8s(&kcorev1.ConfigMap{})},
		{name: "ConfigMap-manifest", minicp: fixture("core/v1/testdata/configmap-manifest.yaml", &corev1.ConfigMap{}), k8s: k8s(&kcorev1.ConfigMap{})},
		{name: "ConfigMap-filled", minicp: withTypeMeta(fill(&corev1.ConfigMap{}), "v1", "ConfigMap"), k8s: k8s(&kcorev1.ConfigMap{})},
		{name: "Secret-kubectl-create", minicp: fixture("core/v1/testdata/kubectl-create-secret.yaml", &corev1.Secret{}), k8s: k8s(&kcorev1.Secret{})},
		{name: "Secret-manifest", minicp: fixture("core/v1/testdata/secret-manifest.yaml", &corev1.Secret{}), k8s: k8s(&kcorev1.Secret{})},
		{name: "Secret-nil-value", minicp: withTypeMeta(&corev1.Secret{Data: map[string][]byte{"empty": {}, "nil": nil}}, "v1", "Secret"), k8s: k8s(&kcorev1.Secret{}), noGolden: true},
		{name: "Secret-filled", minicp: withTypeMeta(fill(&corev1.Secret{}), "v1", "Secret"), k8s: k8s(&kcorev1.Secret{})},
		{name: "ServiceAccount-manifest", minicp: fixture("core/v1/testdata/serviceaccount-manifest.yaml", &corev1.ServiceAccount{}), k8s: k8s(&kcorev1.ServiceAccount{})},
		{name: "ServiceAccount-filled", minicp: withTypeMeta(fill(&corev1.ServiceAccount{}), "v1", "ServiceAccount"), k8s: k8s(&kcorev1.ServiceAccount{})},
	}
}
