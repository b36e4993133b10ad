package v1

import (
	"github.com/minicp/minicp/api/runtime"
)

// GroupName is the API group of this package.
const GroupName = "admissionregistration.k8s.io"

// SchemeGroupVersion is the group/version of every kind in this package.
var SchemeGroupVersion = runtime.GroupVersion{Group: GroupName, Version: "v1"}

// AddToScheme registers the two webhook configuration kinds and their
// resources as Kubernetes discovery reports them: cluster-scoped, every
// verb, in the api-extensions category (`kubectl get api-extensions`).
//
// Upstream: k8s.io/api/admissionregistration/v1 (addKnownTypes) and
// k8s.io/kubernetes/pkg/registry/admissionregistration (the resources).
func AddToScheme(s *runtime.Scheme) error {
	s.AddKnownTypes(SchemeGroupVersion,
		&MutatingWebhookConfiguration{}, &MutatingWebhookConfigurationList{},
		&ValidatingWebhookConfiguration{}, &ValidatingWebhookConfigurationList{},
	)
	for _, info := range []runtime.ResourceInfo{
		{GVR: SchemeGroupVersion.WithResource("mutatingwebhookconfigurations"), Kind: "MutatingWebhookConfiguration"},
		{GVR: SchemeGroupVersion.WithResource("validatingwebhookconfigurations"), Kind: "ValidatingWebhookConfiguration"},
	} {
		info.Verbs = append([]string(nil), runtime.AllVerbs...)
		info.Categories = []string{"api-extensions"}
		if err := s.AddResource(info); err != nil {
			return err
		}
	}
	return nil
}

// DeepCopyObject implements runtime.Object.
func (c *MutatingWebhookConfiguration) DeepCopyObject() runtime.Object { return runtime.DeepCopy(c) }

// DeepCopy returns a copy of c that shares nothing with it.
func (c *MutatingWebhookConfiguration) DeepCopy() *MutatingWebhookConfiguration {
	return runtime.DeepCopy(c)
}

// DeepCopyObject implements runtime.Object.
func (l *MutatingWebhookConfigurationList) DeepCopyObject() runtime.Object {
	return runtime.DeepCopy(l)
}

// DeepCopyObject implements runtime.Object.
func (c *ValidatingWebhookConfiguration) DeepCopyObject() runtime.Object { return runtime.DeepCopy(c) }

// DeepCopy returns a copy of c that shares nothing with it.
func (c *ValidatingWebhookConfiguration) DeepCopy() *ValidatingWebhookConfiguration {
	return runtime.DeepCopy(c)
}

// DeepCopyObject implements runtime.Object.
func (l *ValidatingWebhookConfigurationList) DeepCopyObject() runtime.Object {
	return runtime.DeepCopy(l)
}
