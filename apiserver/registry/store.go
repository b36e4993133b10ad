package registry

import (
	"errors"
	"fmt"
	"log/slog"

	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/logging"
	"github.com/minicp/minicp/storage"
)

// Store serves one resource (or one subresource such as pods/status, which
// shares the resource's storage under another Strategy). It is safe for
// concurrent use.
type Store struct {
	Resource runtime.ResourceInfo
	Scheme   *runtime.Scheme
	Storage  storage.Interface
	Strategy Strategy
	// ReturnDeletedObject makes Delete return the deleted object instead of
	// a Success Status, as pods do in Kubernetes.
	ReturnDeletedObject bool
	Clock               clock.Clock
	Logger              *slog.Logger
}

// Options configures NewStore.
type Options struct {
	Resource runtime.ResourceInfo
	Scheme   *runtime.Scheme
	Storage  storage.Interface
	Strategy Strategy
	// ReturnDeletedObject: see Store.
	ReturnDeletedObject bool
	// Clock defaults to clock.Real.
	Clock clock.Clock
	// Logger defaults to a discard logger.
	Logger *slog.Logger
}

// NewStore validates opts and returns a Store.
func NewStore(opts Options) (*Store, error) {
	switch {
	case opts.Scheme == nil:
		return nil, errors.New("registry: Scheme is required")
	case opts.Storage == nil:
		return nil, errors.New("registry: Storage is required")
	case opts.Strategy == nil:
		return nil, errors.New("registry: Strategy is required")
	}
	// A create-only resource (bindings) has no list kind.
	needsList := opts.Resource.HasVerb("list") || opts.Resource.HasVerb("deletecollection")
	if !opts.Scheme.Recognizes(opts.Resource.GVK()) || needsList && !opts.Scheme.Recognizes(opts.Resource.ListGVK()) {
		return nil, fmt.Errorf("registry: kind %s or its list is not in the scheme", opts.Resource.GVK())
	}
	if opts.Clock == nil {
		opts.Clock = clock.Real
	}
	return &Store{
		Resource:            opts.Resource,
		Scheme:              opts.Scheme,
		Storage:             opts.Storage,
		Strategy:            opts.Strategy,
		ReturnDeletedObject: opts.ReturnDeletedObject,
		Clock:               opts.Clock,
		Logger:              logging.OrDiscard(opts.Logger).With("resource", opts.Resource.GVR.Resource),
	}, nil
}

// WithStrategy returns a Store for a subresource: the same storage under
// another Strategy.
func (s *Store) WithStrategy(st Strategy) *Store {
	c := *s
	c.Strategy = st
	return &c
}

// GroupResource names the resource in errors.
func (s *Store) GroupResource() runtime.GroupResource { return s.Resource.GVR.GroupResource() }

// New returns a new empty object of the resource's kind.
func (s *Store) New() runtime.Object {
	obj, err := s.Scheme.New(s.Resource.GVK())
	if err != nil {
		panic(err) // NewStore checked the kind is registered
	}
	return obj
}

// NewList returns a new empty list of the resource's kind.
func (s *Store) NewList() runtime.Object {
	obj, err := s.Scheme.New(s.Resource.ListGVK())
	if err != nil {
		panic(err) // NewStore checked the list kind is registered
	}
	return obj
}

// KeyRoot is the storage key of the whole resource: /pods, or
// /deployments.apps for a named group.
func (s *Store) KeyRoot() string { return storage.ResourcePrefix(s.Resource.GVR.GroupResource()) }

// Key is the storage key of one object: /pods/ns/name or /nodes/name.
// Names that cannot be a key ("..", "a/b") are left for storage to reject
// as ErrInvalidKey, which the verbs translate to 400.
func (s *Store) Key(ns, name string) string {
	if s.Resource.Namespaced {
		return s.KeyRoot() + "/" + ns + "/" + name
	}
	return s.KeyRoot() + "/" + name
}

// listKey is the storage key of a list: one namespace's objects, or all.
func (s *Store) listKey(ns string) string {
	if !s.Resource.Namespaced {
		ns = ""
	}
	return storage.NamespaceRootKey(s.KeyRoot(), ns)
}

// setTypeMeta fills kind and apiVersion when they are missing. Objects
// are stored with them, so this writes only to objects that never went
// through storage: objects the watch cache shares between readers are
// left untouched.
func (s *Store) setTypeMeta(obj runtime.Object) runtime.Object {
	if obj != nil && obj.GetTypeMeta().Kind == "" {
		_ = s.Scheme.SetTypeMeta(obj)
	}
	return obj
}
