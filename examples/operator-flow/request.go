package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strings"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster"
	"github.com/minicp/minicp/proxy/dns"
	"github.com/minicp/minicp/tracing"
)

// The Website the outside client asks for.
const (
	siteName  = "blog"
	siteTitle = "My blog"
)

// hopClient is the outside client's span of one HTTP request: the root
// of the trace the operator's pod and the API server continue.
const hopClient = "client.request"

// result is what the outside client did and got.
type result struct {
	// fqdn is the name it looked up, and answer what cluster DNS said.
	fqdn   string
	answer dns.Answer
	// post created the Website; get read its status back.
	post, get exchange
}

// exchange is one HTTP request of the client, on a connection of its own.
type exchange struct {
	method, path string
	// local is the client's end of the TCP connection: the peer address
	// kube-proxy sees.
	local netip.AddrPort
	// span is the client's span of the request.
	span trace.SpanID
	code int
	view websiteView
}

// request plays the outside client: it resolves the operator's Service
// through cluster DNS, asks the operator's API (through the load
// balancer) for a Website, waits until the operator reports it Ready,
// and reads it back through the load balancer.
func request(ctx context.Context, c *cluster.Cluster, cl *client.Client, tr *tracing.Tracing, d *deployment) (*result, error) {
	res := &result{fqdn: serviceName + "." + namespace + ".svc.cluster.local."}
	r := &dns.Resolver{Server: d.dns}
	var err error
	if res.answer, err = r.LookupHost(ctx, res.fqdn); err != nil {
		return nil, err
	}
	tracer := tr.Tracer("client")
	body := fmt.Sprintf(`{"name":%q,"title":%q}`, siteName, siteTitle)
	if res.post, err = call(ctx, tracer, d.lb, http.MethodPost, "/websites", body); err != nil {
		return nil, err
	}
	if err := waitReady(ctx, cl, res.post.view.ResourceVersion); err != nil {
		return nil, err
	}
	if res.get, err = call(ctx, tracer, d.lb, http.MethodGet, "/websites/"+siteName, ""); err != nil {
		return nil, err
	}
	return res, nil
}

// call sends one request to the operator's API at lb on a new
// connection, as its own trace whose context travels in the traceparent
// header, and decodes the Website it answers.
func call(ctx context.Context, tracer trace.Tracer, lb netip.AddrPort, method, path, body string) (exchange, error) {
	ex := exchange{method: method, path: path}
	var dialer net.Dialer
	tr := &http.Transport{
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			conn, err := dialer.DialContext(ctx, network, addr)
			if err == nil {
				ex.local = conn.LocalAddr().(*net.TCPAddr).AddrPort()
			}
			return conn, err
		},
		// A new connection per request, so kube-proxy picks a pod for each.
		DisableKeepAlives: true,
	}
	defer tr.CloseIdleConnections()
	url := "http://" + lb.String() + path
	ctx, span := tracer.Start(ctx, hopClient, trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(attribute.String("method", method), attribute.String("url", url)))
	defer span.End()
	ex.span = span.SpanContext().SpanID()
	req, err := http.NewRequestWithContext(ctx, method, url, strings.NewReader(body))
	if err != nil {
		return ex, err
	}
	req.Header.Set("Content-Type", "application/json")
	propagation.TraceContext{}.Inject(ctx, propagation.HeaderCarrier(req.Header))
	resp, err := (&http.Client{Transport: tr}).Do(req)
	if err != nil {
		return ex, fmt.Errorf("%s %s: %w", method, url, err)
	}
	defer resp.Body.Close()
	ex.code = resp.StatusCode
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		return ex, fmt.Errorf("%s %s: %w", method, url, err)
	}
	if resp.StatusCode/100 != 2 {
		return ex, fmt.Errorf("%s %s: %s: %s", method, url, resp.Status, strings.TrimSpace(string(data)))
	}
	if err := json.Unmarshal(data, &ex.view); err != nil {
		return ex, fmt.Errorf("%s %s: %w", method, url, err)
	}
	return ex, nil
}

// waitReady watches the Website from rv until the operator reports it
// Ready, as a client waiting for its request to be done would.
func waitReady(ctx context.Context, cl *client.Client, rv string) error {
	websites, err := client.NewResource[*Website, *WebsiteList](cl, websitesGVR)
	if err != nil {
		return err
	}
	w, err := websites.Namespace(namespace).Watch(ctx, client.ListOptions{ResourceVersion: rv, FieldSelector: "metadata.name=" + siteName})
	if err != nil {
		return err
	}
	defer w.Stop()
	for {
		select {
		case ev, ok := <-w.ResultChan():
			if !ok {
				return fmt.Errorf("the watch of website %s ended before it was Ready", siteName)
			}
			if site, ok := ev.Object.(*Website); ok && site.Status.Phase == PhaseReady {
				return nil
			}
		case <-ctx.Done():
			return fmt.Errorf("waiting for website %s to be Ready: %w", siteName, ctx.Err())
		}
	}
}
