package v1

import (
	"fmt"

	"github.com/minicp/minicp/api/runtime"
)

// GroupName is the API group of this package.
const GroupName = "flowcontrol.apiserver.k8s.io"

// SchemeGroupVersion is the group/version of every kind in this package.
var SchemeGroupVersion = runtime.GroupVersion{Group: GroupName, Version: "v1"}

// FlowSchemas returns the flowschemas resource as discovery reports it:
// cluster-scoped, with a status subresource and no short name.
func FlowSchemas() runtime.ResourceInfo {
	return runtime.ResourceInfo{
		GVR: SchemeGroupVersion.WithResource("flowschemas"), Kind: "FlowSchema",
		SingularName: "flowschema", Verbs: append([]string(nil), runtime.AllVerbs...),
		Subresources: []string{"status"},
	}
}

// PriorityLevelConfigurations returns the prioritylevelconfigurations
// resource as discovery reports it: cluster-scoped, with a status
// subresource and no short name.
func PriorityLevelConfigurations() runtime.ResourceInfo {
	return runtime.ResourceInfo{
		GVR: SchemeGroupVersion.WithResource("prioritylevelconfigurations"), Kind: "PriorityLevelConfiguration",
		SingularName: "prioritylevelconfiguration", Verbs: append([]string(nil), runtime.AllVerbs...),
		Subresources: []string{"status"},
	}
}

// AddToScheme registers FlowSchema and PriorityLevelConfiguration with
// their lists and resources.
func AddToScheme(s *runtime.Scheme) error {
	s.AddKnownTypes(SchemeGroupVersion,
		&FlowSchema{}, &FlowSchemaList{}, &PriorityLevelConfiguration{}, &PriorityLevelConfigurationList{})
	for _, info := range []runtime.ResourceInfo{FlowSchemas(), PriorityLevelConfigurations()} {
		if err := s.AddResource(info); err != nil {
			return fmt.Errorf("register %s: %w", info.GVR, err)
		}
	}
	return nil
}
