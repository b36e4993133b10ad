package dns_test

import (
	"net/netip"
	"slices"
	"testing"
	"time"

	miekgdns "github.com/miekg/dns"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	discoveryv1 "github.com/minicp/minicp/api/discovery/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	rbacv1 "github.com/minicp/minicp/api/rbac/v1"
	"github.com/minicp/minicp/apiserver/apiservertest"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/proxy/dns"
	"github.com/minicp/minicp/wait/waittest"
)

// newServer writes the objects of a small cluster, then starts a DNS
// server on a free port of 127.0.0.1 and waits until it serves them.
func newServer(t *testing.T) (*dns.Server, *client.Clientset) {
	t.Helper()
	cs := clustertest.InMemoryClientset(t, apiservertest.New(t))
	ctx := t.Context()
	services := cs.Services("default")
	_, err := services.Create(ctx, &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: "web"}, Spec: corev1.ServiceSpec{
		ClusterIP: "10.96.1.1", Selector: map[string]string{"app": "web"},
		Ports: []corev1.ServicePort{{Name: "http", Port: 80}}}}, client.WriteOptions{})
	require.NoError(t, err)
	_, err = services.Create(ctx, &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: "db"}, Spec: corev1.ServiceSpec{
		ClusterIP: corev1.ClusterIPNone, Selector: map[string]string{"app": "db"},
		Ports: []corev1.ServicePort{{Name: "pg", Port: 5432}}}}, client.WriteOptions{})
	require.NoError(t, err)
	_, err = services.Create(ctx, &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: "ext"}, Spec: corev1.ServiceSpec{
		Type: corev1.ServiceTypeExternalName, ExternalName: "example.com"}}, client.WriteOptions{})
	require.NoError(t, err)
	_, err = cs.EndpointSlices("default").Create(ctx, &discoveryv1.EndpointSlice{
		ObjectMeta:  metav1.ObjectMeta{Name: "db-abcde", Labels: map[string]string{discoveryv1.LabelServiceName: "db"}},
		AddressType: discoveryv1.AddressTypeIPv4,
		Ports:       []discoveryv1.EndpointPort{{Name: new("pg"), Port: new(int32(5432))}},
		Endpoints: []discoveryv1.Endpoint{
			{Addresses: []string{"10.244.0.11"}, Hostname: new("db-0"), Conditions: discoveryv1.EndpointConditions{Ready: new(true)}},
			{Addresses: []string{"10.244.0.12"}, Conditions: discoveryv1.EndpointConditions{Ready: new(true)}},
			{Addresses: []string{"10.244.0.13"}, Hostname: new("db-2"), Conditions: discoveryv1.EndpointConditions{Ready: new(false)}},
		},
	}, client.WriteOptions{})
	require.NoError(t, err)

	s, err := dns.New(dns.Options{Clientset: cs, ListenAddr: netip.MustParseAddrPort("127.0.0.1:0")})
	require.NoError(t, err)
	clustertest.Start(t, s)
	select {
	case <-s.Ready():
	case <-t.Context().Done():
	}
	return s, cs
}

// exchange sends one query over net ("udp" or "tcp").
func exchange(t *testing.T, s *dns.Server, network, name string, qtype uint16) *miekgdns.Msg {
	t.Helper()
	m := new(miekgdns.Msg)
	m.SetQuestion(name, qtype)
	c := &miekgdns.Client{Net: network, Timeout: 10 * time.Second}
	resp, _, err := c.ExchangeContext(t.Context(), m, s.Addr().String())
	require.NoError(t, err, "query %s", name)
	return resp
}

// rrs renders an answer section as "<type> <data>" strings, sorted.
func rrs(section []miekgdns.RR) []string {
	out := []string{}
	for _, rr := range section {
		h := rr.Header()
		out = append(out, miekgdns.TypeToString[h.Rrtype]+" "+h.Name+" "+rr.String()[len(h.String()):])
	}
	slices.Sort(out)
	return out
}

func TestRecords(t *testing.T) {
	s, _ := newServer(t)
	tests := []struct {
		name    string
		qname   string
		qtype   uint16
		rcode   int
		answer  []string
		extra   []string
		overTCP bool
	}{
		{name: "service A", qname: "web.default.svc.cluster.local.", qtype: miekgdns.TypeA,
			answer: []string{"A web.default.svc.cluster.local. 10.96.1.1"}},
		{name: "service A over TCP", qname: "web.default.svc.cluster.local.", qtype: miekgdns.TypeA, overTCP: true,
			answer: []string{"A web.default.svc.cluster.local. 10.96.1.1"}},
		{name: "case does not matter", qname: "WEB.Default.svc.cluster.local.", qtype: miekgdns.TypeA,
			answer: []string{"A web.default.svc.cluster.local. 10.96.1.1"}},
		{name: "service AAAA: the name exists, no record", qname: "web.default.svc.cluster.local.", qtype: miekgdns.TypeAAAA},
		{name: "service SRV", qname: "_http._tcp.web.default.svc.cluster.local.", qtype: miekgdns.TypeSRV,
			answer: []string{"SRV _http._tcp.web.default.svc.cluster.local. 0 100 80 web.default.svc.cluster.local."},
			extra:  []string{"A web.default.svc.cluster.local. 10.96.1.1"}},
		{name: "headless A: the ready endpoints", qname: "db.default.svc.cluster.local.", qtype: miekgdns.TypeA,
			answer: []string{"A db.default.svc.cluster.local. 10.244.0.11", "A db.default.svc.cluster.local. 10.244.0.12"}},
		{name: "headless SRV", qname: "_pg._tcp.db.default.svc.cluster.local.", qtype: miekgdns.TypeSRV,
			answer: []string{
				"SRV _pg._tcp.db.default.svc.cluster.local. 0 100 5432 10-244-0-12.db.default.svc.cluster.local.",
				"SRV _pg._tcp.db.default.svc.cluster.local. 0 100 5432 db-0.db.default.svc.cluster.local.",
			},
			extra: []string{"A 10-244-0-12.db.default.svc.cluster.local. 10.244.0.12", "A db-0.db.default.svc.cluster.local. 10.244.0.11"}},
		{name: "pod hostname under its subdomain", qname: "db-0.db.default.svc.cluster.local.", qtype: miekgdns.TypeA,
			answer: []string{"A db-0.db.default.svc.cluster.local. 10.244.0.11"}},
		{name: "an unready pod has no name", qname: "db-2.db.default.svc.cluster.local.", qtype: miekgdns.TypeA, rcode: miekgdns.RcodeNameError},
		{name: "pod record", qname: "10-244-0-99.default.pod.cluster.local.", qtype: miekgdns.TypeA,
			answer: []string{"A 10-244-0-99.default.pod.cluster.local. 10.244.0.99"}},
		{name: "ExternalName", qname: "ext.default.svc.cluster.local.", qtype: miekgdns.TypeA,
			answer: []string{"CNAME ext.default.svc.cluster.local. example.com."}},
		{name: "unknown service", qname: "nope.default.svc.cluster.local.", qtype: miekgdns.TypeA, rcode: miekgdns.RcodeNameError},
		{name: "unknown namespace", qname: "web.nope.svc.cluster.local.", qtype: miekgdns.TypeA, rcode: miekgdns.RcodeNameError},
		{name: "unknown port", qname: "_nope._tcp.web.default.svc.cluster.local.", qtype: miekgdns.TypeSRV, rcode: miekgdns.RcodeNameError},
		{name: "not a pod IP", qname: "x-y.default.pod.cluster.local.", qtype: miekgdns.TypeA, rcode: miekgdns.RcodeNameError},
		{name: "outside the cluster domain", qname: "example.com.", qtype: miekgdns.TypeA, rcode: miekgdns.RcodeRefused},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			network := "udp"
			if tc.overTCP {
				network = "tcp"
			}
			resp := exchange(t, s, network, tc.qname, tc.qtype)
			assert.Equal(t, miekgdns.RcodeToString[tc.rcode], miekgdns.RcodeToString[resp.Rcode], "rcode")
			want := tc.answer
			if want == nil {
				want = []string{}
			}
			assert.Equal(t, want, rrs(resp.Answer), "answer")
			if tc.extra != nil {
				assert.Equal(t, tc.extra, rrs(resp.Extra), "extra")
			}
			if tc.rcode == miekgdns.RcodeNameError {
				require.Len(t, resp.Ns, 1, "the SOA of a negative answer")
				assert.Equal(t, miekgdns.TypeSOA, resp.Ns[0].Header().Rrtype)
			}
		})
	}
}

// TestResolverSearchPath: a pod's resolver finds a Service by its short
// name in its own namespace, by name.namespace from anywhere, and by its
// full name; an unknown name is ErrNotFound.
func TestResolverSearchPath(t *testing.T) {
	s, _ := newServer(t)
	tests := []struct {
		ns, host string
		wantName string
		want     []string
	}{
		{ns: "default", host: "web", wantName: "web.default.svc.cluster.local.", want: []string{"10.96.1.1"}},
		{ns: "kube-system", host: "web.default", wantName: "web.default.svc.cluster.local.", want: []string{"10.96.1.1"}},
		{ns: "kube-system", host: "web.default.svc", wantName: "web.default.svc.cluster.local.", want: []string{"10.96.1.1"}},
		{ns: "kube-system", host: "web.default.svc.cluster.local", wantName: "web.default.svc.cluster.local.", want: []string{"10.96.1.1"}},
		{ns: "default", host: "db-0.db", wantName: "db-0.db.default.svc.cluster.local.", want: []string{"10.244.0.11"}},
		{ns: "default", host: "10.1.2.3", wantName: "10.1.2.3", want: []string{"10.1.2.3"}},
	}
	for _, tc := range tests {
		r := &dns.Resolver{Server: s.Addr(), Search: dns.SearchPath(tc.ns, s.Domain())}
		got, err := r.LookupHost(t.Context(), tc.host)
		require.NoError(t, err, "LookupHost(%q) from %s", tc.host, tc.ns)
		assert.Equal(t, tc.wantName, got.Name, "LookupHost(%q) from %s", tc.host, tc.ns)
		var addrs []string
		for _, a := range got.Addrs {
			addrs = append(addrs, a.String())
		}
		assert.Equal(t, tc.want, addrs, "LookupHost(%q) from %s", tc.host, tc.ns)
	}
	r := &dns.Resolver{Server: s.Addr(), Search: dns.SearchPath("default", s.Domain())}
	_, err := r.LookupHost(t.Context(), "nope")
	assert.ErrorIs(t, err, dns.ErrNotFound)
	_, err = r.LookupHost(t.Context(), "web.kube-system")
	assert.ErrorIs(t, err, dns.ErrNotFound, "web is not in kube-system")
}

// TestEnsureService: the kube-dns Service has upstream's address, ports
// and selector, and the proxy label; a second call changes nothing.
func TestEnsureService(t *testing.T) {
	cs := clustertest.InMemoryClientset(t, apiservertest.New(t))
	ctx, cancel := waittest.Context(t)
	defer cancel()
	require.NoError(t, dns.EnsureService(ctx, cs))
	require.NoError(t, dns.EnsureService(ctx, cs), "again")
	svc, err := cs.Services("kube-system").Get(ctx, dns.ServiceName, client.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, "10.96.0.10", svc.Spec.ClusterIP)
	assert.Equal(t, map[string]string{"k8s-app": "kube-dns"}, svc.Spec.Selector)
	require.Len(t, svc.Spec.Ports, 3)
	assert.Equal(t, corev1.ProtocolUDP, svc.Spec.Ports[0].Protocol)
	assert.Contains(t, svc.Labels, "service.kubernetes.io/service-proxy-name")
}

// TestEnsureRBAC: the coredns ServiceAccount is bound to system:coredns,
// which reads what the server answers from; a second call changes
// nothing.
func TestEnsureRBAC(t *testing.T) {
	cs := clustertest.InMemoryClientset(t, apiservertest.New(t))
	ctx, cancel := waittest.Context(t)
	defer cancel()
	require.NoError(t, dns.EnsureRBAC(ctx, cs))
	require.NoError(t, dns.EnsureRBAC(ctx, cs), "again")
	_, err := cs.ServiceAccounts("kube-system").Get(ctx, dns.ServiceAccountName, client.GetOptions{})
	require.NoError(t, err, "service account")
	bindings, err := client.NewResource[*rbacv1.ClusterRoleBinding, *rbacv1.ClusterRoleBindingList](cs.Client(),
		rbacv1.SchemeGroupVersion.WithResource("clusterrolebindings"))
	require.NoError(t, err)
	b, err := bindings.Get(ctx, dns.RoleName, client.GetOptions{})
	require.NoError(t, err, "binding")
	assert.Equal(t, dns.RoleName, b.RoleRef.Name)
	assert.Equal(t, []rbacv1.Subject{{Kind: "ServiceAccount", Name: "coredns", Namespace: "kube-system"}}, b.Subjects)
	roles, err := client.NewResource[*rbacv1.ClusterRole, *rbacv1.ClusterRoleList](cs.Client(),
		rbacv1.SchemeGroupVersion.WithResource("clusterroles"))
	require.NoError(t, err)
	r, err := roles.Get(ctx, dns.RoleName, client.GetOptions{})
	require.NoError(t, err, "role")
	require.Len(t, r.Rules, 2)
	assert.Equal(t, []string{"endpointslices"}, r.Rules[1].Resources)
}
