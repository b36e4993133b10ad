//go:build solution

package readinessprobe

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

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/intstr"
	"github.com/minicp/minicp/kubelet"
)

// Check runs the probe target.Probe once against target.Container and
// returns nil when it passes, or an error saying why it failed.
func Check(ctx context.Context, target kubelet.ProbeTarget) error {
	p := target.Probe
	switch {
	case p.Exec != nil:
		res, err := target.Exec(ctx, p.Exec.Command)
		if err != nil {
			return fmt.Errorf("exec %q: %w", strings.Join(p.Exec.Command, " "), err)
		}
		if res.ExitCode == 0 {
			return nil
		}
		if out := strings.TrimSpace(string(res.Stdout) + string(res.Stderr)); out != "" {
			return errors.New(out)
		}
		return fmt.Errorf("command %q exited with %d", strings.Join(p.Exec.Command, " "), res.ExitCode)
	case p.HTTPGet != nil:
		return checkHTTP(ctx, target, p.HTTPGet)
	}
	return errors.New("unsupported probe: only exec and httpGet are")
}

// checkHTTP GETs the probe's URL: 2xx and 3xx pass, as upstream's
// prober says.
func checkHTTP(ctx context.Context, target kubelet.ProbeTarget, h *corev1.HTTPGetAction) error {
	port, err := resolvePort(h.Port, target.Container)
	if err != nil {
		return err
	}
	scheme := strings.ToLower(string(h.Scheme))
	if scheme == "" {
		scheme = "http"
	}
	host := h.Host
	if host == "" {
		host = target.PodIP
	}
	path := h.Path
	if !strings.HasPrefix(path, "/") {
		path = "/" + path
	}
	u := url.URL{Scheme: scheme, Host: net.JoinHostPort(host, strconv.Itoa(port)), Path: path}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return err
	}
	for _, hh := range h.HTTPHeaders {
		req.Header.Add(hh.Name, hh.Value)
	}
	resp, err := target.HTTPClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	// Drain a little, so the server sees the whole exchange.
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 10<<10))
	if resp.StatusCode >= 200 && resp.StatusCode < 400 {
		return nil
	}
	return fmt.Errorf("HTTP probe failed with statuscode: %d", resp.StatusCode)
}

// resolvePort is a probe's port: a number, or the name of a container
// port.
func resolvePort(p intstr.IntOrString, c *corev1.Container) (int, error) {
	if p.Type == intstr.Int {
		return int(p.IntVal), nil
	}
	for _, cp := range c.Ports {
		if cp.Name == p.StrVal {
			return int(cp.ContainerPort), nil
		}
	}
	return 0, fmt.Errorf("no port named %q in container %s", p.StrVal, c.Name)
}
