package protobuf

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	kapiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	kprotobuf "k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
	"k8s.io/client-go/kubernetes"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	kmetricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"

	apiextensionsv1 "github.com/minicp/minicp/api/apiextensions/v1"
	"github.com/minicp/minicp/cluster"
)

// servedObjects are one object of each built-in kind minicp serves
// beyond those it makes itself (namespaces, the kubernetes Service and
// its Endpoints), posted as JSON before the kinds are listed.
var servedObjects = []struct{ path, body string }{
	{"/api/v1/namespaces/default/pods", `{"metadata":{"name":"p","labels":{"app":"a"}},"spec":{"containers":[{"name":"c","image":"busybox","resources":{"limits":{"cpu":"500m","memory":"64Mi"}}}]}}`},
	{"/api/v1/namespaces/default/configmaps", `{"metadata":{"name":"cm"},"data":{"k":"v"}}`},
	{"/api/v1/namespaces/default/secrets", `{"metadata":{"name":"s"},"data":{"k":"dg=="},"type":"Opaque"}`},
	{"/api/v1/namespaces/default/serviceaccounts", `{"metadata":{"name":"sa"}}`},
	{"/api/v1/namespaces/default/services", `{"metadata":{"name":"svc"},"spec":{"selector":{"app":"a"},"ports":[{"port":80}]}}`},
	{"/api/v1/namespaces/default/events", `{"metadata":{"name":"e"},"involvedObject":{"kind":"Pod","name":"p","namespace":"default"},"reason":"R","message":"m","type":"Normal"}`},
	{"/api/v1/nodes", `{"metadata":{"name":"n","labels":{"kubernetes.io/hostname":"n"}},"status":{"capacity":{"cpu":"4","memory":"8Gi","pods":"110"}}}`},
	{"/apis/apps/v1/namespaces/default/deployments", `{"metadata":{"name":"d"},"spec":{"replicas":2,"selector":{"matchLabels":{"app":"a"}},"template":{"metadata":{"labels":{"app":"a"}},"spec":{"containers":[{"name":"c","image":"busybox"}]}}}}`},
	{"/apis/apps/v1/namespaces/default/replicasets", `{"metadata":{"name":"rs"},"spec":{"replicas":1,"selector":{"matchLabels":{"app":"b"}},"template":{"metadata":{"labels":{"app":"b"}},"spec":{"containers":[{"name":"c","image":"busybox"}]}}}}`},
	{"/apis/batch/v1/namespaces/default/jobs", `{"metadata":{"name":"j"},"spec":{"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"busybox"}]}}}}`},
	{"/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles", `{"metadata":{"name":"r"},"rules":[{"verbs":["get"],"apiGroups":[""],"resources":["pods"],"resourceNames":["p"]}]}`},
	{"/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings", `{"metadata":{"name":"rb"},"roleRef":{"kind":"Role","name":"r"},"subjects":[{"kind":"User","name":"alice"},{"kind":"ServiceAccount","name":"sa"}]}`},
	{"/apis/discovery.k8s.io/v1/namespaces/default/endpointslices", `{"metadata":{"name":"es","labels":{"kubernetes.io/service-name":"svc"}},"addressType":"IPv4","endpoints":[{"addresses":["10.244.0.7"],"conditions":{"ready":true,"serving":true,"terminating":false},"nodeName":"n","targetRef":{"kind":"Pod","namespace":"default","name":"p"}}],"ports":[{"name":"","port":80,"protocol":"TCP"}]}`},
	{"/apis/coordination.k8s.io/v1/namespaces/default/leases", `{"metadata":{"name":"l"},"spec":{"holderIdentity":"me","leaseDurationSeconds":15}}`},
	{"/apis/apps/v1/namespaces/default/statefulsets", `{"metadata":{"name":"ss"},"spec":{"serviceName":"ss","selector":{"matchLabels":{"app":"s"}},"template":{"metadata":{"labels":{"app":"s"}},"spec":{"containers":[{"name":"c","image":"busybox"}]}},"volumeClaimTemplates":[{"metadata":{"name":"data"},"spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}}}}]}}`},
	{"/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers", `{"metadata":{"name":"hpa"},"spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"d"},"maxReplicas":3,"metrics":[{"type":"Pods","pods":{"metric":{"name":"qps"},"target":{"type":"AverageValue","averageValue":"10"}}}],"behavior":{"scaleDown":{"stabilizationWindowSeconds":60}}}}`},
	{"/apis/certificates.k8s.io/v1/certificatesigningrequests", csrJSON()},
	{"/api/v1/namespaces/default/resourcequotas", `{"metadata":{"name":"q"},"spec":{"hard":{"pods":"100","requests.cpu":"10","count/configmaps":"50"},"scopes":["NotTerminating"]}}`},
	{"/api/v1/namespaces/default/limitranges", `{"metadata":{"name":"lr"},"spec":{"limits":[{"type":"Container","default":{"cpu":"500m"},"defaultRequest":{"cpu":"250m"},"max":{"cpu":"2"},"min":{"cpu":"10m"},"maxLimitRequestRatio":{"cpu":"4"}}]}}`},
	{"/apis/policy/v1/namespaces/default/poddisruptionbudgets", `{"metadata":{"name":"pdb"},"spec":{"selector":{"matchLabels":{"app":"a"}},"maxUnavailable":"25%","unhealthyPodEvictionPolicy":"AlwaysAllow"}}`},
	{"/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations", `{"metadata":{"name":"v"},"webhooks":[{"name":"v.example.com","clientConfig":{"url":"https://127.0.0.1:1/v"},"rules":[{"operations":["CREATE"],"apiGroups":["example.com"],"apiVersions":["v1"],"resources":["nothing"]}],"sideEffects":"None","admissionReviewVersions":["v1"]}]}`},
	{"/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations", `{"metadata":{"name":"m"},"webhooks":[{"name":"m.example.com","clientConfig":{"url":"https://127.0.0.1:1/m"},"rules":[{"operations":["CREATE"],"apiGroups":["example.com"],"apiVersions":["v1"],"resources":["nothing"]}],"sideEffects":"None","admissionReviewVersions":["v1"]}]}`},
}

// TestEveryServedKindAsProtobuf lists every built-in resource minicp's
// discovery announces, in protobuf and in JSON, and checks that
// Kubernetes' own protobuf decoder reads the former (its kind and every
// item) into what its JSON decoder reads from the latter; likewise for a
// GET of each listed object. Custom resources are left out: they are
// never protobuf.
func TestEveryServedKindAsProtobuf(t *testing.T) {
	var crd apiextensionsv1.CustomResourceDefinition
	require.NoError(t, json.Unmarshal([]byte(widgetsCRD), &crd))
	c := startCluster(t, cluster.Options{CRDs: []*apiextensionsv1.CustomResourceDefinition{&crd}})
	hc := c.HTTPClient()
	for _, o := range servedObjects {
		post(t, hc, "POST", c.URL()+o.path, o.body, "application/json")
	}

	scheme := kruntime.NewScheme()
	require.NoError(t, clientgoscheme.AddToScheme(scheme))
	require.NoError(t, kapiextensionsv1.AddToScheme(scheme))
	require.NoError(t, kmetricsv1beta1.AddToScheme(scheme))
	pbDecoder := kprotobuf.NewSerializer(scheme, scheme)
	jsonDecoder := serializer.NewCodecFactory(scheme).UniversalDeserializer()

	disco := kubernetes.NewForConfigOrDie(restConfig(c, contentTypeJSON, nil)).Discovery()
	_, lists, err := disco.ServerGroupsAndResources()
	require.NoError(t, err, "discovery")
	var checked []string
	for _, list := range lists {
		if strings.HasPrefix(list.GroupVersion, "example.com/") {
			continue
		}
		prefix := "/apis/" + list.GroupVersion
		if list.GroupVersion == "v1" {
			prefix = "/api/v1"
		}
		for _, r := range list.APIResources {
			if strings.Contains(r.Name, "/") || !slices.Contains(r.Verbs, "list") {
				continue
			}
			path := prefix + "/" + r.Name
			t.Run(list.GroupVersion+"/"+r.Name, func(t *testing.T) {
				pbList := decodeFrom(t, pbDecoder, get(t, hc, c.URL()+path, contentTypeProtobuf))
				jsList := decodeFrom(t, jsonDecoder, get(t, hc, c.URL()+path, contentTypeJSON))
				assertSemanticEqual(t, jsList, pbList, "LIST "+path)
				items, err := meta.ExtractList(pbList)
				require.NoError(t, err, "items of %T", pbList)
				for _, item := range items {
					m, err := meta.Accessor(item)
					require.NoError(t, err)
					itemPath := prefix + "/" + r.Name + "/" + m.GetName()
					if r.Namespaced {
						itemPath = prefix + "/namespaces/" + m.GetNamespace() + "/" + r.Name + "/" + m.GetName()
					}
					pbItem := decodeFrom(t, pbDecoder, get(t, hc, c.URL()+itemPath, contentTypeProtobuf))
					jsItem := decodeFrom(t, jsonDecoder, get(t, hc, c.URL()+itemPath, contentTypeJSON))
					assertSemanticEqual(t, jsItem, pbItem, "GET "+itemPath)
				}
			})
			checked = append(checked, list.GroupVersion+"/"+r.Name)
		}
	}
	t.Logf("checked %d resources: %s", len(checked), strings.Join(checked, ", "))
	for _, want := range []string{"v1/pods", "v1/nodes", "apps/v1/deployments", "batch/v1/jobs", "coordination.k8s.io/v1/leases", "discovery.k8s.io/v1/endpointslices",
		"rbac.authorization.k8s.io/v1/clusterroles", "rbac.authorization.k8s.io/v1/rolebindings",
		"apps/v1/statefulsets", "autoscaling/v1/horizontalpodautoscalers", "autoscaling/v2/horizontalpodautoscalers",
		"certificates.k8s.io/v1/certificatesigningrequests",
		"apiextensions.k8s.io/v1/customresourcedefinitions", "admissionregistration.k8s.io/v1/validatingwebhookconfigurations"} {
		assert.Contains(t, checked, want, "resources checked")
	}
}

// get GETs url accepting mediaType only, and requires a 200 in it.
func get(t *testing.T, hc *http.Client, url, mediaType string) []byte {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), "GET", url, nil)
	require.NoError(t, err)
	req.Header.Set("Accept", mediaType)
	resp, err := hc.Do(req)
	require.NoError(t, err, "GET %s", url)
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	require.NoError(t, err, "GET %s", url)
	require.Equal(t, http.StatusOK, resp.StatusCode, "GET %s as %s: %q", url, mediaType, data)
	require.Equal(t, mediaType, resp.Header.Get("Content-Type"), "GET %s", url)
	return data
}

// decodeFrom decodes data into the kind its envelope or kind field names.
func decodeFrom(t *testing.T, d kruntime.Decoder, data []byte) kruntime.Object {
	t.Helper()
	obj, _, err := d.Decode(data, nil, nil)
	require.NoError(t, err, "decode %q", data)
	return obj
}

// csrJSON is a CertificateSigningRequest for a client certificate, its
// request signed by a key made for it.
func csrJSON() string {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		panic(err)
	}
	der, err := x509.CreateCertificateRequest(rand.Reader, &x509.CertificateRequest{Subject: pkix.Name{CommonName: "jane"}}, key)
	if err != nil {
		panic(err)
	}
	request, _ := json.Marshal(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE REQUEST", Bytes: der}))
	return `{"metadata":{"name":"csr"},"spec":{"request":` + string(request) + `,"signerName":"example.com/signer","usages":["client auth"],"expirationSeconds":3600}}`
}
