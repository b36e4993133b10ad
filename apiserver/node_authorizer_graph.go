package apiserver

import (
	"context"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/runtime"
	authznode "github.com/minicp/minicp/apiserver/authz/node"
)

// podReferencesIndex is the pods watch cache's index of pods by the
// objects they lead their node to (authznode.ReferenceKeys): the Node
// authorizer's graph.
const podReferencesIndex = "node.references"

func podReferences(obj runtime.Object) ([]string, error) {
	return authznode.ReferenceKeys(obj.(*corev1.Pod)), nil
}

// podGraph is authznode.Graph over the server's pods watch cache, as
// kube-apiserver's Node authorizer builds its graph from informers: a
// decision is one index lookup, and the cache's own watch keeps the index
// current. While the cache is not ready, it lists etcd instead.
type podGraph struct{ s *Server }

var _ authznode.Graph = podGraph{}

// PodsReferencing implements authznode.Graph.
func (g podGraph) PodsReferencing(ctx context.Context, key string) ([]*corev1.Pod, error) {
	return byIndex(ctx, g.s, gvrPods, podReferencesIndex, []string{key}, authznode.ReferenceKeys)
}
