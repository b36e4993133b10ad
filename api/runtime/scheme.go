package runtime

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
)

// Scheme maps each GroupVersionKind to its Go type and each
// GroupVersionResource to its ResourceInfo. Register everything before
// serving; after that it is safe for concurrent use (CRDs add resources at
// run time, so writes are locked too).
//
// Upstream: k8s.io/apimachinery/pkg/runtime (Scheme) and the RESTMapper.
type Scheme struct {
	// mu guards every field below.
	mu          sync.RWMutex
	kindToType  map[GroupVersionKind]reflect.Type
	typeToKind  map[reflect.Type]GroupVersionKind
	resources   map[GroupVersionResource]ResourceInfo
	resourceIDs []GroupVersionResource // registration order, for discovery
}

// NewScheme returns an empty Scheme.
func NewScheme() *Scheme {
	return &Scheme{
		kindToType: map[GroupVersionKind]reflect.Type{},
		typeToKind: map[reflect.Type]GroupVersionKind{},
		resources:  map[GroupVersionResource]ResourceInfo{},
	}
}

// AddKnownTypes registers each object's Go type under gv; the kind is the Go
// type's name, as in Kubernetes. objs must be pointers to structs.
func (s *Scheme) AddKnownTypes(gv GroupVersion, objs ...Object) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, obj := range objs {
		t := reflect.TypeOf(obj)
		if t.Kind() != reflect.Pointer || t.Elem().Kind() != reflect.Struct {
			panic(fmt.Sprintf("scheme: %T is not a pointer to a struct", obj))
		}
		gvk := gv.WithKind(t.Elem().Name())
		s.kindToType[gvk] = t.Elem()
		s.typeToKind[t.Elem()] = gvk
	}
}

// AddKind registers gvk as a kind whose objects have obj's Go type and
// carry their own TypeMeta, so several kinds may share one type: every
// custom resource is an unstructured.Unstructured. ObjectKind reads such
// an object's TypeMeta instead of looking its type up. A kind added
// again replaces the first registration.
func (s *Scheme) AddKind(gvk GroupVersionKind, obj Object) {
	t := reflect.TypeOf(obj)
	if t.Kind() != reflect.Pointer || t.Elem().Kind() != reflect.Struct {
		panic(fmt.Sprintf("scheme: %T is not a pointer to a struct", obj))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.kindToType[gvk] = t.Elem()
}

// New returns a new zero object of the kind, with its TypeMeta filled.
func (s *Scheme) New(gvk GroupVersionKind) (Object, error) {
	s.mu.RLock()
	t, ok := s.kindToType[gvk]
	s.mu.RUnlock()
	if !ok {
		return nil, &NotRegisteredError{GVK: gvk}
	}
	obj := reflect.New(t).Interface().(Object)
	*obj.GetTypeMeta() = TypeMeta{APIVersion: gvk.GroupVersion().String(), Kind: gvk.Kind}
	return obj, nil
}

// Recognizes reports whether the kind is registered.
func (s *Scheme) Recognizes(gvk GroupVersionKind) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	_, ok := s.kindToType[gvk]
	return ok
}

// ObjectKind returns the GroupVersionKind obj's Go type is registered as.
func (s *Scheme) ObjectKind(obj Object) (GroupVersionKind, error) {
	t := reflect.TypeOf(obj)
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	s.mu.RLock()
	gvk, ok := s.typeToKind[t]
	s.mu.RUnlock()
	if ok {
		return gvk, nil
	}
	// A kind registered with AddKind: the object says what it is.
	if v := reflect.ValueOf(obj); v.Kind() == reflect.Pointer && v.IsNil() {
		return GroupVersionKind{}, fmt.Errorf("scheme: type %T is not registered", obj)
	}
	if tm := obj.GetTypeMeta(); tm.Kind != "" && tm.APIVersion != "" {
		gvk = ParseGroupVersion(tm.APIVersion).WithKind(tm.Kind)
		if s.Recognizes(gvk) {
			return gvk, nil
		}
	}
	return GroupVersionKind{}, fmt.Errorf("scheme: type %T is not registered", obj)
}

// SetTypeMeta fills obj's kind and apiVersion from its registered type.
func (s *Scheme) SetTypeMeta(obj Object) error {
	gvk, err := s.ObjectKind(obj)
	if err != nil {
		return err
	}
	*obj.GetTypeMeta() = TypeMeta{APIVersion: gvk.GroupVersion().String(), Kind: gvk.Kind}
	return nil
}

// AddResource registers a resource. Its kind and list kind must already be
// registered with AddKnownTypes (the list kind only if it can be listed).
// An empty SingularName defaults to the kind in lowercase.
func (s *Scheme) AddResource(info ResourceInfo) error {
	if info.SingularName == "" {
		info.SingularName = strings.ToLower(info.Kind)
	}
	if err := info.validate(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	gv := info.GVR.GroupVersion()
	kinds := []string{info.Kind}
	if info.HasVerb("list") {
		kinds = append(kinds, info.ListKind())
	}
	for _, k := range kinds {
		if _, ok := s.kindToType[gv.WithKind(k)]; !ok {
			return &NotRegisteredError{GVK: gv.WithKind(k)}
		}
	}
	if _, ok := s.resources[info.GVR]; !ok {
		s.resourceIDs = append(s.resourceIDs, info.GVR)
	}
	s.resources[info.GVR] = info
	return nil
}

// RemoveResource unregisters a resource (a deleted CRD).
func (s *Scheme) RemoveResource(gvr GroupVersionResource) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.resources, gvr)
	s.resourceIDs = slices.DeleteFunc(s.resourceIDs, func(id GroupVersionResource) bool { return id == gvr })
}

// Resource returns the resource registered under gvr.
func (s *Scheme) Resource(gvr GroupVersionResource) (ResourceInfo, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	info, ok := s.resources[gvr]
	return info, ok
}

// Resources returns every registered resource in registration order.
func (s *Scheme) Resources() []ResourceInfo {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]ResourceInfo, 0, len(s.resourceIDs))
	for _, id := range s.resourceIDs {
		out = append(out, s.resources[id])
	}
	return out
}

// ResourceForKind returns the resource that serves gvk.
func (s *Scheme) ResourceForKind(gvk GroupVersionKind) (ResourceInfo, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, id := range s.resourceIDs {
		if info := s.resources[id]; info.Kind == gvk.Kind && id.GroupVersion() == gvk.GroupVersion() {
			return info, true
		}
	}
	return ResourceInfo{}, false
}

// NotRegisteredError says a kind is unknown to the Scheme.
type NotRegisteredError struct {
	GVK GroupVersionKind
}

func (e *NotRegisteredError) Error() string {
	return fmt.Sprintf("no kind %q is registered for version %q", e.GVK.Kind, e.GVK.GroupVersion())
}
