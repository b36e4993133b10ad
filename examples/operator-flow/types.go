package main

import (
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
)

// These are the operator's Go types for the custom resource that
// manifests/website-crd.yaml defines, registered in its client's scheme
// by AddToScheme so that the client, the manager's cache and the
// reconciler work with *Website rather than untyped JSON.

// websitesGVR is the resource the CRD installs.
var websitesGVR = runtime.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "websites"}

// websiteGVK is the kind the ConfigMap's ownerReference names.
var websiteGVK = websitesGVR.GroupVersion().WithKind("Website")

// Website asks for a web site with a title. The operator writes its page
// into a ConfigMap.
type Website struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitzero"`
	Spec              WebsiteSpec   `json:"spec,omitzero"`
	Status            WebsiteStatus `json:"status,omitzero"`
}

// WebsiteSpec is the desired state, written by the user.
type WebsiteSpec struct {
	// Title is the title of the site's page.
	Title string `json:"title"`
}

// WebsiteStatus is the observed state, written by the operator through
// the status subresource.
type WebsiteStatus struct {
	// ObservedGeneration is the metadata.generation this status describes.
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// Phase is Ready once the page is in its ConfigMap.
	Phase string `json:"phase,omitempty"`
	// ConfigMap names the ConfigMap holding the page.
	ConfigMap string `json:"configMap,omitempty"`
}

// PhaseReady is the phase of a Website whose page is written.
const PhaseReady = "Ready"

// WebsiteList is a list of Websites, what LIST and the informer read.
type WebsiteList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitzero"`
	Items           []Website `json:"items"`
}

// DeepCopyObject implements runtime.Object.
func (w *Website) DeepCopyObject() runtime.Object { return w.DeepCopy() }

// DeepCopy returns a copy of w that shares nothing with it.
func (w *Website) DeepCopy() *Website { return runtime.DeepCopy(w) }

// DeepCopyObject implements runtime.Object.
func (l *WebsiteList) DeepCopyObject() runtime.Object { return runtime.DeepCopy(l) }

// AddToScheme registers Website and WebsiteList and the websites
// resource as the CRD serves it.
func AddToScheme(s *runtime.Scheme) error {
	s.AddKnownTypes(websitesGVR.GroupVersion(), &Website{}, &WebsiteList{})
	return s.AddResource(runtime.ResourceInfo{
		GVR: websitesGVR, Kind: "Website", Namespaced: true,
		Verbs: runtime.AllVerbs, ShortNames: []string{"ws"}, Subresources: []string{"status"},
	})
}
