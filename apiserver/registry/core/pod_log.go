package core

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/registry"
	"github.com/minicp/minicp/apiserver/request"
	"github.com/minicp/minicp/apiserver/responsewriters"
)

// podsLog is the resource errors about pods/log name.
var podsLog = runtime.GroupResource{Resource: "pods/log"}

// kubeletDialTimeout bounds connecting to a kubelet. Kubelets run on the
// API server's own machine (see PodLog), so a connection that takes longer
// than this is not coming.
const kubeletDialTimeout = 5 * time.Second

// maxKubeletErrorBytes bounds how much of a kubelet's error answer is
// read into the Status message: the kubelet writes one line.
const maxKubeletErrorBytes = 4 << 10

// NewKubeletTransport returns the transport NewPodLog uses when given none:
// plain HTTP, no proxy, and no keep-alive, so that no idle connection (and
// the goroutines net/http keeps for it) outlives the request that opened
// it. Log requests are rare, and a stopped kubelet's port is not dialled
// again.
func NewKubeletTransport() *http.Transport {
	return &http.Transport{
		DialContext:       (&net.Dialer{Timeout: kubeletDialTimeout}).DialContext,
		DisableKeepAlives: true,
		// The kubelet's answer is a stream of text: do not ask for gzip,
		// which would hold lines back until a compressed block fills.
		DisableCompression: true,
	}
}

// PodLog serves GET pods/{name}/log, what `kubectl logs [-f]` reads: it
// finds the pod's node, asks that node's kubelet for the container's log,
// and streams the answer to the client as it comes, flushing after each
// chunk so that a followed log shows each line as the container writes it.
// A WebSocket request is upgraded and gets the log as messages (see
// streamWebSocket), as kube-apiserver serves `kubectl logs` to browsers
// and to the conformance suite.
//
// The kubelet is reached at the node's status.addresses (InternalIP, else
// ExternalIP) and status.daemonEndpoints.kubeletEndpoint.Port, over plain
// HTTP; minicp's simulated kubelets report InternalIP 127.0.0.1 and the
// port their log server got from the kernel, so the API server must run on
// the same machine as the kubelets it serves logs of. Upstream speaks
// HTTPS to port 10250 with a client certificate.
//
// Errors are Status objects: a missing pod is 404; a pod with no node, a
// container name missing or unknown, 400 (in upstream's words); bad
// options, 422; the kubelet's own 400 and 404 answers keep their code and
// message; a kubelet that cannot be reached is a 500. It is safe for
// concurrent use.
//
// Upstream: k8s.io/kubernetes/pkg/registry/core/pod/rest (LogREST) and
// k8s.io/kubernetes/pkg/registry/core/pod (LogLocation).
type PodLog struct {
	pods, nodes *registry.Store
	client      *http.Client
}

// NewPodLog returns the pods/log handler over the pods' and nodes'
// stores. transport reaches the kubelets; nil means NewKubeletTransport().
func NewPodLog(pods, nodes *registry.Store, transport http.RoundTripper) *PodLog {
	if transport == nil {
		transport = NewKubeletTransport()
	}
	return &PodLog{pods: pods, nodes: nodes, client: &http.Client{Transport: transport}}
}

// ServeHTTP serves one pods/log request; the request-info filter must
// have run.
func (l *PodLog) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	info, ok := request.RequestInfoFrom(r.Context())
	if !ok || info.Name == "" {
		responsewriters.WriteError(w, r, apierrors.NewNotFound(runtime.GroupResource{Resource: "pods"}, ""))
		return
	}
	if err := l.serve(w, r, info.Namespace, info.Name); err != nil {
		responsewriters.WriteError(w, r, err)
	}
}

// serve streams the log, or returns the error to answer with before
// anything was written.
func (l *PodLog) serve(w http.ResponseWriter, r *http.Request, ns, name string) error {
	opts, err := parsePodLogOptions(r.URL.Query(), name)
	if err != nil {
		return err
	}
	obj, err := l.pods.Get(r.Context(), ns, name)
	if err != nil {
		return err
	}
	pod := obj.(*corev1.Pod)
	container, err := logContainer(pod, opts.Get("container"))
	if err != nil {
		return err
	}
	if pod.Spec.NodeName == "" {
		return apierrors.NewBadRequest(fmt.Sprintf("pod %s does not have a host assigned", name))
	}
	host, err := kubeletHost(r, l.nodes, pod.Spec.NodeName)
	if err != nil {
		return err
	}
	opts.Del("container")
	loc := url.URL{
		Scheme:   "http",
		Host:     host,
		Path:     fmt.Sprintf("/containerLogs/%s/%s/%s", pod.Namespace, pod.Name, container),
		RawQuery: opts.Encode(),
	}
	// The kubelet request ends with the client's: its request's context,
	// or for a WebSocket (whose connection the server no longer watches
	// once hijacked) the socket's closing, which cancels ctx.
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, loc.String(), nil)
	if err != nil {
		return apierrors.NewInternalError(err)
	}
	resp, err := l.client.Do(req)
	if err != nil {
		return apierrors.NewInternalError(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return kubeletError(resp, name)
	}
	// As upstream, the kubelet is asked first, so that its errors are
	// answered as Status objects, and only then is a WebSocket upgraded.
	if isWebSocketRequest(r) {
		streamWebSocket(w, r, resp.Body, cancel)
		return nil
	}
	w.Header().Set("Content-Type", "text/plain")
	w.WriteHeader(http.StatusOK)
	streamFlushing(w, resp.Body)
	return nil
}

// kubeletHost returns host:port of the node's kubelet.
func kubeletHost(r *http.Request, nodes *registry.Store, nodeName string) (string, error) {
	obj, err := nodes.Get(r.Context(), "", nodeName)
	if err != nil {
		return "", err
	}
	node := obj.(*corev1.Node)
	port := node.Status.DaemonEndpoints.KubeletEndpoint.Port
	if port <= 0 {
		return "", apierrors.NewInternalError(fmt.Errorf("node %s reports no kubelet port", nodeName))
	}
	// Upstream's default preference is Hostname first; a simulated node's
	// hostname resolves to nothing, so minicp asks for its IPs only.
	for _, typ := range []corev1.NodeAddressType{corev1.NodeInternalIP, corev1.NodeExternalIP} {
		for _, a := range node.Status.Addresses {
			if a.Type == typ && a.Address != "" {
				return net.JoinHostPort(a.Address, strconv.Itoa(int(port))), nil
			}
		}
	}
	return "", apierrors.NewInternalError(fmt.Errorf("node %s has no InternalIP or ExternalIP address", nodeName))
}

// streamFlushing copies body to w, flushing after each chunk. A write
// error means the client went away; a read error, that the kubelet did:
// either way the stream just ends, as upstream's does.
func streamFlushing(w http.ResponseWriter, body io.Reader) {
	rc := http.NewResponseController(w)
	// 32 KiB is io.Copy's buffer, and what the kubelet writes at most at a
	// time.
	buf := make([]byte, 32<<10)
	for {
		n, err := body.Read(buf)
		if n > 0 {
			if _, werr := w.Write(buf[:n]); werr != nil {
				return
			}
			if ferr := rc.Flush(); ferr != nil && !errors.Is(ferr, http.ErrNotSupported) {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// kubeletError turns a kubelet's error answer into a Status, as upstream's
// GenericHttpResponseChecker does: 400 and 404 keep their code and carry
// the kubelet's message; anything else is an InternalError.
func kubeletError(resp *http.Response, name string) error {
	body, _ := io.ReadAll(io.LimitReader(resp.Body, maxKubeletErrorBytes))
	msg := strings.TrimSpace(string(body))
	switch resp.StatusCode {
	case http.StatusBadRequest:
		return apierrors.NewBadRequest(msg)
	case http.StatusNotFound:
		se := apierrors.NewNotFound(podsLog, name)
		se.ErrStatus.Message = msg
		return se
	}
	return apierrors.NewInternalError(fmt.Errorf("the kubelet answered %s: %s", resp.Status, msg))
}

// logContainer picks the container whose log is asked for: the one named,
// which must be in the pod, or the pod's only container.
//
// Upstream: k8s.io/kubernetes/pkg/registry/core/pod (validateContainer).
func logContainer(pod *corev1.Pod, name string) (string, error) {
	if name == "" {
		switch len(pod.Spec.Containers) {
		case 1:
			return pod.Spec.Containers[0].Name, nil
		case 0:
			return "", apierrors.NewBadRequest(fmt.Sprintf("a container name must be specified for pod %s", pod.Name))
		}
		var names []string
		for _, c := range pod.Spec.InitContainers {
			names = append(names, c.Name)
		}
		for _, c := range pod.Spec.Containers {
			names = append(names, c.Name)
		}
		return "", apierrors.NewBadRequest(fmt.Sprintf("a container name must be specified for pod %s, choose one of: %s", pod.Name, names))
	}
	for _, cs := range [][]corev1.Container{pod.Spec.InitContainers, pod.Spec.Containers} {
		for _, c := range cs {
			if c.Name == name {
				return name, nil
			}
		}
	}
	return "", apierrors.NewBadRequest(fmt.Sprintf("container %s is not valid for pod %s", name, pod.Name))
}

// parsePodLogOptions reads and checks the PodLogOptions of the query and
// returns them as the kubelet takes them: 400 for a value that does not
// parse, 422 for values that break PodLogOptions' rules.
//
// Upstream: k8s.io/kubernetes/pkg/apis/core/validation (ValidatePodLogOptions).
func parsePodLogOptions(q url.Values, name string) (url.Values, error) {
	out := url.Values{}
	for _, key := range []string{"follow", "previous", "timestamps", "insecureSkipTLSVerifyBackend"} {
		v := q.Get(key)
		if v == "" {
			continue
		}
		b, err := strconv.ParseBool(v)
		if err != nil {
			return nil, apierrors.NewBadRequest(fmt.Sprintf("%s: invalid boolean %q", key, v))
		}
		if b && key != "insecureSkipTLSVerifyBackend" {
			out.Set(key, "true")
		}
	}
	var errs apierrors.FieldErrors
	ints := map[string]int64{}
	for _, key := range []string{"tailLines", "sinceSeconds", "limitBytes"} {
		v := q.Get(key)
		if v == "" {
			continue
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return nil, apierrors.NewBadRequest(fmt.Sprintf("%s: invalid integer %q", key, v))
		}
		ints[key] = n
		out.Set(key, v)
	}
	if n, ok := ints["tailLines"]; ok && n < 0 {
		errs = append(errs, apierrors.Invalid("tailLines", n, "must be greater than or equal to 0"))
	}
	if n, ok := ints["limitBytes"]; ok && n < 1 {
		errs = append(errs, apierrors.Invalid("limitBytes", n, "must be greater than 0"))
	}
	if n, ok := ints["sinceSeconds"]; ok && n < 1 {
		errs = append(errs, apierrors.Invalid("sinceSeconds", n, "must be greater than 0"))
	}
	if v := q.Get("sinceTime"); v != "" {
		t, err := time.Parse(time.RFC3339, v)
		if err != nil {
			return nil, apierrors.NewBadRequest(fmt.Sprintf("sinceTime: invalid RFC 3339 time %q", v))
		}
		if _, ok := ints["sinceSeconds"]; ok {
			errs = append(errs, apierrors.Invalid("sinceSeconds", ints["sinceSeconds"], "at most one of `sinceTime` or `sinceSeconds` may be specified"))
		}
		out.Set("sinceTime", t.UTC().Format(time.RFC3339))
	}
	if v := q.Get("stream"); v != "" {
		switch v {
		case "All", "Stdout", "Stderr":
			out.Set("stream", v)
		default:
			errs = append(errs, apierrors.Invalid("stream", v, `supported values: "All", "Stderr", "Stdout"`))
		}
	}
	if len(errs) > 0 {
		return nil, apierrors.NewInvalid(runtime.GroupVersionKind{Version: "v1", Kind: "PodLogOptions"}, name, errs)
	}
	if c := q.Get("container"); c != "" {
		out.Set("container", c)
	}
	return out, nil
}
