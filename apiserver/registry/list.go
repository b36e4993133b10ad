package registry

import (
	"context"
	"strconv"

	"github.com/minicp/minicp/api/apierrors"
	"github.com/minicp/minicp/api/fields"
	"github.com/minicp/minicp/api/labels"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/meta/v1/unstructured"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/storage"
)

// ListOptions are the query parameters of a list or watch, parsed.
type ListOptions struct {
	LabelSelector        labels.Selector
	FieldSelector        fields.Selector
	Limit                int64
	Continue             string
	ResourceVersion      string
	ResourceVersionMatch storage.ResourceVersionMatch
	// AllowWatchBookmarks asks a watch for BOOKMARK events.
	AllowWatchBookmarks bool
}

// List returns the resource's objects in namespace ns ("" for all) that
// match the selectors, as the resource's list kind, one page at a time.
func (s *Store) List(ctx context.Context, ns string, opts ListOptions) (runtime.Object, error) {
	key, recursive := s.selectionKey(ns, opts.FieldSelector)
	res, err := s.Storage.GetList(ctx, key, storage.ListOptions{
		ResourceVersion:      opts.ResourceVersion,
		ResourceVersionMatch: opts.ResourceVersionMatch,
		Predicate:            s.predicate(opts),
		Recursive:            recursive,
	})
	if err != nil {
		return nil, interpretListError(err, s.GroupResource())
	}
	list := s.NewList()
	if err := runtime.SetListItems(list, res.Items); err != nil {
		return nil, apierrors.NewInternalError(err)
	}
	lm := list.(metav1.ListInterface).GetListMeta()
	lm.ResourceVersion = strconv.FormatInt(res.ResourceVersion, 10)
	lm.Continue = res.Continue
	lm.RemainingItemCount = res.RemainingItemCount
	clearItemsTypeMeta(list)
	return list, nil
}

// clearItemsTypeMeta empties the kind and apiVersion of the items of list,
// a list of a built-in kind, as kube-apiserver sends them: the list's own
// kind says what its items are, and upstream's conversion from internal
// objects never fills them in. The items must be the list's own: values
// SetListItems copied out of storage's objects, which the watch cache
// shares between readers, so clearing writes to the list alone and costs
// no copy.
//
// A list of custom resources is left alone: kube-apiserver serves those
// as unstructured objects, and each keeps its apiVersion and kind.
func clearItemsTypeMeta(list runtime.Object) {
	if _, custom := list.(*unstructured.UnstructuredList); custom {
		return
	}
	items, _ := runtime.ListItems(list)
	for _, item := range items {
		*item.GetTypeMeta() = runtime.TypeMeta{}
	}
}

// Watch streams changes to the resource's objects in ns ("" for all) that
// match the selectors, after opts.ResourceVersion.
func (s *Store) Watch(ctx context.Context, ns string, opts ListOptions) (watch.Interface, error) {
	key, recursive := s.selectionKey(ns, opts.FieldSelector)
	w, err := s.Storage.Watch(ctx, key, storage.ListOptions{
		ResourceVersion: opts.ResourceVersion,
		Predicate:       s.predicate(opts),
		Recursive:       recursive,
		ProgressNotify:  opts.AllowWatchBookmarks,
	})
	if err != nil {
		return nil, interpretListError(err, s.GroupResource())
	}
	return w, nil
}

// selectionKey narrows a list or watch pinned to one name
// (fieldSelector=metadata.name=x, as kubectl uses to wait for a delete) to
// that object's key instead of scanning the namespace.
func (s *Store) selectionKey(ns string, fs fields.Selector) (key string, recursive bool) {
	if fs != nil {
		if name, ok := fs.RequiresExactMatch("metadata.name"); ok && name != "" && (ns != "" || !s.Resource.Namespaced) {
			return s.Key(ns, name), false
		}
	}
	return s.listKey(ns), true
}

func (s *Store) predicate(opts ListOptions) storage.Predicate {
	return storage.Predicate{
		Label:    opts.LabelSelector,
		Field:    opts.FieldSelector,
		GetAttrs: s.Attrs,
		Limit:    opts.Limit,
		Continue: opts.Continue,
	}
}
