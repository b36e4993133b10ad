package apiserver_test

import (
	"net/http"
	"testing"

	"sigs.k8s.io/yaml"
)

// BenchmarkApply compares a server-side apply of a Deployment with a PUT
// of the same Deployment, each changing spec.replicas every time, so
// both write to etcd and record managedFields. Run with:
//
//	go test -run='^$' -bench=BenchmarkApply -benchmem ./apiserver/
func BenchmarkApply(b *testing.B) {
	s := newTestServer(b)
	var bodies [2]string
	for i, replicas := range []int{2, 3} {
		bodies[i] = deploymentYAML(replicas, "")
	}
	var puts [2]string
	for i, replicas := range []int{2, 3} {
		data, err := yaml.YAMLToJSON([]byte(deploymentYAML(replicas, "")))
		if err != nil {
			b.Fatal(err)
		}
		puts[i] = string(data)
	}
	s.mustDo(http.StatusCreated, "PATCH", deploymentsPath+"/web?fieldManager=bench", bodies[0], applyContentType)
	b.Run("apply", func(b *testing.B) {
		i := 0
		for b.Loop() {
			i++
			s.mustDo(http.StatusOK, "PATCH", deploymentsPath+"/web?fieldManager=bench", bodies[i%2], applyContentType)
		}
	})
	b.Run("update", func(b *testing.B) {
		i := 0
		for b.Loop() {
			i++
			s.mustDo(http.StatusOK, "PUT", deploymentsPath+"/web?fieldManager=bench-put", puts[i%2])
		}
	})
}
