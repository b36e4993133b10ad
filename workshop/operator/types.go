package operator

import (
	apiextensionsv1 "github.com/minicp/minicp/api/apiextensions/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
)

// WebsitesGVR is the resource the CRD installs:
// /apis/workshop.minicp.io/v1/namespaces/<ns>/websites.
var WebsitesGVR = runtime.GroupVersionResource{Group: "workshop.minicp.io", Version: "v1", Resource: "websites"}

// Website asks for a message to be published.
type Website struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitzero"`
	Spec              WebsiteSpec   `json:"spec,omitzero"`
	Status            WebsiteStatus `json:"status,omitzero"`
}

// WebsiteSpec is the desired state, written by the user.
type WebsiteSpec struct {
	// Message is what the site shows.
	Message string `json:"message"`
}

// WebsiteStatus is the observed state, written by the operator through
// the status subresource.
type WebsiteStatus struct {
	// ObservedGeneration is the metadata.generation this status
	// describes: a client knows its latest spec has been acted on once
	// it equals metadata.generation.
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// Phase is PhasePublished once the ConfigMap holds the message.
	Phase string `json:"phase,omitempty"`
	// PublishedAs is "<namespace>/<name>" of the published ConfigMap.
	PublishedAs string `json:"publishedAs,omitempty"`
}

// PhasePublished is the Phase of a Website whose message is published.
const PhasePublished = "Published"

// WebsiteList is a list of Websites.
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
// resource as the CRD serves it, so a client decodes websites into them.
func AddToScheme(s *runtime.Scheme) error {
	s.AddKnownTypes(WebsitesGVR.GroupVersion(), &Website{}, &WebsiteList{})
	return s.AddResource(runtime.ResourceInfo{
		GVR: WebsitesGVR, Kind: "Website", Namespaced: true,
		Verbs: runtime.AllVerbs, Subresources: []string{"status"},
	})
}

// CRD is the CustomResourceDefinition of websites: one version, a schema
// that requires spec.message, and the status subresource, so that spec
// and status are written by different requests (users write the spec,
// the operator the status).
func CRD() *apiextensionsv1.CustomResourceDefinition {
	str := apiextensionsv1.JSONSchemaProps{Type: "string"}
	return &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: WebsitesGVR.Resource + "." + WebsitesGVR.Group},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: WebsitesGVR.Group,
			Names: apiextensionsv1.CustomResourceDefinitionNames{Plural: "websites", Singular: "website", Kind: "Website", ListKind: "WebsiteList"},
			Scope: apiextensionsv1.NamespaceScoped,
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{
				Name: WebsitesGVR.Version, Served: true, Storage: true,
				Subresources: &apiextensionsv1.CustomResourceSubresources{Status: &apiextensionsv1.CustomResourceSubresourceStatus{}},
				Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{
					Type: "object",
					Properties: map[string]apiextensionsv1.JSONSchemaProps{
						"spec": {Type: "object", Required: []string{"message"},
							Properties: map[string]apiextensionsv1.JSONSchemaProps{"message": str}},
						"status": {Type: "object", Properties: map[string]apiextensionsv1.JSONSchemaProps{
							"observedGeneration": {Type: "integer"},
							"phase":              str,
							"publishedAs":        str,
						}},
					},
				}},
			}},
		},
	}
}
