package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"strings"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/minicp/minicp/examples/internal/flowtrace"
	"github.com/minicp/minicp/proxy"
	"github.com/minicp/minicp/tracing"
)

// printFlow waits until every hop of the flow is among rec's spans (a
// span is kept when it ends, which may be a moment after the answer it
// led to), then prints them in the order the request took.
func printFlow(ctx context.Context, out io.Writer, rec *tracing.Recorder, d *deployment, res *result) error {
	var (
		h  *hops
		ix *index
	)
	for {
		changed := rec.Changed()
		var err error
		ix = newIndex(rec.Spans())
		if h, err = findHops(ix, d, res); err == nil {
			break
		} else if !errors.As(err, new(errMissing)) {
			return err
		}
		select {
		case <-changed:
		case <-ctx.Done():
			_, err := findHops(newIndex(rec.Spans()), d, res)
			return fmt.Errorf("waiting for the flow's spans: %w (%w)", ctx.Err(), err)
		}
	}
	p := &printer{out: out, d: d, ix: ix}
	p.apiProxy, _ = ix.last(tracing.HopProxyForward, "service", "default/kubernetes:https")
	p.flow(h, res)
	return p.err
}

// printer writes the flow, keeping the first write error.
type printer struct {
	out io.Writer
	d   *deployment
	ix  *index
	// apiProxy is a connection kube-proxy forwarded to the API server
	// for the kubernetes Service; nil when none is recorded.
	apiProxy sdktrace.ReadOnlySpan
	err      error
}

func (p *printer) line(format string, args ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.out, format+"\n", args...)
	}
}

// podAddr is how a pod's address (cluster IP and port) is shown: as the
// API knows it, then where it is served on this host.
func podAddr(s string) string {
	ap, err := netip.ParseAddrPort(s)
	if err != nil {
		return s
	}
	return fmt.Sprintf("%s (served at %s)", ap, proxy.LoopbackAddrPort(ap))
}

func (p *printer) flow(h *hops, res *result) {
	p.line("%s http://%s/websites {\"name\":%q,\"title\":%q} from outside the cluster, hop by hop\n",
		res.post.method, p.d.lb, siteName, siteTitle)
	p.line(" 1. DNS            %s asks cluster DNS at %s (the kube-dns Service, 10.96.0.10:53)", flowtrace.Attr(h.dns, "client"), flowtrace.Attr(h.dns, "server"))
	p.line("%sA %s? %s %s: the Service's ClusterIP", indent, flowtrace.Attr(h.dns, "question"), flowtrace.Attr(h.dns, "rcode"),
		strings.Join(attrList(h.dns, "answer"), " "))
	p.line(" 2. TCP            %s connects to %s, the Service's load balancer (status.loadBalancer.ingress):", res.post.local, p.d.lb)
	p.line("%sa ClusterIP is reachable from nodes and pods only; from outside, the load balancer is the way in", indent)
	p.proxyHop(" 3. kube-proxy    ", h.postProxy)
	p.httpHop(" 4. operator pod  ", h.postHTTP)
	p.apiHop(" 5. API server    ", h.create, true)
	p.line(" 6. watch          %s: rv=%s %s to %s watchers, among them the operator's informer",
		h.dispatch.Name(), flowtrace.Attr(h.dispatch, "rv"), flowtrace.Attr(h.dispatch, "type"), flowtrace.Attr(h.dispatch, "watchers"))
	p.line("%s%s of %s (the leader): %s %s rv=%s", indent, h.delta.Name(), flowtrace.Component(h.delta),
		flowtrace.Attr(h.delta, "informer"), flowtrace.Attr(h.delta, "type"), flowtrace.Attr(h.delta, "rv"))
	p.line(" 7. reconcile      %s/%s by %s, in pod %s", flowtrace.Attr(h.reconcile, "namespace"), flowtrace.Attr(h.reconcile, "name"),
		flowtrace.Component(h.reconcile), p.d.leader)
	for _, m := range h.marks {
		var kv []string
		for _, a := range m.Attributes() {
			kv = append(kv, string(a.Key)+"="+a.Value.Emit())
		}
		p.line("      %-13s %s", strings.TrimPrefix(m.Name(), "reconcile."), strings.Join(kv, " "))
	}
	p.line("      %-13s %s %s -> %s, %s rv=%s", "write", flowtrace.Attr(h.configMap, "method"), flowtrace.Attr(h.configMap, "path"),
		flowtrace.Attr(h.configMap, "code"), tracing.HopEtcdTxn, flowtrace.Attr(h.configMapTx, "rv"))
	p.line(" 8. status         %s %s -> %s, %s rv=%s", flowtrace.Attr(h.status, "method"), flowtrace.Attr(h.status, "path"),
		flowtrace.Attr(h.status, "code"), tracing.HopEtcdTxn, flowtrace.Attr(h.statusTx, "rv"))
	p.line(" 9. client reads   %s http://%s%s on a new connection from %s", res.get.method, p.d.lb, res.get.path, res.get.local)
	p.proxyHop("      kube-proxy  ", h.getProxy)
	p.httpHop("      pod         ", h.getHTTP)
	p.apiHop("      API server  ", h.read, false)
	p.line("      %-13s %d phase=%s configMap=%s resourceVersion=%s servedBy=%s", "answer", res.get.code,
		res.get.view.Phase, res.get.view.ConfigMap, res.get.view.ResourceVersion, res.get.view.ServedBy)
}

func (p *printer) proxyHop(label string, s sdktrace.ReadOnlySpan) {
	p.line("%s accepts %s on %s for service %s", label, flowtrace.Attr(s, "client"), flowtrace.Attr(s, "listener"), flowtrace.Attr(s, "service"))
	p.line("%sround robin over %s ready endpoints: %s, pod %s; dials it from %s", indent,
		flowtrace.Attr(s, "endpoints"), podAddr(flowtrace.Attr(s, "backend")), flowtrace.Attr(s, "pod"), flowtrace.Attr(s, "from"))
}

// indent lines up a hop's second line with its first.
const indent = "                   "

// attrList returns s's attribute key as a list of strings.
func attrList(s sdktrace.ReadOnlySpan, key string) []string {
	for _, kv := range s.Attributes() {
		if string(kv.Key) == key {
			return kv.Value.AsStringSlice()
		}
	}
	return nil
}

func (p *printer) httpHop(label string, s sdktrace.ReadOnlySpan) {
	p.line("%s %s receives %s %s from %s (at %s) -> %s", label, flowtrace.Attr(s, "pod"), flowtrace.Attr(s, "method"), flowtrace.Attr(s, "path"),
		flowtrace.Attr(s, "peer"), flowtrace.Attr(s, "local"), flowtrace.Attr(s, "code"))
}

// apiHop prints an API request and, when full, the hops inside the API
// server: the authorization, admission, validation and the etcd
// transaction with the resourceVersion it wrote.
func (p *printer) apiHop(label string, req sdktrace.ReadOnlySpan, full bool) {
	p.line("%s %s %s -> %s", label, flowtrace.Attr(req, "method"), flowtrace.Attr(req, "path"), flowtrace.Attr(req, "code"))
	if full && p.apiProxy != nil {
		p.line("      %-13s the pod's client: https://kubernetes.default.svc -> %s -> kube-proxy -> %s (endpointslice kubernetes)",
			"via", flowtrace.Attr(p.apiProxy, "listener"), flowtrace.Attr(p.apiProxy, "backend"))
	}
	p.sub(req, tracing.HopAuthn, "the pod's ServiceAccount token")
	if !full {
		return
	}
	p.sub(req, tracing.HopAuthz, "allowed")
	var mutating, validating []string
	for _, s := range p.ix.children[req.SpanContext().SpanID()] {
		switch s.Name() {
		case tracing.HopAdmissionMutating:
			mutating = append(mutating, flowtrace.Attr(s, "plugin"))
		case tracing.HopAdmissionValidating:
			validating = append(validating, flowtrace.Attr(s, "plugin"))
		}
	}
	p.line("      %-13s mutating: %s", "admission", strings.Join(mutating, ", "))
	p.line("      %-13s validating: %s", "", strings.Join(validating, ", "))
	p.sub(req, tracing.HopValidation, "the CRD's schema")
	p.sub(req, tracing.HopEtcdTxn, "")
}

// sub prints req's first child named hop with its attributes, and note.
func (p *printer) sub(req sdktrace.ReadOnlySpan, hop, note string) {
	s, err := p.ix.child(req, hop)
	if err != nil {
		return
	}
	var kv []string
	for _, a := range s.Attributes() {
		kv = append(kv, string(a.Key)+"="+a.Value.Emit())
	}
	if note != "" {
		kv = append(kv, "("+note+")")
	}
	p.line("      %-13s %s", hop, strings.Join(kv, " "))
}
