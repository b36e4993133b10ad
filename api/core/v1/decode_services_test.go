package v1

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/intstr"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/runtime/runtimetest"
)

// TestDecodeServicesAndConfig decodes what kubectl create sends for the
// service, endpoints and configuration kinds, live objects encoded by
// k8s.io/api, and hand-written manifests, with no unknown field; upstream
// output must encode back as it was.
func TestDecodeServicesAndConfig(t *testing.T) {
	tests := []struct {
		file  string
		obj   runtime.Object
		exact bool
	}{
		{file: "kubectl-create-service.yaml", obj: &Service{}, exact: true},
		{file: "service-kubernetes.json", obj: &Service{}, exact: true},
		{file: "service-loadbalancer.json", obj: &Service{}, exact: true},
		{file: "endpoints-live.json", obj: &Endpoints{}, exact: true},
		{file: "kubectl-create-configmap.yaml", obj: &ConfigMap{}, exact: true},
		{file: "kubectl-create-secret.yaml", obj: &Secret{}, exact: true},
		{file: "kubectl-create-serviceaccount.yaml", obj: &ServiceAccount{}, exact: true},
		{file: "configmap-manifest.yaml", obj: &ConfigMap{}},
		{file: "secret-manifest.yaml", obj: &Secret{}},
		{file: "serviceaccount-manifest.yaml", obj: &ServiceAccount{}},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			data := runtimetest.DecodeFile(t, tc.file, tc.obj)
			out, err := runtime.Encode(tc.obj)
			require.NoError(t, err, "Encode(%s)", tc.file)
			again := reflect.New(reflect.TypeOf(tc.obj).Elem()).Interface().(runtime.Object)
			unknown, err := runtime.Decode(out, again)
			require.NoError(t, err, "Decode(Encode(%s))", tc.file)
			assert.Empty(t, unknown, "unknown fields in Encode(%s)", tc.file)
			assert.Equal(t, tc.obj, again, "Decode(Encode(%s))", tc.file)
			if tc.exact {
				assert.Equal(t, upstreamOnly(runtimetest.ToGeneric(t, data)), upstreamOnly(runtimetest.ToGeneric(t, out)),
					"Encode(Decode(%s)) differs from the upstream output", tc.file)
			}
		})
	}
}

func TestDecodeServiceFields(t *testing.T) {
	var svc Service
	runtimetest.DecodeFile(t, "service-loadbalancer.json", &svc)
	assert.Equal(t, ServiceTypeLoadBalancer, svc.Spec.Type)
	assert.Equal(t, intstr.FromString("http"), svc.Spec.Ports[0].TargetPort)
	assert.Equal(t, intstr.FromInt32(8443), svc.Spec.Ports[1].TargetPort)
	assert.Equal(t, int32(30443), svc.Spec.Ports[1].NodePort)
	assert.Equal(t, []IPFamily{IPv4Protocol}, svc.Spec.IPFamilies)
	assert.Equal(t, ptrTo(IPFamilyPolicySingleStack), svc.Spec.IPFamilyPolicy)
	assert.Equal(t, ServiceExternalTrafficPolicyLocal, svc.Spec.ExternalTrafficPolicy)
	assert.Equal(t, ptrTo(int32(10800)), svc.Spec.SessionAffinityConfig.ClientIP.TimeoutSeconds)
	assert.Equal(t, "203.0.113.10", svc.Status.LoadBalancer.Ingress[0].IP)

	var secret Secret
	runtimetest.DecodeFile(t, "kubectl-create-secret.yaml", &secret)
	assert.Equal(t, []byte("q"), secret.Data["p"], "data is base64 on the wire")

	var cm ConfigMap
	runtimetest.DecodeFile(t, "configmap-manifest.yaml", &cm)
	assert.Equal(t, ptrTo(true), cm.Immutable)
	assert.Equal(t, "color=blue\nsize=3\n", cm.Data["app.properties"])
	assert.Equal(t, []byte("\x89PNG\r\n\x1a\n"), cm.BinaryData["logo.png"])

	var ep Endpoints
	runtimetest.DecodeFile(t, "endpoints-live.json", &ep)
	require.Len(t, ep.Subsets, 1)
	assert.Equal(t, "web-6d4cf56db6-abcde", ep.Subsets[0].Addresses[0].TargetRef.Name)
	assert.Equal(t, ptrTo("node-3"), ep.Subsets[0].NotReadyAddresses[0].NodeName)
}

func TestSetDefaultsServicesAndConfig(t *testing.T) {
	var svc Service
	runtimetest.DecodeFile(t, "kubectl-create-service.yaml", &svc)
	SetDefaults(&svc)
	assert.Equal(t, ServiceAffinityNone, svc.Spec.SessionAffinity)
	assert.Nil(t, svc.Spec.SessionAffinityConfig)
	assert.Equal(t, ServiceExternalTrafficPolicyCluster, svc.Spec.ExternalTrafficPolicy, "a NodePort service is reachable from outside")
	assert.Equal(t, ptrTo(ServiceInternalTrafficPolicyCluster), svc.Spec.InternalTrafficPolicy)
	assert.Nil(t, svc.Spec.AllocateLoadBalancerNodePorts, "only for LoadBalancer")
	assert.Empty(t, svc.Spec.ClusterIP, "the cluster IP is allocated by the API server, not defaulted")

	tests := []struct {
		name string
		svc  Service
		want func(*testing.T, *Service)
	}{
		{name: "empty", svc: Service{Spec: ServiceSpec{Ports: []ServicePort{{Port: 80}}}}, want: func(t *testing.T, s *Service) {
			assert.Equal(t, ServiceTypeClusterIP, s.Spec.Type)
			assert.Equal(t, ProtocolTCP, s.Spec.Ports[0].Protocol)
			assert.Equal(t, intstr.FromInt32(80), s.Spec.Ports[0].TargetPort, "targetPort defaults to port")
			assert.Empty(t, s.Spec.ExternalTrafficPolicy, "a ClusterIP service is internal")
		}},
		{name: "client ip affinity", svc: Service{Spec: ServiceSpec{SessionAffinity: ServiceAffinityClientIP}}, want: func(t *testing.T, s *Service) {
			assert.Equal(t, ptrTo(DefaultClientIPServiceAffinitySeconds), s.Spec.SessionAffinityConfig.ClientIP.TimeoutSeconds)
		}},
		{name: "load balancer", svc: Service{Spec: ServiceSpec{Type: ServiceTypeLoadBalancer}}, want: func(t *testing.T, s *Service) {
			assert.Equal(t, ptrTo(true), s.Spec.AllocateLoadBalancerNodePorts)
			assert.Equal(t, ServiceExternalTrafficPolicyCluster, s.Spec.ExternalTrafficPolicy)
		}},
		{name: "external name", svc: Service{Spec: ServiceSpec{Type: ServiceTypeExternalName}}, want: func(t *testing.T, s *Service) {
			assert.Nil(t, s.Spec.InternalTrafficPolicy)
		}},
		{name: "named target port kept", svc: Service{Spec: ServiceSpec{Ports: []ServicePort{{Port: 80, TargetPort: intstr.FromString("http")}}}}, want: func(t *testing.T, s *Service) {
			assert.Equal(t, intstr.FromString("http"), s.Spec.Ports[0].TargetPort)
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			SetDefaults(&tc.svc)
			tc.want(t, &tc.svc)
			again := *tc.svc.DeepCopy()
			SetDefaults(&again)
			assert.Equal(t, tc.svc, again, "SetDefaults is idempotent")
		})
	}

	var secret Secret
	runtimetest.DecodeFile(t, "secret-manifest.yaml", &secret)
	SetDefaults(&secret)
	assert.Equal(t, map[string][]byte{"username": []byte("admin"), "password": []byte("s3cr3t")}, secret.Data, "stringData merged into data")
	assert.Nil(t, secret.StringData, "stringData is never stored")
	assert.Equal(t, SecretTypeBasicAuth, secret.Type)
	opaque := Secret{StringData: map[string]string{"a": "1"}}
	SetDefaults(&opaque)
	assert.Equal(t, SecretTypeOpaque, opaque.Type)
	assert.Equal(t, map[string][]byte{"a": []byte("1")}, opaque.Data)
	overwrite := Secret{Data: map[string][]byte{"a": []byte("old")}, StringData: map[string]string{"a": "new"}}
	SetDefaults(&overwrite)
	assert.Equal(t, []byte("new"), overwrite.Data["a"], "stringData wins")

	ep := Endpoints{Subsets: []EndpointSubset{{Ports: []EndpointPort{{Port: 80}}}}}
	SetDefaults(&ep)
	assert.Equal(t, ProtocolTCP, ep.Subsets[0].Ports[0].Protocol)

	var live Service
	runtimetest.DecodeFile(t, "service-loadbalancer.json", &live)
	defaulted := *live.DeepCopy()
	SetDefaults(&defaulted)
	assert.Equal(t, live, defaulted, "a live service is already defaulted")
}
