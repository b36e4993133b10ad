package kubelet

import (
	"context"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/client"
)

// The resources the kubelet's not-found errors name, in the singular, as
// upstream's configMap and secret managers do: `configmap "x" not found`
// is what a pod waiting in CreateContainerConfigError shows.
var (
	configMapResource = runtime.GroupResource{Resource: "configmap"}
	secretResource    = runtime.GroupResource{Resource: "secret"}
)

// configSource reads the ConfigMaps and Secrets of one namespace from the
// API, each at most once: one source serves one container start (its
// env) or one setting up of a pod's volumes, so what a container gets is
// what the API held when it started, and a restart reads again. Not safe
// for concurrent use.
//
// Upstream: k8s.io/kubernetes/pkg/kubelet/configmap and .../secret
// (Manager.GetConfigMap, Manager.GetSecret), which read through a watch;
// minicp reads when it needs to, which only a container start does.
type configSource struct {
	cs         *client.Clientset
	ns         string
	configMaps map[string]*corev1.ConfigMap
	secrets    map[string]*corev1.Secret
}

func newConfigSource(cs *client.Clientset, ns string) *configSource {
	return &configSource{cs: cs, ns: ns, configMaps: map[string]*corev1.ConfigMap{}, secrets: map[string]*corev1.Secret{}}
}

// configMap returns the ConfigMap name. A missing one is an
// apierrors.IsNotFound error saying `configmap "name" not found`.
func (s *configSource) configMap(ctx context.Context, name string) (*corev1.ConfigMap, error) {
	if cm, ok := s.configMaps[name]; ok {
		return cm, nil
	}
	cm, err := s.cs.ConfigMaps(s.ns).Get(ctx, name, client.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil, apierrors.NewNotFound(configMapResource, name)
	}
	if err != nil {
		return nil, err
	}
	s.configMaps[name] = cm
	return cm, nil
}

// secret returns the Secret name. A missing one is an apierrors.IsNotFound
// error saying `secret "name" not found`.
func (s *configSource) secret(ctx context.Context, name string) (*corev1.Secret, error) {
	if sec, ok := s.secrets[name]; ok {
		return sec, nil
	}
	sec, err := s.cs.Secrets(s.ns).Get(ctx, name, client.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil, apierrors.NewNotFound(secretResource, name)
	}
	if err != nil {
		return nil, err
	}
	s.secrets[name] = sec
	return sec, nil
}

// missingOptional reports whether err is a missing object that the
// reference to it allows to be missing.
func missingOptional(err error, optional *bool) bool {
	return apierrors.IsNotFound(err) && isTrue(optional)
}

// ignoreMissingOptional returns err, or nil if it is a missing object
// that the reference to it allows to be missing.
func ignoreMissingOptional(err error, optional *bool) error {
	if missingOptional(err, optional) {
		return nil
	}
	return err
}

func isTrue(b *bool) bool { return b != nil && *b }
