package node

import (
	"context"

	corev1 "github.com/minicp/minicp/api/core/v1"
)

// Graph is what the authorizer reads: the pods that reference an object,
// from memory. Implementations are safe for concurrent use and share the
// pods they return: callers must not modify them.
//
// Upstream: k8s.io/kubernetes/plugin/pkg/auth/authorizer/node (Graph),
// whose edges object -> pod -> node are here an index of pods by the
// objects they reference, each pod knowing its node.
type Graph interface {
	// PodsReferencing returns the pods filed under key (a Key) by
	// ReferenceKeys.
	PodsReferencing(ctx context.Context, key string) ([]*corev1.Pod, error)
}

// Key names an object of the graph: resource, namespace and name.
func Key(resource, namespace, name string) string {
	return resource + "/" + namespace + "/" + name
}

// ReferenceKeys returns the Keys of the objects pod leads its node to:
// the pod itself, its service account, and the Secrets, ConfigMaps and
// PersistentVolumeClaims its volumes, environment and image pull secrets
// name. It is the index function of a Graph over pods. A pod bound to no
// node leads nowhere and files under nothing.
//
// Upstream: k8s.io/kubernetes/plugin/pkg/auth/authorizer/node
// (Graph.AddPod) and k8s.io/kubernetes/pkg/api/v1/pod
// (VisitPodSecretNames, VisitPodConfigmapNames).
func ReferenceKeys(pod *corev1.Pod) []string {
	if pod.Spec.NodeName == "" {
		return nil
	}
	ns := pod.Namespace
	seen := map[string]bool{}
	var keys []string
	add := func(resource, name string) {
		if name == "" {
			return
		}
		if k := Key(resource, ns, name); !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	add("pods", pod.Name)
	add("serviceaccounts", pod.Spec.ServiceAccountName)
	for _, s := range pod.Spec.ImagePullSecrets {
		add("secrets", s.Name)
	}
	for _, v := range pod.Spec.Volumes {
		switch {
		case v.Secret != nil:
			add("secrets", v.Secret.SecretName)
		case v.ConfigMap != nil:
			add("configmaps", v.ConfigMap.Name)
		case v.PersistentVolumeClaim != nil:
			add("persistentvolumeclaims", v.PersistentVolumeClaim.ClaimName)
		case v.Projected != nil:
			for _, src := range v.Projected.Sources {
				if src.Secret != nil {
					add("secrets", src.Secret.Name)
				}
				if src.ConfigMap != nil {
					add("configmaps", src.ConfigMap.Name)
				}
			}
		}
	}
	containers := append(append([]corev1.Container(nil), pod.Spec.InitContainers...), pod.Spec.Containers...)
	for _, c := range containers {
		for _, from := range c.EnvFrom {
			if from.ConfigMapRef != nil {
				add("configmaps", from.ConfigMapRef.Name)
			}
			if from.SecretRef != nil {
				add("secrets", from.SecretRef.Name)
			}
		}
		for _, env := range c.Env {
			if env.ValueFrom == nil {
				continue
			}
			if ref := env.ValueFrom.ConfigMapKeyRef; ref != nil {
				add("configmaps", ref.Name)
			}
			if ref := env.ValueFrom.SecretKeyRef; ref != nil {
				add("secrets", ref.Name)
			}
		}
	}
	return keys
}
