package v1_test

import (
	"fmt"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/runtime"
)

func ExampleSetDefaults() {
	var pod corev1.Pod
	manifest := []byte(`
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: default}
spec:
  containers:
  - name: web
    image: nginx
    resources: {limits: {cpu: 500m}}
`)
	if _, err := runtime.Decode(manifest, &pod); err != nil {
		panic(err)
	}
	corev1.SetDefaults(&pod)
	c := pod.Spec.Containers[0]
	fmt.Println(pod.Spec.RestartPolicy, *pod.Spec.TerminationGracePeriodSeconds, pod.Spec.SchedulerName)
	fmt.Println(c.ImagePullPolicy, c.TerminationMessagePath, c.Resources.Requests.Cpu())
	// Output:
	// Always 30 default-scheduler
	// Always /dev/termination-log 500m
}

func ExampleAddToScheme() {
	s := runtime.NewScheme()
	if err := corev1.AddToScheme(s); err != nil {
		panic(err)
	}
	for _, r := range s.Resources() {
		fmt.Println(r.GVR.Resource, r.Namespaced, r.ShortNames, r.Subresources)
	}
	// Output:
	// namespaces false [ns] [status finalize]
	// pods true [po] [status binding]
	// nodes false [no] [status]
	// bindings true [] []
	// events true [ev] []
	// services true [svc] [status]
	// endpoints true [ep] []
	// configmaps true [cm] []
	// secrets true [] []
	// serviceaccounts true [sa] [token]
	// resourcequotas true [quota] [status]
	// limitranges true [limits] []
}
