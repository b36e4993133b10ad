package protobuf

import (
	"bytes"
	"cmp"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/encoding/protowire"
	kappsv1 "k8s.io/api/apps/v1"
	kauthenticationv1 "k8s.io/api/authentication/v1"
	kauthorizationv1 "k8s.io/api/authorization/v1"
	kautoscalingv1 "k8s.io/api/autoscaling/v1"
	kautoscalingv2 "k8s.io/api/autoscaling/v2"
	kbatchv1 "k8s.io/api/batch/v1"
	kcertificatesv1 "k8s.io/api/certificates/v1"
	kcorev1 "k8s.io/api/core/v1"
	kdiscoveryv1 "k8s.io/api/discovery/v1"
	kpolicyv1 "k8s.io/api/policy/v1"
	krbacv1 "k8s.io/api/rbac/v1"
	kschedulingv1 "k8s.io/api/scheduling/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	kmetav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	kprotobuf "k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
	kmetricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
)

var update = flag.Bool("update", false, "rewrite the golden files in api/*/v1/testdata/protobuf")

// goldenDir is where the main module's tests find Kubernetes' bytes.
const goldenDir = "../../api/core/v1/testdata/protobuf"

// compatCase is one object, built as a minicp value; the Kubernetes value
// is the same object read from the minicp value's JSON.
type compatCase struct {
	name   string
	minicp runtime.Object
	k8s    func() kruntime.Object // a new empty Kubernetes object of the same kind
	// k8sOnly are paths (field numbers from the envelope down) of fields
	// Kubernetes always writes but minicp's types do not have, so minicp
	// cannot write them; they are dropped from Kubernetes' bytes before
	// comparing. Every one is a zero value in these objects.
	k8sOnly [][]protowire.Number
	// noGolden keeps a case out of the golden files, for filled lists
	// whose JSON would be hundreds of kilobytes.
	noGolden bool
	// goldenDir is where the case's golden files go. Defaults to
	// goldenDir, core/v1's.
	goldenDir string
}

// podStatusOnly are, below Pod.status (3), PodStatus.resize (14, deprecated) and
// observedGeneration (17): non-pointer fields upstream, so always written,
// which minicp's PodStatus does not carry.
func podStatusOnly(prefix ...protowire.Number) [][]protowire.Number {
	return [][]protowire.Number{
		append(append([]protowire.Number{}, prefix...), 3, 14),
		append(append([]protowire.Number{}, prefix...), 3, 17),
	}
}

func withTypeMeta[T runtime.Object](obj T, apiVersion, kind string) T {
	*obj.GetTypeMeta() = runtime.TypeMeta{APIVersion: apiVersion, Kind: kind}
	return obj
}

func compatCases() []compatCase {
	k8s := func(obj kruntime.Object) func() kruntime.Object {
		return func() kruntime.Object { return reflect.New(reflect.TypeOf(obj).Elem()).Interface().(kruntime.Object) }
	}
	pod, podList := podStatusOnly(2), podStatusOnly(2, 2)
	return []compatCase{
		{name: "Namespace-kubectl-create", minicp: withTypeMeta(&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "x"}}, "v1", "Namespace"), k8s: k8s(&kcorev1.Namespace{})},
		{name: "Namespace-zero", minicp: withTypeMeta(&corev1.Namespace{}, "v1", "Namespace"), k8s: k8s(&kcorev1.Namespace{})},
		{name: "Namespace-filled", minicp: withTypeMeta(fill(&corev1.Namespace{}), "v1", "Namespace"), k8s: k8s(&kcorev1.Namespace{})},
		{name: "NamespaceList-filled", minicp: withTypeMeta(fill(&corev1.NamespaceList{}), "v1", "NamespaceList"), k8s: k8s(&kcorev1.NamespaceList{})},
		{name: "Pod-zero", minicp: withTypeMeta(&corev1.Pod{}, "v1", "Pod"), k8s: k8s(&kcorev1.Pod{}), k8sOnly: pod},
		{name: "Pod-web", minicp: webPod(), k8s: k8s(&kcorev1.Pod{}), k8sOnly: pod},
		{name: "Pod-filled", minicp: withTypeMeta(fill(&corev1.Pod{}), "v1", "Pod"), k8s: k8s(&kcorev1.Pod{}), k8sOnly: pod},
		{name: "PodList-filled", minicp: withTypeMeta(fill(&corev1.PodList{}), "v1", "PodList"), k8s: k8s(&kcorev1.PodList{}), k8sOnly: podList, noGolden: true},
		{name: "Node-zero", minicp: withTypeMeta(&corev1.Node{}, "v1", "Node"), k8s: k8s(&kcorev1.Node{})},
		{name: "Node-kubelet", minicp: kubeletNode(), k8s: k8s(&kcorev1.Node{})},
		{name: "Node-filled", minicp: withTypeMeta(fill(&corev1.Node{}), "v1", "Node"), k8s: k8s(&kcorev1.Node{})},
		{name: "NodeList-filled", minicp: withTypeMeta(fill(&corev1.NodeList{}), "v1", "NodeList"), k8s: k8s(&kcorev1.NodeList{}), noGolden: true},
		{name: "Binding-filled", minicp: withTypeMeta(fill(&corev1.Binding{}), "v1", "Binding"), k8s: k8s(&kcorev1.Binding{})},
		{name: "Event-filled", minicp: withTypeMeta(fill(&corev1.Event{}), "v1", "Event"), k8s: k8s(&kcorev1.Event{})},
		{name: "EventList-filled", minicp: withTypeMeta(fill(&corev1.EventList{}), "v1", "EventList"), k8s: k8s(&kcorev1.EventList{})},
		{name: "Status-notfound", minicp: notFoundStatus(), k8s: k8s(&kmetav1.Status{})},
		{name: "Status-filled", minicp: withTypeMeta(fill(&metav1.Status{}), "v1", "Status"), k8s: k8s(&kmetav1.Status{})},
		{name: "DeleteOptions-foreground", minicp: foregroundDelete(), k8s: k8s(&kmetav1.DeleteOptions{})},
		{name: "DeleteOptions-filled", minicp: withTypeMeta(fill(&metav1.DeleteOptions{}), "meta.k8s.io/v1", "DeleteOptions"), k8s: k8s(&kmetav1.DeleteOptions{})},
		{name: "PartialObjectMetadata-filled", minicp: withTypeMeta(fill(&metav1.PartialObjectMetadata{}), "meta.k8s.io/v1", "PartialObjectMetadata"), k8s: k8s(&kmetav1.PartialObjectMetadata{})},
		{name: "APIResourceList-filled", minicp: withTypeMeta(fill(&metav1.APIResourceList{}), "v1", "APIResourceList"), k8s: k8s(&kmetav1.APIResourceList{})},
		{name: "APIGroupList-filled", minicp: withTypeMeta(fill(&metav1.APIGroupList{}), "v1", "APIGroupList"), k8s: k8s(&kmetav1.APIGroupList{})},
		{name: "APIVersions-filled", minicp: withTypeMeta(fill(&metav1.APIVersions{}), "v1", "APIVersions"), k8s: k8s(&kmetav1.APIVersions{})},
	}
}

// allCases are compatCases, workloadCases, rbacCases, discoveryCases,
// autoscalingCertificatesCases, policyCases and metricsCases.
func allCases() []compatCase {
	return append(append(append(append(append(append(compatCases(), workloadCases()...), rbacCases()...), discoveryCases()...),
		autoscalingCertificatesCases()...), policyCases()...), metricsCases()...)
}

func newSerializer() *kprotobuf.Serializer {
	scheme := kruntime.NewScheme()
	for _, add := range []func(*kruntime.Scheme) error{kcorev1.AddToScheme, kappsv1.AddToScheme, kbatchv1.AddToScheme, kautoscalingv1.AddToScheme,
		krbacv1.AddToScheme, kauthorizationv1.AddToScheme, kauthenticationv1.AddToScheme, kdiscoveryv1.AddToScheme,
		kautoscalingv2.AddToScheme, kcertificatesv1.AddToScheme, kpolicyv1.AddToScheme, kmetricsv1beta1.AddToScheme, kschedulingv1.AddToScheme} {
		if err := add(scheme); err != nil {
			panic(err)
		}
	}
	// DeleteOptions and PartialObjectMetadata in meta.k8s.io/v1.
	kmetav1.AddToGroupVersion(scheme, kmetav1.SchemeGroupVersion)
	if err := kmetav1.AddMetaToScheme(scheme); err != nil {
		panic(err)
	}
	return kprotobuf.NewSerializer(scheme, scheme)
}

// TestEncodeMatchesKubernetes encodes each object with minicp and with
// Kubernetes and compares the bytes, then reads each side's bytes with the
// other side.
func TestEncodeMatchesKubernetes(t *testing.T) {
	s := newSerializer()
	for _, tc := range allCases() {
		t.Run(tc.name, func(t *testing.T) {
			jsonBytes, err := json.Marshal(tc.minicp)
			require.NoError(t, err, "json.Marshal(minicp %s)", tc.name)
			k8sObj := tc.k8s()
			require.NoError(t, json.Unmarshal(jsonBytes, k8sObj), "json.Unmarshal(k8s %s)", tc.name)

			var k8sBytes bytes.Buffer
			require.NoError(t, s.EncodeWithAllocator(k8sObj, &k8sBytes, &kruntime.SimpleAllocator{}), "k8s Encode(%s)", tc.name)
			minicpBytes, err := runtime.EncodeProtobuf(tc.minicp)
			require.NoError(t, err, "EncodeProtobuf(%s)", tc.name)

			want := stripFields(t, k8sBytes.Bytes(), tc.k8sOnly)
			if !bytes.Equal(want, minicpBytes) {
				t.Errorf("EncodeProtobuf(%s) differs from Kubernetes' bytes:\n%s", tc.name, diffDumps(want[4:], minicpBytes[4:]))
			}

			// minicp reads Kubernetes' bytes, the k8s-only fields included.
			decoded := reflect.New(reflect.TypeOf(tc.minicp).Elem()).Interface().(runtime.Object)
			require.NoError(t, runtime.DecodeProtobuf(k8sBytes.Bytes(), decoded), "DecodeProtobuf(k8s bytes of %s)", tc.name)
			assert.Equal(t, tc.minicp, decoded, "DecodeProtobuf(k8s bytes of %s)", tc.name)

			// Kubernetes reads minicp's bytes.
			k8sDecoded := tc.k8s()
			_, _, err = s.Decode(minicpBytes, nil, k8sDecoded)
			require.NoError(t, err, "k8s Decode(minicp bytes of %s)", tc.name)
			assert.True(t, apiequality.Semantic.DeepEqual(k8sObj, k8sDecoded), "k8s Decode(minicp bytes of %s): got %+v, want %+v", tc.name, k8sDecoded, k8sObj)
		})
	}
}

// TestGolden checks (or, with -update, writes) the golden files the main
// module's tests read: for each case, <name>.json is the object and
// <name>.pb the bytes Kubernetes writes for it, less the case's k8sOnly
// fields, so they are exactly the bytes minicp must write.
func TestGolden(t *testing.T) {
	s := newSerializer()
	for _, tc := range allCases() {
		if tc.noGolden {
			continue
		}
		dir := cmp.Or(tc.goldenDir, goldenDir)
		if *update {
			require.NoError(t, os.MkdirAll(dir, 0o755))
		}
		t.Run(tc.name, func(t *testing.T) {
			// Kubernetes keeps managedFields' fieldsV1 as the raw bytes it
			// read, so it reads compact JSON, as a server writes it; the file
			// is indented for people.
			compact, err := json.Marshal(tc.minicp)
			require.NoError(t, err, "json.Marshal(%s)", tc.name)
			k8sObj := tc.k8s()
			require.NoError(t, json.Unmarshal(compact, k8sObj), "json.Unmarshal(k8s %s)", tc.name)
			jsonBytes, err := json.MarshalIndent(tc.minicp, "", "  ")
			require.NoError(t, err, "json.Marshal(%s)", tc.name)
			var k8sBytes bytes.Buffer
			require.NoError(t, s.EncodeWithAllocator(k8sObj, &k8sBytes, &kruntime.SimpleAllocator{}), "k8s Encode(%s)", tc.name)
			want := stripFields(t, k8sBytes.Bytes(), tc.k8sOnly)

			jsonPath := filepath.Join(dir, tc.name+".json")
			pbPath := filepath.Join(dir, tc.name+".pb")
			if *update {
				require.NoError(t, os.WriteFile(jsonPath, append(jsonBytes, '\n'), 0o644))
				require.NoError(t, os.WriteFile(pbPath, want, 0o644))
				return
			}
			gotJSON, err := os.ReadFile(jsonPath)
			require.NoError(t, err, "golden files are missing: run go test -run TestGolden -update")
			assert.Equal(t, string(jsonBytes)+"\n", string(gotJSON), "%s is stale: run go test -run TestGolden -update", jsonPath)
			gotPB, err := os.ReadFile(pbPath)
			require.NoError(t, err)
			assert.Equal(t, want, gotPB, "%s is stale: run go test -run TestGolden -update", pbPath)
		})
	}
}
