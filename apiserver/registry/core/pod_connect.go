package core

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/registry"
	"github.com/minicp/minicp/apiserver/request"
	"github.com/minicp/minicp/apiserver/responsewriters"
)

// PodConnect serves pods/exec, pods/attach and pods/portforward: the
// subresources that upgrade to a stream (WebSocket or SPDY) between the
// client and the pod's kubelet. It checks the request, finds the pod's
// kubelet as PodLog does, and relays the request there; the kubelet
// answers the upgrade and speaks the stream protocol, and from then on
// this handler only copies bytes both ways, as kube-apiserver's
// upgrade-aware proxy does. It ends when either side closes.
//
// Errors found here are Status objects (404 for a missing pod, 400 for a
// pod with no node, a finished pod, a bad container or no stream); a
// kubelet that refuses the upgrade has its answer turned into a Status
// too (its 400 and 404 keep their code). It is safe for concurrent use.
//
// Upstream: k8s.io/kubernetes/pkg/registry/core/pod/rest (ExecREST,
// AttachREST, PortForwardREST) over
// k8s.io/apimachinery/pkg/util/proxy (UpgradeAwareHandler).
type PodConnect struct {
	// subresource is exec, attach or portforward.
	subresource string
	pods, nodes *registry.Store
	dial        DialFunc
}

// NewPodConnect returns the handler of pods/{subresource} (exec, attach
// or portforward). dial reaches the kubelets; nil means a net.Dialer
// that gives up after kubeletDialTimeout.
func NewPodConnect(subresource string, pods, nodes *registry.Store, dial DialFunc) *PodConnect {
	if dial == nil {
		dial = (&net.Dialer{Timeout: kubeletDialTimeout}).DialContext
	}
	return &PodConnect{subresource: subresource, pods: pods, nodes: nodes, dial: dial}
}

// ServeHTTP serves one request; the request-info filter must have run.
func (c *PodConnect) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	info, ok := request.RequestInfoFrom(r.Context())
	if !ok || info.Name == "" {
		responsewriters.WriteError(w, r, apierrors.NewNotFound(runtime.GroupResource{Resource: "pods"}, ""))
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodPost {
		responsewriters.WriteError(w, r, methodNotSupported(r.Method))
		return
	}
	loc, err := c.location(r, info.Namespace, info.Name)
	if err != nil {
		responsewriters.WriteError(w, r, err)
		return
	}
	if err := proxyUpgrade(w, r, loc, c.dial, func(resp *http.Response) error {
		return kubeletUpgradeError(resp, c.subresource, info.Name)
	}); err != nil {
		responsewriters.WriteError(w, r, err)
	}
}

// location checks the request against the pod and returns the kubelet's
// URL for it.
//
// Upstream: k8s.io/kubernetes/pkg/registry/core/pod (ExecLocation,
// AttachLocation, PortForwardLocation, streamLocation).
func (c *PodConnect) location(r *http.Request, ns, name string) (*url.URL, error) {
	obj, err := c.pods.Get(r.Context(), ns, name)
	if err != nil {
		return nil, err
	}
	pod := obj.(*corev1.Pod)
	if pod.Spec.NodeName == "" {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("pod %s does not have a host assigned", name))
	}
	q := r.URL.Query()
	out := url.Values{}
	var path string
	switch c.subresource {
	case "portforward":
		path = fmt.Sprintf("/portForward/%s/%s", pod.Namespace, pod.Name)
		for _, p := range q["ports"] {
			out.Add("port", p)
		}
	default:
		if phase := pod.Status.Phase; phase == corev1.PodSucceeded || phase == corev1.PodFailed {
			verb := "exec into"
			if c.subresource == "attach" {
				verb = "attach to"
			}
			return nil, apierrors.NewBadRequest(fmt.Sprintf("cannot %s a container in a completed pod; current phase is %s", verb, phase))
		}
		container, err := logContainer(pod, q.Get("container"))
		if err != nil {
			return nil, err
		}
		path = fmt.Sprintf("/%s/%s/%s/%s", c.subresource, pod.Namespace, pod.Name, container)
		streams := 0
		for _, p := range [][2]string{{"stdin", "input"}, {"stdout", "output"}, {"stderr", "error"}, {"tty", "tty"}} {
			on, err := queryBool(q, p[0])
			if err != nil {
				return nil, err
			}
			if on {
				out.Set(p[1], "1")
				if p[0] != "tty" {
					streams++
				}
			}
		}
		if streams == 0 {
			return nil, apierrors.NewBadRequest("you must specify at least 1 of stdin, stdout, stderr")
		}
		if c.subresource == "exec" {
			if len(q["command"]) == 0 {
				return nil, apierrors.NewBadRequest("you must specify at least one command for the container")
			}
			out["command"] = q["command"]
		}
	}
	host, err := kubeletHost(r, c.nodes, pod.Spec.NodeName)
	if err != nil {
		return nil, err
	}
	return &url.URL{Scheme: "http", Host: host, Path: path, RawQuery: out.Encode()}, nil
}

// queryBool reads a boolean query parameter; absent is false.
func queryBool(q url.Values, key string) (bool, error) {
	v := q.Get(key)
	if v == "" {
		return false, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, apierrors.NewBadRequest(fmt.Sprintf("%s: invalid boolean %q", key, v))
	}
	return b, nil
}

// stripCredentials removes what authenticated the client to the API
// server: the kubelet or pod behind must not see the client's token.
func stripCredentials(h http.Header) {
	h.Del("Authorization")
	for k := range h {
		if strings.HasPrefix(k, "Impersonate-") {
			h.Del(k)
		}
	}
}

// kubeletUpgradeError turns a kubelet's refusal to upgrade into a
// Status: 400 and 404 keep their code, 403 (no protocol in common) is
// Forbidden, anything else an InternalError. The message is the
// kubelet's.
func kubeletUpgradeError(resp *http.Response, subresource, name string) error {
	body, _ := io.ReadAll(io.LimitReader(resp.Body, maxKubeletErrorBytes))
	msg := strings.TrimSpace(string(body))
	gr := runtime.GroupResource{Resource: "pods/" + subresource}
	switch resp.StatusCode {
	case http.StatusBadRequest:
		return apierrors.NewBadRequest(msg)
	case http.StatusNotFound:
		se := apierrors.NewNotFound(gr, name)
		se.ErrStatus.Message = msg
		return se
	case http.StatusForbidden:
		return apierrors.NewForbidden(gr, name, errors.New(msg))
	}
	return apierrors.NewInternalError(fmt.Errorf("the kubelet answered %s: %s", resp.Status, msg))
}

// methodNotSupported is upstream's 405 for a verb a resource does not
// serve.
func methodNotSupported(method string) error {
	se := apierrors.NewMethodNotSupported(runtime.GroupResource{}, method)
	se.ErrStatus.Message = "the server does not allow this method on the requested resource"
	return se
}
