package runtime_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"sigs.k8s.io/yaml"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/runtime"
)

// maxFuzzBody bounds fuzz inputs: a few KB holds every shape a Pod has,
// and larger bodies only slow each run down.
const maxFuzzBody = 8 << 10

// fuzzPodJSON is a Pod as the API server stores it: quantities, times,
// int-or-string ports, maps, nested lists and status.
const fuzzPodJSON = `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web-0","namespace":"shop",` +
	`"uid":"6f1c","resourceVersion":"42","generation":1,"creationTimestamp":"2024-05-06T07:08:09Z",` +
	`"labels":{"app":"web"},"annotations":{"a":"b"},"ownerReferences":[{"apiVersion":"apps/v1",` +
	`"kind":"ReplicaSet","name":"web-5d","uid":"9a","controller":true}],"finalizers":["x/y"]},` +
	`"spec":{"containers":[{"name":"web","image":"nginx:1.27","ports":[{"name":"http","containerPort":8080}],` +
	`"env":[{"name":"A","value":"1"}],"resources":{"requests":{"cpu":"250m","memory":"64Mi"},"limits":{"cpu":"1"}},` +
	`"readinessProbe":{"httpGet":{"path":"/healthz","port":"http"},"periodSeconds":5}}],` +
	`"tolerations":[{"key":"k","operator":"Exists","effect":"NoExecute","tolerationSeconds":300}],` +
	`"nodeSelector":{"kubernetes.io/os":"linux"},"terminationGracePeriodSeconds":30},` +
	`"status":{"phase":"Running","podIP":"10.0.0.5","startTime":"2024-05-06T07:08:10Z",` +
	`"conditions":[{"type":"Ready","status":"True","lastTransitionTime":"2024-05-06T07:08:11Z"}],` +
	`"containerStatuses":[{"name":"web","ready":true,"restartCount":0,"image":"nginx:1.27","imageID":"",` +
	`"state":{"running":{"startedAt":"2024-05-06T07:08:10Z"}}}]}}`

// fuzzPodYAML is a hand-written manifest of the kind kubectl sends.
const fuzzPodYAML = `apiVersion: v1
kind: Pod
metadata:
  name: web-0
  labels:
    app: web
  annotations:
    prometheus.io/scrape: "true"
spec:
  containers:
  - name: web
    image: nginx:1.27
    args: [--port, "8080", "yes", "0x10", "1e3"]
    ports:
    - containerPort: 8080
    resources:
      limits:
        cpu: 1
        memory: 128Mi
    livenessProbe:
      tcpSocket:
        port: 8080
  volumes:
  - name: config
    configMap:
      name: web
      defaultMode: 0400
`

// FuzzDecodeJSON decodes arbitrary bodies into a Pod. Decode must never
// panic; what it accepts must encode to JSON that decodes again with no
// unknown fields into an object that encodes to the same bytes; and the
// unknown fields it reports must be those a generic parse of the body
// finds, whether it took its fast path or not.
func FuzzDecodeJSON(f *testing.F) {
	for _, s := range []string{
		fuzzPodJSON,
		`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","nmae":"q"},"spec":{"containers":[{"name":"c","colour":"red"}]}}`,
		`{"Kind":"Pod","METADATA":{"NAME":"x"},"metadata":{"name":"y"}}`,
		`{"spec":{"containers":[{"ports":[{"containerPort":80,"hostPort":9007199254740993}]}]}}`,
		`{"metadata":{"labels":{"a":"b"}},"spec":{"overhead":{"cpu":"1.5"}},"status":{"startTime":null}}`,
		`{"metadata":{"name":"\u00e9\ud800"}}`,
		`[]`,
		`{}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > maxFuzzBody {
			t.Skip()
		}
		var pod corev1.Pod
		unknown, err := runtime.Decode(data, &pod)
		if err != nil {
			return
		}
		if trimmed := bytes.TrimSpace(data); trimmed[0] == '{' || trimmed[0] == '[' {
			var generic any
			if err := json.Unmarshal(trimmed, &generic); err != nil {
				t.Fatalf("Decode accepted %q, which is not JSON: %v", data, err)
			}
			want := runtime.UnknownFields(generic, reflect.TypeFor[corev1.Pod]())
			if !slices.Equal(unknown, want) {
				t.Fatalf("Decode(%q) reported unknown fields %q, a generic parse finds %q", data, unknown, want)
			}
			if trimmed[0] == '{' {
				// An unknown field is reported and dropped: it must not
				// change what the known ones decode to.
				withUnknown := append([]byte(`{"fuzzUnknownField":0,`), trimmed[1:]...)
				if bytes.Equal(bytes.TrimSpace(trimmed[1:]), []byte("}")) {
					withUnknown = []byte(`{"fuzzUnknownField":0}`)
				}
				var other corev1.Pod
				if _, err := runtime.Decode(withUnknown, &other); err != nil {
					t.Fatalf("Decode(%q) fails once an unknown field is added: %v", data, err)
				}
				if !reflect.DeepEqual(pod, other) {
					t.Fatalf("an unknown field changes what %q decodes to:\n%#v\n%#v", data, pod, other)
				}
			}
		}
		checkRoundTrip(t, &pod)
	})
}

// FuzzDecodeYAML decodes arbitrary YAML into a Pod, through
// sigs.k8s.io/yaml as the API server reads YAML bodies. Decode must never
// panic, and what it accepts must survive the trip back out as the API
// server writes YAML (JSON, then yaml.JSONToYAML) and in again.
func FuzzDecodeYAML(f *testing.F) {
	for _, s := range []string{
		fuzzPodYAML,
		"kind: Pod\nmetadata:\n  name: p\n  labels: {a: b}\n",
		"metadata:\n  name: &n x\n  generateName: *n\n",
		"spec:\n  containers:\n  - name: c\n    colour: red\n",
		"metadata: {name: 'on', namespace: \"null\", labels: {\"y\": \"n\"}}\n",
		"spec: {containers: [{name: c, ports: [{containerPort: 1e2}]}]}\n",
		"--- \nkind: Pod\n",
		"!!binary aGVsbG8=",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > maxFuzzBody {
			t.Skip()
		}
		var pod corev1.Pod
		if _, err := runtime.Decode(data, &pod); err != nil {
			return
		}
		encoded := checkRoundTrip(t, &pod)
		asYAML, err := yaml.JSONToYAML(encoded)
		if err != nil {
			t.Fatalf("JSONToYAML(%s): %v", encoded, err)
		}
		var again corev1.Pod
		if unknown, err := runtime.Decode(asYAML, &again); err != nil || len(unknown) > 0 {
			t.Fatalf("Decode of the YAML the server writes, %q: unknown fields %q, %v", asYAML, unknown, err)
		}
		if reencoded, err := runtime.Encode(&again); err != nil || !bytes.Equal(reencoded, encoded) {
			t.Fatalf("a Pod written as YAML reads back as %s (%v), want %s", reencoded, err, encoded)
		}
	})
}

// checkRoundTrip encodes pod, decodes the JSON into a new Pod and checks
// that nothing is unknown and nothing changes, and returns the encoding.
func checkRoundTrip(t *testing.T, pod *corev1.Pod) []byte {
	t.Helper()
	first, err := runtime.Encode(pod)
	if err != nil {
		t.Fatalf("Encode of a decoded Pod: %v", err)
	}
	var again corev1.Pod
	unknown, err := runtime.Decode(first, &again)
	if err != nil {
		t.Fatalf("Decode of its own encoding %s: %v", first, err)
	}
	if len(unknown) > 0 {
		t.Fatalf("Decode of its own encoding %s reports unknown fields %q", first, unknown)
	}
	second, err := runtime.Encode(&again)
	if err != nil {
		t.Fatalf("Encode again: %v", err)
	}
	if !bytes.Equal(first, second) {
		t.Fatalf("encode, decode, encode changes the Pod:\n%s\n%s", first, second)
	}
	var third corev1.Pod
	if _, err := runtime.Decode(second, &third); err != nil || !reflect.DeepEqual(again, third) {
		t.Fatalf("decoding the same JSON twice gives different Pods (%v):\n%#v\n%#v", err, again, third)
	}
	return first
}
