package v1

import (
	"strings"

	"github.com/minicp/minicp/api/runtime"
)

// DefaultServicePort is the port of a conversion webhook's Service when
// none is given: HTTPS.
const DefaultServicePort int32 = 443

// SetDefaults fills the fields the API server defaults when it decodes a
// CustomResourceDefinition (or each item of a list), in place. It is
// idempotent, and leaves other kinds alone.
//
//   - spec.names.singular: the kind in lower case, when empty;
//   - spec.names.listKind: kind + "List", when empty and kind is set;
//   - spec.conversion: strategy None, when absent;
//   - spec.conversion.webhook.clientConfig.service.port: 443;
//   - status.storedVersions: the storage version, when empty (so a new
//     CRD records the first version its objects are stored in).
//
// Schemas are not defaulted: v1 takes them as written.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1/defaults.go
// (SetObjectDefaults_CustomResourceDefinition).
func SetDefaults(obj runtime.Object) {
	switch o := obj.(type) {
	case *CustomResourceDefinition:
		setDefaultsCustomResourceDefinition(o)
	case *CustomResourceDefinitionList:
		for i := range o.Items {
			setDefaultsCustomResourceDefinition(&o.Items[i])
		}
	}
}

func setDefaultsCustomResourceDefinition(crd *CustomResourceDefinition) {
	SetDefaultsCustomResourceDefinitionSpec(&crd.Spec)
	if len(crd.Status.StoredVersions) == 0 {
		for _, v := range crd.Spec.Versions {
			if v.Storage {
				crd.Status.StoredVersions = append(crd.Status.StoredVersions, v.Name)
				break
			}
		}
	}
	if c := crd.Spec.Conversion; c != nil && c.Webhook != nil && c.Webhook.ClientConfig != nil {
		if svc := c.Webhook.ClientConfig.Service; svc != nil && svc.Port == nil {
			port := DefaultServicePort
			svc.Port = &port
		}
	}
}

// SetDefaultsCustomResourceDefinitionSpec defaults the names and the
// conversion of a spec, as SetDefaults does; the API server's naming
// logic calls it on specs it has not decoded.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1/defaults.go
// (SetDefaults_CustomResourceDefinitionSpec).
func SetDefaultsCustomResourceDefinitionSpec(spec *CustomResourceDefinitionSpec) {
	if spec.Names.Singular == "" {
		spec.Names.Singular = strings.ToLower(spec.Names.Kind)
	}
	if spec.Names.ListKind == "" && spec.Names.Kind != "" {
		spec.Names.ListKind = spec.Names.Kind + "List"
	}
	if spec.Conversion == nil {
		spec.Conversion = &CustomResourceConversion{Strategy: NoneConverter}
	}
}
