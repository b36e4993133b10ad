package v1

import "github.com/minicp/minicp/api/runtime"

// DeepCopyObject implements runtime.Object.
func (s *Status) DeepCopyObject() runtime.Object { return runtime.DeepCopy(s) }

// DeepCopyObject implements runtime.Object.
func (o *DeleteOptions) DeepCopyObject() runtime.Object { return runtime.DeepCopy(o) }

// DeepCopyObject implements runtime.Object.
func (t *Table) DeepCopyObject() runtime.Object { return runtime.DeepCopy(t) }

// DeepCopyObject implements runtime.Object.
func (p *PartialObjectMetadata) DeepCopyObject() runtime.Object { return runtime.DeepCopy(p) }

// DeepCopyObject implements runtime.Object.
func (l *APIResourceList) DeepCopyObject() runtime.Object { return runtime.DeepCopy(l) }

// DeepCopyObject implements runtime.Object.
func (l *APIGroupList) DeepCopyObject() runtime.Object { return runtime.DeepCopy(l) }

// DeepCopyObject implements runtime.Object.
func (g *APIGroup) DeepCopyObject() runtime.Object { return runtime.DeepCopy(g) }

// DeepCopyObject implements runtime.Object.
func (v *APIVersions) DeepCopyObject() runtime.Object { return runtime.DeepCopy(v) }
