package webview

import (
	"cmp"
	"net/http"
	"slices"

	corev1 "github.com/minicp/minicp/api/core/v1"
)

// clusterView is the body of GET /api/cluster: the nodes with the pods
// bound to each, and the pods no node runs yet.
type clusterView struct {
	Tracing bool       `json:"tracing"`
	Nodes   []nodeView `json:"nodes"`
	Pending []podView  `json:"pending"`
}

type nodeView struct {
	Name  string    `json:"name"`
	Ready bool      `json:"ready"`
	Pods  []podView `json:"pods"`
}

type podView struct {
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	Phase     string `json:"phase"`
	IP        string `json:"ip"`
	Node      string `json:"node,omitempty"`
}

// serveCluster serves GET /api/cluster from the informers.
func (s *Server) serveCluster(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, s.clusterView())
}

func (s *Server) clusterView() clusterView {
	v := clusterView{Tracing: s.tracing != nil, Nodes: []nodeView{}, Pending: []podView{}}
	byNode := map[string]int{}
	if inf := s.kinds.informer(nodesGVR); inf != nil {
		for _, obj := range inf.Indexer().List() {
			n, ok := obj.(*corev1.Node)
			if !ok {
				continue
			}
			v.Nodes = append(v.Nodes, nodeView{Name: n.Name, Ready: nodeReady(n), Pods: []podView{}})
		}
	}
	slices.SortFunc(v.Nodes, func(a, b nodeView) int { return cmp.Compare(a.Name, b.Name) })
	for i, n := range v.Nodes {
		byNode[n.Name] = i
	}
	if inf := s.kinds.informer(podsGVR); inf != nil {
		for _, obj := range inf.Indexer().List() {
			p, ok := obj.(*corev1.Pod)
			if !ok {
				continue
			}
			pv := podView{Namespace: p.Namespace, Name: p.Name, Phase: string(p.Status.Phase), IP: p.Status.PodIP, Node: p.Spec.NodeName}
			if p.DeletionTimestamp != nil {
				pv.Phase = "Terminating"
			}
			if i, ok := byNode[p.Spec.NodeName]; ok {
				v.Nodes[i].Pods = append(v.Nodes[i].Pods, pv)
			} else {
				v.Pending = append(v.Pending, pv)
			}
		}
	}
	byName := func(a, b podView) int {
		return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
	}
	for _, n := range v.Nodes {
		slices.SortFunc(n.Pods, byName)
	}
	slices.SortFunc(v.Pending, byName)
	return v
}

// nodeReady reports whether n's Ready condition is True.
func nodeReady(n *corev1.Node) bool {
	for _, c := range n.Status.Conditions {
		if c.Type == corev1.NodeReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// serveObjects serves GET /api/objects: every listed kind with its
// objects' count and names.
func (s *Server) serveObjects(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, map[string]any{"kinds": s.kinds.summaries()})
}
