package main

import (
	"bytes"
	"context"
	"embed"
	"fmt"
	"io"
	"maps"
	"net/netip"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"time"

	"sigs.k8s.io/yaml"

	apiextensionsv1 "github.com/minicp/minicp/api/apiextensions/v1"
	appsv1 "github.com/minicp/minicp/api/apps/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	rbacv1 "github.com/minicp/minicp/api/rbac/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster"
	"github.com/minicp/minicp/proxy"
)

//go:embed manifests
var manifests embed.FS

// serviceName is the operator's Service, and the name of its
// Deployment, ServiceAccount, Role and Lease.
const serviceName = "website-operator"

// leaderTimeout bounds the wait for an operator replica to lead, on the
// wall clock: the cluster runs on the real one.
const leaderTimeout = 20 * time.Second

// deployment is the operator as deployed: where its Service is served
// and which pods back it.
type deployment struct {
	clusterIP netip.Addr
	// lb is the Service's load balancer address and port, where the
	// outside client connects.
	lb netip.AddrPort
	// pods are the operator's pods, by name: their IPs and nodes.
	pods map[string]corev1.Pod
	// leader is the pod whose manager holds the Lease.
	leader string
	// dns is where cluster DNS listens.
	dns netip.AddrPort
}

// newClient returns an admin client of c whose scheme knows the Website
// types besides the built-in kinds.
func newClient(c *cluster.Cluster) (*client.Client, error) {
	scheme, err := client.NewScheme()
	if err != nil {
		return nil, err
	}
	if err := AddToScheme(scheme); err != nil {
		return nil, err
	}
	return client.New(client.Config{Host: c.URL(), CAData: c.CACertificate(), BearerToken: c.Token(), Scheme: scheme})
}

// deploy installs the Website CRD and the operator (manifests/), and
// returns once both replicas are behind the load balancer and one of
// them leads with its caches synced.
func deploy(ctx context.Context, c *cluster.Cluster, cl *client.Client, out io.Writer, leaderCh <-chan string) (*deployment, error) {
	fmt.Fprintln(out, "setup: kubectl apply -f website-crd.yaml -f operator.yaml")
	crd := &apiextensionsv1.CustomResourceDefinition{}
	if err := readManifest("manifests/website-crd.yaml", crd); err != nil {
		return nil, err
	}
	if _, err := cluster.InstallCRDs(ctx, cl, []*apiextensionsv1.CustomResourceDefinition{crd}); err != nil {
		return nil, err
	}
	fmt.Fprintf(out, "  customresourcedefinition %s established\n", crd.Name)
	if err := applyOperator(ctx, cl); err != nil {
		return nil, err
	}
	fmt.Fprintf(out, "  serviceaccount, clusterrole, clusterrolebinding %s; deployment %s (2 replicas of %s); service %s (LoadBalancer)\n",
		serviceName, serviceName, operatorImage, serviceName)

	if err := waitBackends(ctx, c.ServiceProxy(), 2); err != nil {
		return nil, err
	}
	cs, err := client.NewClientset(cl)
	if err != nil {
		return nil, err
	}
	svc, err := cs.Services(namespace).Get(ctx, serviceName, client.GetOptions{})
	if err != nil {
		return nil, err
	}
	d := &deployment{pods: map[string]corev1.Pod{}, dns: c.DNSAddr()}
	d.clusterIP, _ = netip.ParseAddr(svc.Spec.ClusterIP)
	if len(svc.Status.LoadBalancer.Ingress) == 0 {
		return nil, fmt.Errorf("service %s has no load balancer ingress", serviceName)
	}
	lbIP, err := netip.ParseAddr(svc.Status.LoadBalancer.Ingress[0].IP)
	if err != nil {
		return nil, fmt.Errorf("service %s: ingress: %w", serviceName, err)
	}
	d.lb = netip.AddrPortFrom(lbIP, uint16(svc.Spec.Ports[0].Port))
	fmt.Fprintf(out, "  service %s: ClusterIP %s:%d, load balancer %s (status.loadBalancer.ingress), node port 127.0.0.1:%d\n",
		serviceName, d.clusterIP, svc.Spec.Ports[0].Port, d.lb, svc.Spec.Ports[0].NodePort)

	pods, err := cs.Pods(namespace).List(ctx, client.ListOptions{LabelSelector: "app=" + serviceName})
	if err != nil {
		return nil, err
	}
	for _, p := range pods.Items {
		d.pods[p.Name] = p
	}
	for _, name := range slices.Sorted(maps.Keys(d.pods)) {
		p := d.pods[name]
		fmt.Fprintf(out, "  pod %s: %s on %s, as serviceaccount %s, its token mounted\n", p.Name, p.Status.PodIP, p.Spec.NodeName, p.Spec.ServiceAccountName)
	}
	// A leader comes in milliseconds; past leaderTimeout something is
	// wrong, and the operator's logs say what while the cluster still runs.
	leaderCtx, cancel := context.WithTimeout(ctx, leaderTimeout)
	defer cancel()
	select {
	case d.leader = <-leaderCh:
	case <-leaderCtx.Done():
		return nil, fmt.Errorf("waiting for a leader: %w\n%s", leaderCtx.Err(), podLogs(ctx, cs, d.pods))
	}
	fmt.Fprintf(out, "  lease %s/%s held by %s: its controller watches websites and configmaps\n\n", namespace, leaseName, d.leader)
	return d, nil
}

// applyOperator creates the objects of manifests/operator.yaml, in order.
func applyOperator(ctx context.Context, cl *client.Client) error {
	data, err := manifests.ReadFile("manifests/operator.yaml")
	if err != nil {
		return err
	}
	for doc := range bytes.SplitSeq(data, []byte("\n---\n")) {
		var head metav1.TypeMeta
		if err := yaml.Unmarshal(doc, &head); err != nil {
			return fmt.Errorf("operator.yaml: %w", err)
		}
		switch head.Kind {
		case "ServiceAccount":
			err = create[*corev1.ServiceAccount, *corev1.ServiceAccountList](ctx, cl, corev1.SchemeGroupVersion.WithResource("serviceaccounts"), doc)
		case "ClusterRole":
			err = create[*rbacv1.ClusterRole, *rbacv1.ClusterRoleList](ctx, cl, rbacv1.SchemeGroupVersion.WithResource("clusterroles"), doc)
		case "ClusterRoleBinding":
			err = create[*rbacv1.ClusterRoleBinding, *rbacv1.ClusterRoleBindingList](ctx, cl, rbacv1.SchemeGroupVersion.WithResource("clusterrolebindings"), doc)
		case "Deployment":
			err = create[*appsv1.Deployment, *appsv1.DeploymentList](ctx, cl, appsv1.SchemeGroupVersion.WithResource("deployments"), doc)
		case "Service":
			err = create[*corev1.Service, *corev1.ServiceList](ctx, cl, corev1.SchemeGroupVersion.WithResource("services"), doc)
		default:
			err = fmt.Errorf("operator.yaml: unexpected kind %q", head.Kind)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// create decodes doc into a T and creates it, in namespace when it is
// namespaced.
func create[T metav1.Object, L metav1.ListInterface](ctx context.Context, cl *client.Client, gvr runtime.GroupVersionResource, doc []byte) error {
	res, err := client.NewResource[T, L](cl, gvr)
	if err != nil {
		return err
	}
	obj := reflect.New(reflect.TypeFor[T]().Elem()).Interface().(T)
	if err := yaml.Unmarshal(doc, obj); err != nil {
		return fmt.Errorf("operator.yaml: %s: %w", gvr.Resource, err)
	}
	if res.Info().Namespaced {
		res = res.Namespace(namespace)
	}
	if _, err := res.Create(ctx, obj, client.WriteOptions{}); err != nil {
		return fmt.Errorf("create %s: %w", gvr.Resource, err)
	}
	return nil
}

// bindTimeout bounds the wait for kube-proxy to listen on the fixed
// loopback addresses of the Services when another cluster on this host
// holds them: the proxy tries again at each resync (30s).
const bindTimeout = 75 * time.Second

// waitBackends waits until kube-proxy forwards the Service's load
// balancer to n ready pods (their EndpointSlice is ready, and the proxy
// has synced it), and listens on its addresses and on the kubernetes
// Service's, through which the operator reaches the API server. These
// are fixed loopback addresses, which another cluster with its Service
// network on this host may hold for a while: past bindTimeout it fails.
func waitBackends(ctx context.Context, p *proxy.Proxier, n int) error {
	var bindCtx context.Context
	for {
		changed := p.Changed()
		var op, api *proxy.PortStatus
		status := p.Status()
		for i, st := range status {
			switch st.Service {
			case namespace + "/" + serviceName:
				op = &status[i]
			case "default/kubernetes":
				api = &status[i]
			}
		}
		ready := op != nil && op.ExternalEndpoints == n
		// ClusterIP, node port and load balancer; the kubernetes
		// Service's ClusterIP.
		if ready && len(op.Listening) >= 3 && api != nil && len(api.Listening) > 0 {
			return nil
		}
		if ready && bindCtx == nil {
			var cancel context.CancelFunc
			bindCtx, cancel = context.WithTimeout(ctx, bindTimeout)
			defer cancel()
		}
		done := ctx.Done()
		if bindCtx != nil {
			done = bindCtx.Done()
		}
		select {
		case <-changed:
		case <-done:
			if bindCtx != nil && ctx.Err() == nil {
				return fmt.Errorf("kube-proxy cannot listen on the addresses of service %s or kubernetes "+
					"(is another minicp cluster with its Service network running on this host?)", serviceName)
			}
			return fmt.Errorf("waiting for %d ready pods behind service %s: %w", n, serviceName, ctx.Err())
		}
	}
}

// readManifest decodes an embedded manifest into obj.
func readManifest(name string, obj any) error {
	data, err := manifests.ReadFile(name)
	if err != nil {
		return err
	}
	if err := yaml.Unmarshal(data, obj); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// podLogs returns the end of the operator pods' logs (kubectl logs),
// what to look at when the operator does not come up.
func podLogs(ctx context.Context, cs *client.Clientset, pods map[string]corev1.Pod) string {
	var b strings.Builder
	for _, name := range slices.Sorted(maps.Keys(pods)) {
		rc, err := cs.Pods(namespace).Stream(ctx, name, "log", url.Values{"tailLines": {"20"}})
		if err != nil {
			fmt.Fprintf(&b, "logs of %s: %v\n", name, err)
			continue
		}
		data, _ := io.ReadAll(io.LimitReader(rc, 64<<10))
		rc.Close()
		fmt.Fprintf(&b, "logs of %s:\n%s", name, data)
	}
	return b.String()
}
