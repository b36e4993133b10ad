package metrics

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"

	corev1 "github.com/minicp/minicp/api/core/v1"
	statsv1alpha1 "github.com/minicp/minicp/api/stats/v1alpha1"
	"github.com/minicp/minicp/apiserver/registry/core"
)

// maxSummaryBytes bounds a kubelet's summary: a few hundred bytes a pod,
// and a node runs at most 110 pods by default.
const maxSummaryBytes = 8 << 20

// kubeletClient reads the kubelets' summaries.
type kubeletClient struct {
	client *http.Client
}

func newKubeletClient(transport http.RoundTripper) *kubeletClient {
	if transport == nil {
		transport = core.NewKubeletTransport()
	}
	return &kubeletClient{client: &http.Client{Transport: transport}}
}

// summary asks node's kubelet for its /stats/summary. The error is not a
// Status: a kubelet that cannot be asked leaves its node and pods out of
// the metrics, as metrics-server leaves out a node it failed to scrape.
func (c *kubeletClient) summary(ctx context.Context, node *corev1.Node) (*statsv1alpha1.Summary, error) {
	host, err := kubeletHost(node)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+host+"/stats/summary", nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("kubelet of node %s answered %s", node.Name, resp.Status)
	}
	var s statsv1alpha1.Summary
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxSummaryBytes)).Decode(&s); err != nil {
		return nil, fmt.Errorf("summary of node %s: %w", node.Name, err)
	}
	return &s, nil
}

// kubeletHost returns host:port of the node's kubelet: its InternalIP,
// else ExternalIP, and daemonEndpoints.kubeletEndpoint.Port, as pods/log
// reaches it.
func kubeletHost(node *corev1.Node) (string, error) {
	port := node.Status.DaemonEndpoints.KubeletEndpoint.Port
	if port <= 0 {
		return "", fmt.Errorf("node %s reports no kubelet port", node.Name)
	}
	for _, typ := range []corev1.NodeAddressType{corev1.NodeInternalIP, corev1.NodeExternalIP} {
		for _, a := range node.Status.Addresses {
			if a.Type == typ && a.Address != "" {
				return net.JoinHostPort(a.Address, strconv.Itoa(int(port))), nil
			}
		}
	}
	return "", fmt.Errorf("node %s has no InternalIP or ExternalIP address", node.Name)
}
