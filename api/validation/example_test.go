package validation_test

import (
	"fmt"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/validation"
)

func ExampleValidatePod() {
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: corev1.PodSpec{Containers: []corev1.Container{
			{Name: "web", Image: "nginx", Ports: []corev1.ContainerPort{{ContainerPort: 70000}}},
			{Name: "web"},
		}},
	}
	// The API server validates after defaulting.
	corev1.SetDefaults(pod)
	for _, err := range validation.ValidatePod(pod) {
		fmt.Println(err)
	}
	// Output:
	// spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive
	// spec.containers[1].name: Duplicate value: "web"
	// spec.containers[1].image: Required value
}
