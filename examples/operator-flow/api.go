package main

import (
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/minicp/minicp/api/apierrors"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/kubelet/cri/simulated"
	"github.com/minicp/minicp/tracing"
)

// hopHTTP is the operator's span for one request to its HTTP API.
const hopHTTP = "operator.http"

// maxBody bounds a request's body: a Website's name and title.
const maxBody = 64 << 10

// api is the operator's HTTP API, the platform's front door: users ask
// for a Website without kubectl or credentials to the cluster, and the
// operator turns the request into a custom resource, acting as its own
// ServiceAccount.
//
//	POST /websites        {"name": "blog", "title": "My blog"} -> 201, the Website
//	GET  /websites/{name} -> 200, the Website and its status
//	GET  /healthz         -> 200
type api struct {
	c        *simulated.ContainerContext
	websites *client.Resource[*Website, *WebsiteList]
	tracer   trace.Tracer
}

// websiteView is what the API answers: the Website as the API server
// returned it, and which pod answered.
type websiteView struct {
	Name            string `json:"name"`
	Title           string `json:"title"`
	Phase           string `json:"phase,omitempty"`
	ConfigMap       string `json:"configMap,omitempty"`
	ResourceVersion string `json:"resourceVersion"`
	ServedBy        string `json:"servedBy"`
}

// newAPI returns the API's handler, for the pod of c, writing websites.
func newAPI(c *simulated.ContainerContext, websites *client.Resource[*Website, *WebsiteList], tracer trace.Tracer) http.Handler {
	a := &api{c: c, websites: websites, tracer: tracer}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /websites", a.create)
	mux.HandleFunc("GET /websites/{name}", a.get)
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "ok\n") })
	return a.traced(mux)
}

// traced makes each request a span of the caller's trace (its
// traceparent header, which kube-proxy passes on untouched since it
// copies bytes), with the TCP peers as the pod saw them. The API
// requests the handler makes carry the span on.
func (a *api) traced(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := propagation.TraceContext{}.Extract(r.Context(), propagation.HeaderCarrier(r.Header))
		attrs := []attribute.KeyValue{
			attribute.String("method", r.Method), attribute.String("path", r.URL.Path),
			attribute.String("peer", r.RemoteAddr), attribute.String("pod", a.c.PodName),
		}
		if local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok {
			attrs = append(attrs, attribute.String("local", local.String()))
		}
		ctx, span := a.tracer.Start(ctx, hopHTTP, trace.WithSpanKind(trace.SpanKindServer), trace.WithAttributes(attrs...))
		defer span.End()
		rec := &codeRecorder{ResponseWriter: w, code: http.StatusOK}
		h.ServeHTTP(rec, r.WithContext(ctx))
		span.SetAttributes(tracing.KeyCode.Int(rec.code))
	})
}

func (a *api) create(w http.ResponseWriter, r *http.Request) {
	var in struct{ Name, Title string }
	if err := json.NewDecoder(io.LimitReader(r.Body, maxBody)).Decode(&in); err != nil || in.Name == "" || in.Title == "" {
		http.Error(w, `want {"name": ..., "title": ...}`, http.StatusBadRequest)
		return
	}
	site, err := a.websites.Create(r.Context(), &Website{
		ObjectMeta: metav1.ObjectMeta{Name: in.Name}, Spec: WebsiteSpec{Title: in.Title},
	}, client.WriteOptions{})
	if err != nil {
		a.fail(w, err)
		return
	}
	a.c.Logger.Info("website created", "name", site.Name, "rv", site.ResourceVersion)
	a.reply(w, http.StatusCreated, site)
}

func (a *api) get(w http.ResponseWriter, r *http.Request) {
	site, err := a.websites.Get(r.Context(), r.PathValue("name"), client.GetOptions{})
	if err != nil {
		a.fail(w, err)
		return
	}
	a.reply(w, http.StatusOK, site)
}

func (a *api) reply(w http.ResponseWriter, code int, site *Website) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(websiteView{
		Name: site.Name, Title: site.Spec.Title, Phase: site.Status.Phase, ConfigMap: site.Status.ConfigMap,
		ResourceVersion: site.ResourceVersion, ServedBy: a.c.PodName,
	})
}

// fail answers with the API server's code and message (409 for a name
// taken, 403 when RBAC refuses), and 502 when it could not be reached.
func (a *api) fail(w http.ResponseWriter, err error) {
	code := http.StatusBadGateway
	if se := (*apierrors.StatusError)(nil); errors.As(err, &se) && se.ErrStatus.Code != 0 {
		code = int(se.ErrStatus.Code)
	}
	http.Error(w, err.Error(), code)
}

// codeRecorder keeps the response's status code.
type codeRecorder struct {
	http.ResponseWriter
	code int
}

func (c *codeRecorder) WriteHeader(code int) {
	c.code = code
	c.ResponseWriter.WriteHeader(code)
}
