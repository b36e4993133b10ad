package validation

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/intstr"
	metav1 "github.com/minicp/minicp/api/meta/v1"
)

// validService is `kubectl expose deployment web --port=80` after
// defaulting and allocation.
func validService() *corev1.Service {
	svc := &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: corev1.ServiceSpec{
			Ports:      []corev1.ServicePort{{Port: 80}},
			Selector:   map[string]string{"app": "web"},
			ClusterIP:  "10.96.12.34",
			ClusterIPs: []string{"10.96.12.34"},
			IPFamilies: []corev1.IPFamily{corev1.IPv4Protocol}, IPFamilyPolicy: ptrTo(corev1.IPFamilyPolicySingleStack),
		},
	}
	corev1.SetDefaults(svc)
	return svc
}

func TestValidateService(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(*corev1.Service)
		want   []string
	}{
		{name: "valid", mutate: func(*corev1.Service) {}, want: []string{}},
		{name: "name starts with digit", mutate: func(s *corev1.Service) { s.Name = "1web" }, want: []string{"FieldValueInvalid metadata.name"}},
		{name: "no ports", mutate: func(s *corev1.Service) { s.Spec.Ports = nil }, want: []string{"FieldValueRequired spec.ports"}},
		{name: "headless without ports", mutate: func(s *corev1.Service) {
			s.Spec.Ports, s.Spec.ClusterIP, s.Spec.ClusterIPs = nil, "None", []string{"None"}
		}, want: []string{}},
		{name: "two unnamed ports", mutate: func(s *corev1.Service) {
			s.Spec.Ports = append(s.Spec.Ports, corev1.ServicePort{Port: 443, Protocol: corev1.ProtocolTCP, TargetPort: intstr.FromInt32(443)})
		}, want: []string{"FieldValueRequired spec.ports[0].name", "FieldValueRequired spec.ports[1].name"}},
		{name: "duplicate port", mutate: func(s *corev1.Service) {
			s.Spec.Ports[0].Name = "a"
			s.Spec.Ports = append(s.Spec.Ports, corev1.ServicePort{Name: "b", Port: 80, Protocol: corev1.ProtocolTCP, TargetPort: intstr.FromInt32(8080)})
		}, want: []string{"FieldValueDuplicate spec.ports[1]"}},
		{name: "same port udp", mutate: func(s *corev1.Service) {
			s.Spec.Ports[0].Name = "a"
			s.Spec.Ports = append(s.Spec.Ports, corev1.ServicePort{Name: "b", Port: 80, Protocol: corev1.ProtocolUDP, TargetPort: intstr.FromInt32(80)})
		}, want: []string{}},
		{name: "bad port", mutate: func(s *corev1.Service) { s.Spec.Ports[0].Port = 70000 }, want: []string{"FieldValueInvalid spec.ports[0].port"}},
		{name: "bad protocol", mutate: func(s *corev1.Service) { s.Spec.Ports[0].Protocol = "HTTP" }, want: []string{"FieldValueNotSupported spec.ports[0].protocol"}},
		{name: "bad target port name", mutate: func(s *corev1.Service) { s.Spec.Ports[0].TargetPort = intstr.FromString("Web_Port") },
			want: []string{"FieldValueInvalid spec.ports[0].targetPort"}},
		{name: "node port on cluster IP", mutate: func(s *corev1.Service) { s.Spec.Ports[0].NodePort = 30080 },
			want: []string{"FieldValueForbidden spec.ports[0].nodePort"}},
		{name: "unknown type", mutate: func(s *corev1.Service) { s.Spec.Type = "Ingress" }, want: []string{"FieldValueNotSupported spec.type"}},
		{name: "bad cluster IP", mutate: func(s *corev1.Service) { s.Spec.ClusterIP, s.Spec.ClusterIPs = "10.96.0.300", []string{"10.96.0.300"} },
			want: []string{"FieldValueInvalid spec.clusterIPs[0]"}},
		{name: "cluster IPs disagree", mutate: func(s *corev1.Service) { s.Spec.ClusterIPs = []string{"10.96.0.9"} },
			want: []string{"FieldValueInvalid spec.clusterIPs"}},
		{name: "headless node port", mutate: func(s *corev1.Service) {
			s.Spec.Type, s.Spec.ClusterIP, s.Spec.ClusterIPs = corev1.ServiceTypeNodePort, "None", []string{"None"}
			corev1.SetDefaults(s)
		}, want: []string{"FieldValueInvalid spec.clusterIPs[0]"}},
		{name: "external name", mutate: func(s *corev1.Service) {
			*s = corev1.Service{ObjectMeta: s.ObjectMeta, Spec: corev1.ServiceSpec{Type: corev1.ServiceTypeExternalName, ExternalName: "db.example.com."}}
			corev1.SetDefaults(s)
		}, want: []string{}},
		{name: "external name with IP", mutate: func(s *corev1.Service) {
			s.Spec.Type, s.Spec.ExternalName, s.Spec.InternalTrafficPolicy = corev1.ServiceTypeExternalName, "", nil
		}, want: []string{"FieldValueForbidden spec.clusterIPs", "FieldValueForbidden spec.ipFamilies", "FieldValueForbidden spec.ipFamilyPolicy", "FieldValueRequired spec.externalName"}},
		{name: "affinity config without client IP", mutate: func(s *corev1.Service) {
			s.Spec.SessionAffinityConfig = &corev1.SessionAffinityConfig{}
		}, want: []string{"FieldValueForbidden spec.sessionAffinityConfig"}},
		{name: "client IP timeout too long", mutate: func(s *corev1.Service) {
			s.Spec.SessionAffinity = corev1.ServiceAffinityClientIP
			s.Spec.SessionAffinityConfig = &corev1.SessionAffinityConfig{ClientIP: &corev1.ClientIPConfig{TimeoutSeconds: ptrTo(int32(86401))}}
		}, want: []string{"FieldValueInvalid spec.sessionAffinityConfig.clientIP.timeoutSeconds"}},
		{name: "external traffic policy on cluster IP", mutate: func(s *corev1.Service) { s.Spec.ExternalTrafficPolicy = corev1.ServiceExternalTrafficPolicyLocal },
			want: []string{"FieldValueInvalid spec.externalTrafficPolicy"}},
		{name: "load balancer on kubelet port", mutate: func(s *corev1.Service) {
			s.Spec.Type, s.Spec.Ports[0].Port = corev1.ServiceTypeLoadBalancer, 10250
			corev1.SetDefaults(s)
		}, want: []string{"FieldValueInvalid spec.ports[0]"}},
		{name: "local load balancer without health check port", mutate: func(s *corev1.Service) {
			s.Spec.Type, s.Spec.ExternalTrafficPolicy = corev1.ServiceTypeLoadBalancer, corev1.ServiceExternalTrafficPolicyLocal
			corev1.SetDefaults(s)
		}, want: []string{"FieldValueRequired spec.healthCheckNodePort"}},
		{name: "bad selector", mutate: func(s *corev1.Service) { s.Spec.Selector["bad key"] = "x" }, want: []string{"FieldValueInvalid spec.selector"}},
		{name: "ipv6 family for an ipv4 IP", mutate: func(s *corev1.Service) { s.Spec.IPFamilies = []corev1.IPFamily{corev1.IPv6Protocol} },
			want: []string{"FieldValueInvalid spec.clusterIPs[0]"}},
		{name: "external IP unspecified", mutate: func(s *corev1.Service) {
			s.Spec.ExternalIPs = []string{"0.0.0.0"}
			corev1.SetDefaults(s)
		}, want: []string{"FieldValueInvalid spec.externalIPs[0]"}},
		{name: "external IP needs a traffic policy", mutate: func(s *corev1.Service) { s.Spec.ExternalIPs = []string{"198.51.100.7"} },
			want: []string{"FieldValueRequired spec.externalTrafficPolicy"}},
	}
	for _, tc := range tests {
		svc := validService()
		tc.mutate(svc)
		got := ValidateService(svc)
		assert.Equal(t, tc.want, summary(got), "ValidateService(%s): %v", tc.name, got)
	}
	svc := validService()
	svc.Name = "1web"
	assert.EqualError(t, ValidateService(svc), `metadata.name: Invalid value: "1web": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`)
	svc = validService()
	svc.Spec.Ports[0].NodePort = 30080
	assert.EqualError(t, ValidateService(svc), "spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'")
}

func TestValidateServiceUpdate(t *testing.T) {
	stored := func() *corev1.Service {
		s := validService()
		s.UID, s.ResourceVersion, s.CreationTimestamp = "u", "3", metav1.NewTime(time.Unix(100, 0))
		return s
	}
	old, svc := stored(), stored()
	svc.Spec.Selector["tier"] = "fe"
	assert.Empty(t, ValidateServiceUpdate(svc, old))

	svc.Spec.ClusterIP, svc.Spec.ClusterIPs = "10.96.0.99", []string{"10.96.0.99"}
	assert.EqualError(t, ValidateServiceUpdate(svc, old), `spec.clusterIPs[0]: Invalid value: []string{"10.96.0.99"}: may not change once set`)

	svc = stored()
	svc.Spec.ClusterIP, svc.Spec.ClusterIPs = "", nil
	assert.Equal(t, []string{"FieldValueInvalid spec.clusterIPs[0]"}, summary(ValidateServiceUpdate(svc, old)))

	// Changing to ExternalName drops the IP.
	svc = stored()
	svc.Spec = corev1.ServiceSpec{Type: corev1.ServiceTypeExternalName, ExternalName: "db.example.com", SessionAffinity: corev1.ServiceAffinityNone}
	assert.Empty(t, ValidateServiceUpdate(svc, old))

	old, svc = stored(), stored()
	svc.Status.LoadBalancer.Ingress = []corev1.LoadBalancerIngress{{IP: "203.0.113.7"}, {Hostname: "1.2.3.4"}, {IP: "nope"}}
	assert.Equal(t, []string{"FieldValueInvalid status.loadBalancer.ingress[1].hostname", "FieldValueInvalid status.loadBalancer.ingress[2].ip"},
		summary(ValidateServiceStatusUpdate(svc, old)))
}

func TestValidateEndpoints(t *testing.T) {
	valid := func() *corev1.Endpoints {
		return &corev1.Endpoints{
			ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default"},
			Subsets: []corev1.EndpointSubset{{
				Addresses:         []corev1.EndpointAddress{{IP: "10.244.1.7", NodeName: ptrTo("node-1")}, {IP: "127.0.0.1"}},
				NotReadyAddresses: []corev1.EndpointAddress{{IP: "10.244.2.4", Hostname: "web-1"}},
				Ports:             []corev1.EndpointPort{{Name: "http", Port: 80, Protocol: corev1.ProtocolTCP}},
			}},
		}
	}
	tests := []struct {
		name   string
		mutate func(*corev1.Endpoints)
		want   []string
	}{
		{name: "valid", mutate: func(*corev1.Endpoints) {}, want: []string{}},
		{name: "no addresses", mutate: func(e *corev1.Endpoints) { e.Subsets[0].Addresses, e.Subsets[0].NotReadyAddresses = nil, nil },
			want: []string{"FieldValueRequired subsets[0]"}},
		{name: "bad ip", mutate: func(e *corev1.Endpoints) { e.Subsets[0].Addresses[0].IP = "10.244.1" },
			want: []string{"FieldValueInvalid subsets[0].addresses[0].ip"}},
		{name: "link local", mutate: func(e *corev1.Endpoints) { e.Subsets[0].Addresses[0].IP = "169.254.169.254" },
			want: []string{"FieldValueInvalid subsets[0].addresses[0].ip"}},
		{name: "bad hostname", mutate: func(e *corev1.Endpoints) { e.Subsets[0].NotReadyAddresses[0].Hostname = "web.1" },
			want: []string{"FieldValueInvalid subsets[0].notReadyAddresses[0].hostname"}},
		{name: "second port unnamed", mutate: func(e *corev1.Endpoints) {
			e.Subsets[0].Ports = append(e.Subsets[0].Ports, corev1.EndpointPort{Port: 443, Protocol: corev1.ProtocolTCP})
		}, want: []string{"FieldValueRequired subsets[0].ports[1].name"}},
		{name: "no protocol", mutate: func(e *corev1.Endpoints) { e.Subsets[0].Ports[0].Protocol = "" },
			want: []string{"FieldValueRequired subsets[0].ports[0].protocol"}},
	}
	for _, tc := range tests {
		ep := valid()
		tc.mutate(ep)
		got := ValidateEndpoints(ep)
		assert.Equal(t, tc.want, summary(got), "ValidateEndpoints(%s): %v", tc.name, got)
	}
}

func TestValidateConfigMapAndSecret(t *testing.T) {
	meta := metav1.ObjectMeta{Name: "cfg", Namespace: "default", UID: "u", ResourceVersion: "2"}
	cm := &corev1.ConfigMap{ObjectMeta: meta, Data: map[string]string{"a.txt": "x", "bad/key": "y"}, BinaryData: map[string][]byte{"a.txt": {1}}}
	assert.Equal(t, []string{"FieldValueInvalid data[a.txt]", "FieldValueInvalid data[bad/key]"}, summary(ValidateConfigMap(cm)))
	big := &corev1.ConfigMap{ObjectMeta: meta, Data: map[string]string{"big": strings.Repeat("x", corev1.MaxSecretSize+1)}}
	assert.Equal(t, []string{"FieldValueTooLong "}, summary(ValidateConfigMap(big)))

	old := &corev1.ConfigMap{ObjectMeta: meta, Immutable: ptrTo(true), Data: map[string]string{"a": "1"}}
	changed := &corev1.ConfigMap{ObjectMeta: meta, Data: map[string]string{"a": "2"}}
	assert.Equal(t, []string{"FieldValueForbidden immutable", "FieldValueForbidden data"}, summary(ValidateConfigMapUpdate(changed, old)))
	relabeled := old.DeepCopy()
	relabeled.Labels = map[string]string{"x": "y"}
	assert.Empty(t, ValidateConfigMapUpdate(relabeled, old), "metadata of an immutable ConfigMap may change")

	tests := []struct {
		name   string
		secret corev1.Secret
		want   []string
	}{
		{name: "opaque", secret: corev1.Secret{Type: corev1.SecretTypeOpaque, Data: map[string][]byte{"p": []byte("q")}}, want: []string{}},
		{name: "bad key", secret: corev1.Secret{Type: corev1.SecretTypeOpaque, Data: map[string][]byte{"..": nil}}, want: []string{"FieldValueInvalid data[..]"}},
		{name: "basic auth empty", secret: corev1.Secret{Type: corev1.SecretTypeBasicAuth}, want: []string{"FieldValueRequired data[username]", "FieldValueRequired data[password]"}},
		{name: "basic auth password only", secret: corev1.Secret{Type: corev1.SecretTypeBasicAuth, Data: map[string][]byte{"password": nil}}, want: []string{}},
		{name: "tls", secret: corev1.Secret{Type: corev1.SecretTypeTLS, Data: map[string][]byte{"tls.crt": []byte("c")}}, want: []string{"FieldValueRequired data[tls.key]"}},
		{name: "docker config", secret: corev1.Secret{Type: corev1.SecretTypeDockerConfigJSON, Data: map[string][]byte{".dockerconfigjson": []byte("{")}},
			want: []string{"FieldValueInvalid data[.dockerconfigjson]"}},
		{name: "token without account", secret: corev1.Secret{Type: corev1.SecretTypeServiceAccountToken},
			want: []string{"FieldValueRequired metadata.annotations[kubernetes.io/service-account.name]"}},
		{name: "ssh", secret: corev1.Secret{Type: corev1.SecretTypeSSHAuth}, want: []string{"FieldValueRequired data[ssh-privatekey]"}},
	}
	for _, tc := range tests {
		s := tc.secret
		s.ObjectMeta = meta
		got := ValidateSecret(&s)
		assert.Equal(t, tc.want, summary(got), "ValidateSecret(%s): %v", tc.name, got)
	}
	oldSecret := &corev1.Secret{ObjectMeta: meta, Type: corev1.SecretTypeOpaque, Immutable: ptrTo(true), Data: map[string][]byte{"a": []byte("1")}}
	newSecret := &corev1.Secret{ObjectMeta: meta, Type: corev1.SecretTypeTLS, Immutable: ptrTo(true), Data: map[string][]byte{"a": []byte("2")}}
	assert.Equal(t, []string{"FieldValueInvalid type", "FieldValueForbidden data", "FieldValueRequired data[tls.crt]", "FieldValueRequired data[tls.key]"},
		summary(ValidateSecretUpdate(newSecret, oldSecret)))

	sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "default", Namespace: "team"}}
	assert.Empty(t, ValidateServiceAccount(sa))
	sa.Namespace = ""
	assert.Equal(t, []string{"FieldValueRequired metadata.namespace"}, summary(ValidateServiceAccount(sa)))
}
