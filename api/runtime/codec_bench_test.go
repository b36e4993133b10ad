package runtime_test

import (
	"testing"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/runtime"
)

// benchPod is a pod body as clients send it to create.
const benchPod = `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web-0","namespace":"default",` +
	`"labels":{"app":"web","tier":"frontend"},"annotations":{"note":"a \"quoted\" value"}},` +
	`"spec":{"containers":[{"name":"web","image":"nginx:1.27","ports":[{"containerPort":80,"protocol":"TCP"}],` +
	`"resources":{"requests":{"cpu":"100m","memory":"64Mi"},"limits":{"cpu":"500m","memory":"128Mi"}},` +
	`"env":[{"name":"MODE","value":"prod"}]}],"restartPolicy":"Always","terminationGracePeriodSeconds":30,` +
	`"tolerations":[{"key":"k","operator":"Exists","effect":"NoSchedule"}]}}`

func BenchmarkDecode(b *testing.B) {
	for _, bc := range []struct{ name, data string }{
		{"known", benchPod},
		{"unknown", benchPod[:len(benchPod)-1] + `,"colour":"red"}`},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var pod corev1.Pod
				if _, err := runtime.Decode([]byte(bc.data), &pod); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
