package apiserver_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

// BenchmarkCustomResources measures custom resources against built-in
// kinds in one run: a create of a custom resource (schema pruning,
// defaulting and validation on an unstructured object) against a create
// of a ConfigMap of the same size, and the time from a CRD's create to
// the first object of it being accepted. Run with:
//
//	go test -run='^$' -bench=BenchmarkCustomResources -benchmem ./apiserver/
func BenchmarkCustomResources(b *testing.B) {
	s := newTestServer(b)
	s.installCRD(widgetsCRD)
	seq := 0
	b.Run("create-custom-resource", func(b *testing.B) {
		for b.Loop() {
			seq++
			s.mustDo(http.StatusCreated, "POST", widgetsPath,
				fmt.Sprintf(`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w-%d"},"spec":{"size":3,"color":"blue","labels":{"a":"b"}}}`, seq))
		}
	})
	b.Run("create-configmap", func(b *testing.B) {
		for b.Loop() {
			seq++
			s.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces/default/configmaps",
				fmt.Sprintf(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c-%d"},"data":{"size":"3","color":"blue","a":"b"}}`, seq))
		}
	})
	b.Run("crd-to-first-object", func(b *testing.B) {
		var total time.Duration
		for b.Loop() {
			seq++
			plural := fmt.Sprintf("gadgets%d", seq)
			start := time.Now()
			crd := strings.NewReplacer("widgets", plural, "Widget", fmt.Sprintf("Gadget%d", seq), `"widget"`, fmt.Sprintf(`"gadget%d"`, seq)).Replace(widgetsCRD)
			s.mustDo(http.StatusCreated, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd)
			path := "/apis/example.com/v1/namespaces/default/" + plural
			body := fmt.Sprintf(`{"apiVersion":"example.com/v1","kind":"Gadget%d","metadata":{"name":"first"},"spec":{"size":1}}`, seq)
			// The client's view: retry the create until the resource is
			// served, as a test or an operator starting up would.
			for s.do("POST", path, body).code != http.StatusCreated {
			}
			total += time.Since(start)
		}
		b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms/crd")
	})
}
