package client

import (
	"context"
	"fmt"
	"net/http"
	"net/url"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/watch"
)

// Resource is the typed client of one resource: T is the kind's pointer
// type (*corev1.Pod) and L its list's (*corev1.PodList). The generic
// client metav1.Object / metav1.ListInterface serves any resource in the
// scheme, which is what informers use. A Resource is scoped to one
// namespace (see Namespace), is immutable and is safe for concurrent use.
//
// Every method returns the server's errors as *apierrors.StatusError, so
// apierrors.IsNotFound, IsAlreadyExists, IsConflict, IsInvalid, IsGone and
// the rest classify them.
//
// Upstream: k8s.io/client-go/gentype (Client, ClientWithList), the
// generic base of every typed client-go client.
type Resource[T metav1.Object, L metav1.ListInterface] struct {
	client    *Client
	info      runtime.ResourceInfo
	namespace string
	// newObj and newList make the empty objects responses decode into:
	// from the scheme (NewResource), or unstructured (NewDynamicResource).
	newObj  func() T
	newList func() L
}

// NewResource returns the client of the resource gvr, which must be in
// c's scheme with a kind assignable to T and a list kind assignable to L.
// It is not scoped to a namespace. A custom resource is in the scheme
// once the program registered its Go types (AddKnownTypes, AddResource)
// or NewDynamicResource registered it as unstructured.
func NewResource[T metav1.Object, L metav1.ListInterface](c *Client, gvr runtime.GroupVersionResource) (*Resource[T, L], error) {
	info, ok := c.scheme.Resource(gvr)
	if !ok {
		return nil, fmt.Errorf("client: resource %s is not in the scheme", gvr)
	}
	obj, err := c.scheme.New(info.GVK())
	if err != nil {
		return nil, fmt.Errorf("client: %s: %w", gvr, err)
	}
	if _, ok := obj.(T); !ok {
		return nil, fmt.Errorf("client: %s holds %T, which is not a %T", gvr, obj, *new(T))
	}
	list, err := c.scheme.New(info.ListGVK())
	if err != nil {
		return nil, fmt.Errorf("client: %s: %w", gvr, err)
	}
	if _, ok := list.(L); !ok {
		return nil, fmt.Errorf("client: %s lists are %T, which is not a %T", gvr, list, *new(L))
	}
	return &Resource[T, L]{
		client: c,
		info:   info,
		// The checks above make these conversions safe, as long as the
		// kinds keep their Go types.
		newObj: func() T {
			obj, _ := c.scheme.New(info.GVK())
			return obj.(T)
		},
		newList: func() L {
			obj, _ := c.scheme.New(info.ListGVK())
			return obj.(L)
		},
	}, nil
}

// Namespace returns a copy of r scoped to ns; "" means every namespace for
// List, DeleteCollection and Watch. Create, Update and UpdateStatus with
// no namespace use the object's own.
func (r *Resource[T, L]) Namespace(ns string) *Resource[T, L] {
	c := *r
	c.namespace = ns
	return &c
}

// Info describes the resource: its GVR, kind, scope and verbs.
func (r *Resource[T, L]) Info() runtime.ResourceInfo { return r.info }

// Create stores obj and returns it as stored. It does not modify obj.
func (r *Resource[T, L]) Create(ctx context.Context, obj T, opts WriteOptions) (T, error) {
	var zero T
	ns, err := r.objectNamespace(obj)
	if err != nil {
		return zero, err
	}
	body, err := encode(obj)
	if err != nil {
		return zero, err
	}
	out := r.newObj()
	err = r.client.do(ctx, request{method: http.MethodPost, gvr: r.info.GVR, namespace: ns,
		query: opts.query(), body: body}, out)
	if err != nil {
		return zero, err
	}
	return out, nil
}

// Get returns the object called name.
func (r *Resource[T, L]) Get(ctx context.Context, name string, opts GetOptions) (T, error) {
	var zero T
	ns, err := r.namedNamespace(name)
	if err != nil {
		return zero, err
	}
	req := request{method: http.MethodGet, gvr: r.info.GVR, namespace: ns, name: name, query: url.Values{}}
	if opts.ResourceVersion != "" {
		req.query.Set("resourceVersion", opts.ResourceVersion)
	}
	out := r.newObj()
	if err := r.client.do(ctx, req, out); err != nil {
		return zero, err
	}
	return out, nil
}

// List returns the objects matching opts, one page when opts.Limit is set.
func (r *Resource[T, L]) List(ctx context.Context, opts ListOptions) (L, error) {
	var zero L
	ns, err := r.collectionNamespace()
	if err != nil {
		return zero, err
	}
	out := r.newList()
	err = r.client.do(ctx, request{method: http.MethodGet, gvr: r.info.GVR, namespace: ns, query: opts.query()}, out)
	if err != nil {
		return zero, err
	}
	return out, nil
}

// Update replaces the object with obj, which must carry the
// resourceVersion it was read at: a stale one is a 409 Conflict
// (apierrors.IsConflict; see RetryOnConflict). Status changes are ignored;
// use UpdateStatus.
func (r *Resource[T, L]) Update(ctx context.Context, obj T, opts WriteOptions) (T, error) {
	return r.put(ctx, obj, "", opts)
}

// UpdateStatus replaces the object's status with obj's, through the status
// subresource; everything else in obj is ignored. Optimistic concurrency
// is as for Update.
func (r *Resource[T, L]) UpdateStatus(ctx context.Context, obj T, opts WriteOptions) (T, error) {
	return r.put(ctx, obj, "status", opts)
}

// UpdateSubresource replaces what the subresource of obj's object
// carries with obj, such as namespaces/{name}/finalize (upstream's
// Namespaces().Finalize). Optimistic concurrency is as for Update.
func (r *Resource[T, L]) UpdateSubresource(ctx context.Context, obj T, subresource string, opts WriteOptions) (T, error) {
	return r.put(ctx, obj, subresource, opts)
}

func (r *Resource[T, L]) put(ctx context.Context, obj T, subresource string, opts WriteOptions) (T, error) {
	var zero T
	ns, err := r.objectNamespace(obj)
	if err != nil {
		return zero, err
	}
	name := obj.GetObjectMeta().Name
	if name == "" {
		return zero, fmt.Errorf("update %s: the object has no name", r.info.GVR.Resource)
	}
	body, err := encode(obj)
	if err != nil {
		return zero, err
	}
	out := r.newObj()
	err = r.client.do(ctx, request{method: http.MethodPut, gvr: r.info.GVR, namespace: ns, name: name,
		subresource: subresource, query: opts.query(), body: body}, out)
	if err != nil {
		return zero, err
	}
	return out, nil
}

// Patch applies data, a patch of type pt, to the object called name (or to
// its subresource, such as "status") and returns the result. The server
// applies it to the current state, so a patch without a resourceVersion
// never conflicts.
func (r *Resource[T, L]) Patch(ctx context.Context, name string, pt PatchType, data []byte, opts WriteOptions, subresource ...string) (T, error) {
	var zero T
	ns, err := r.namedNamespace(name)
	if err != nil {
		return zero, err
	}
	if len(subresource) > 1 {
		return zero, fmt.Errorf("patch %s %q: at most one subresource", r.info.GVR.Resource, name)
	}
	req := request{method: http.MethodPatch, gvr: r.info.GVR, namespace: ns, name: name,
		query: opts.query(), body: data, contentType: string(pt)}
	if len(subresource) == 1 {
		req.subresource = subresource[0]
	}
	out := r.newObj()
	if err := r.client.do(ctx, req, out); err != nil {
		return zero, err
	}
	return out, nil
}

// Delete deletes the object called name, or starts its deletion (a grace
// period, finalizers): opts carries preconditions (UID, resourceVersion: a
// mismatch is a 409 Conflict), the propagation policy and the grace
// period.
func (r *Resource[T, L]) Delete(ctx context.Context, name string, opts metav1.DeleteOptions) error {
	ns, err := r.namedNamespace(name)
	if err != nil {
		return err
	}
	opts.TypeMeta = metav1.TypeMeta{Kind: "DeleteOptions", APIVersion: "v1"}
	body, err := encode(&opts)
	if err != nil {
		return err
	}
	return r.client.do(ctx, request{method: http.MethodDelete, gvr: r.info.GVR, namespace: ns, name: name, body: body}, nil)
}

// DeleteCollection deletes every object matching listOpts, each as Delete
// would with opts.
func (r *Resource[T, L]) DeleteCollection(ctx context.Context, opts metav1.DeleteOptions, listOpts ListOptions) error {
	ns, err := r.collectionNamespace()
	if err != nil {
		return err
	}
	opts.TypeMeta = metav1.TypeMeta{Kind: "DeleteOptions", APIVersion: "v1"}
	body, err := encode(&opts)
	if err != nil {
		return err
	}
	return r.client.do(ctx, request{method: http.MethodDelete, gvr: r.info.GVR, namespace: ns,
		query: listOpts.query(), body: body}, nil)
}

// Watch starts a watch of the objects matching opts and returns once the
// server accepted it (a refusal is the error). Events carry T, *metav1.Status
// (Error events) or, for Bookmark, a T whose only field set is its
// resourceVersion. The watch ends when ctx is done, Stop is called, the
// server ends the stream, or after an Error event; ResultChan is closed
// then. A watch from a resourceVersion the server no longer has is an
// Error event with a 410 Expired Status: wrap it with apierrors.FromStatus
// and check apierrors.IsGone.
func (r *Resource[T, L]) Watch(ctx context.Context, opts ListOptions) (watch.Interface, error) {
	ns, err := r.collectionNamespace()
	if err != nil {
		return nil, err
	}
	q := opts.query()
	q.Set("watch", "true")
	ctx, cancel := context.WithCancel(ctx)
	resp, err := r.client.send(ctx, request{method: http.MethodGet, gvr: r.info.GVR, namespace: ns, query: q})
	if err != nil {
		cancel()
		return nil, err
	}
	return newStreamWatcher(ctx, cancel, resp.Body, func() runtime.Object { return r.newObj() }), nil
}

// objectNamespace is the namespace a write of obj goes to: the client's,
// or obj's own when the client has none.
func (r *Resource[T, L]) objectNamespace(obj T) (string, error) {
	if !r.info.Namespaced {
		return r.clusterScoped()
	}
	ns := r.namespace
	if ns == "" {
		ns = obj.GetObjectMeta().Namespace
	}
	if ns == "" {
		return "", fmt.Errorf("%s %q: a namespace is required", r.info.GVR.Resource, obj.GetObjectMeta().Name)
	}
	return ns, nil
}

// namedNamespace is the namespace of a request on the object name.
func (r *Resource[T, L]) namedNamespace(name string) (string, error) {
	if name == "" {
		return "", fmt.Errorf("%s: a name is required", r.info.GVR.Resource)
	}
	if !r.info.Namespaced {
		return r.clusterScoped()
	}
	if r.namespace == "" {
		return "", fmt.Errorf("%s %q: a namespace is required", r.info.GVR.Resource, name)
	}
	return r.namespace, nil
}

// collectionNamespace is the namespace of a list, watch or
// deletecollection: "" for all namespaces.
func (r *Resource[T, L]) collectionNamespace() (string, error) {
	if !r.info.Namespaced {
		return r.clusterScoped()
	}
	return r.namespace, nil
}

// clusterScoped refuses a namespace on a cluster-scoped resource, where
// the server would answer 404.
func (r *Resource[T, L]) clusterScoped() (string, error) {
	if r.namespace != "" {
		return "", fmt.Errorf("%s is cluster-scoped: namespace %q given", r.info.GVR.Resource, r.namespace)
	}
	return "", nil
}
