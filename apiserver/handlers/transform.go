package handlers

import (
	"fmt"
	"net/http"

	"github.com/minicp/minicp/api/apierrors"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
)

// transformObject turns obj into the representation target names: a
// Table, PartialObjectMetadata or PartialObjectMetadataList. A nil target
// is obj itself, and a Status (an error in a watch, the success of a
// delete) is never turned into anything. The result may share obj's
// maps and slices: neither may be modified.
//
// Upstream: k8s.io/apiserver/pkg/endpoints/handlers (doTransformObject).
func (s *Scope) transformObject(r *http.Request, obj runtime.Object, target *runtime.GroupVersionKind) (runtime.Object, error) {
	if _, isStatus := obj.(*metav1.Status); isStatus || target == nil {
		return obj, nil
	}
	apiVersion := target.GroupVersion().String()
	switch target.Kind {
	case "PartialObjectMetadata":
		return asPartialObjectMetadata(obj, apiVersion)
	case "PartialObjectMetadataList":
		return asPartialObjectMetadataList(obj, apiVersion)
	case "Table":
		return s.asTable(r, obj, apiVersion)
	}
	// restrictions let no other target through.
	return nil, apierrors.NewInternalError(fmt.Errorf("no conversion to %s", target.Kind))
}

// asTable renders obj, an object or a list, as the rows `kubectl get`
// prints, with the row objects ?includeObject asks for.
//
// Upstream: k8s.io/apiserver/pkg/endpoints/handlers (asTable).
func (s *Scope) asTable(r *http.Request, obj runtime.Object, apiVersion string) (*metav1.Table, error) {
	table, err := s.Tables.ConvertToTable(r.Context(), s.withKind(obj), r.URL.Query().Get("includeObject"), s.Clock.Now())
	if err != nil {
		return nil, err
	}
	table.TypeMeta = metav1.TypeMeta{Kind: "Table", APIVersion: apiVersion}
	return table, nil
}

// asPartialObjectMetadata is obj's metadata alone, as apiVersion's
// PartialObjectMetadata. A list is 406: the client asked for one object's
// metadata of a collection.
//
// Upstream: k8s.io/apiserver/pkg/endpoints/handlers (asPartialObjectMetadata).
func asPartialObjectMetadata(obj runtime.Object, apiVersion string) (*metav1.PartialObjectMetadata, error) {
	if _, isList := obj.(metav1.ListInterface); isList {
		return nil, notAcceptable(fmt.Sprintf("you requested PartialObjectMetadata, but the requested object is a list (%T)", obj))
	}
	meta, err := metav1.Accessor(obj)
	if err != nil {
		return nil, apierrors.NewInternalError(err)
	}
	return partialObjectMetadata(meta, apiVersion), nil
}

// asPartialObjectMetadataList is the metadata of list's items, as
// apiVersion's PartialObjectMetadataList, each item a
// PartialObjectMetadata of that version. A single object is 406.
//
// Upstream: k8s.io/apiserver/pkg/endpoints/handlers (asPartialObjectMetadataList).
func asPartialObjectMetadataList(obj runtime.Object, apiVersion string) (*metav1.PartialObjectMetadataList, error) {
	list, isList := obj.(metav1.ListInterface)
	if !isList {
		return nil, notAcceptable(fmt.Sprintf("you requested PartialObjectMetadataList, but the requested object is not a list (%T)", obj))
	}
	items, err := runtime.ListItems(obj)
	if err != nil {
		return nil, apierrors.NewInternalError(err)
	}
	lm := list.GetListMeta()
	out := &metav1.PartialObjectMetadataList{
		TypeMeta: metav1.TypeMeta{Kind: "PartialObjectMetadataList", APIVersion: apiVersion},
		ListMeta: metav1.ListMeta{ResourceVersion: lm.ResourceVersion, Continue: lm.Continue, RemainingItemCount: lm.RemainingItemCount},
		// Never null, as minicp's other lists: an empty one is
		// "items":[]. kube-apiserver writes null here; clients read both.
		Items: make([]metav1.PartialObjectMetadata, 0, len(items)),
	}
	for _, item := range items {
		meta, err := metav1.Accessor(item)
		if err != nil {
			return nil, apierrors.NewInternalError(err)
		}
		out.Items = append(out.Items, *partialObjectMetadata(meta, apiVersion))
	}
	return out, nil
}

// partialObjectMetadata wraps meta, shared rather than copied: the
// objects it comes from are the registry's answer or the watch cache's,
// which nobody modifies.
//
// Upstream: k8s.io/apimachinery/pkg/api/meta (AsPartialObjectMetadata).
func partialObjectMetadata(meta *metav1.ObjectMeta, apiVersion string) *metav1.PartialObjectMetadata {
	return &metav1.PartialObjectMetadata{
		TypeMeta:   metav1.TypeMeta{Kind: "PartialObjectMetadata", APIVersion: apiVersion},
		ObjectMeta: *meta,
	}
}

// notAcceptable is the 406 of a representation the object at hand has
// none of, with kube-apiserver's message.
func notAcceptable(msg string) *apierrors.StatusError {
	se := apierrors.NewNotAcceptable("")
	se.ErrStatus.Message = msg
	return se
}

// withKind returns obj with its kind set, which a protobuf envelope
// needs: obj itself when it has one, else a copy. Event objects from the
// watch cache are shared by every watcher: they are written to only when
// they lack a kind (bookmarks), and then only as a copy.
func (s *Scope) withKind(obj runtime.Object) runtime.Object {
	if obj.GetTypeMeta().Kind != "" {
		return obj
	}
	obj = obj.DeepCopyObject()
	if _, isStatus := obj.(*metav1.Status); isStatus {
		*obj.GetTypeMeta() = metav1.TypeMeta{Kind: "Status", APIVersion: "v1"}
		return obj
	}
	_ = s.Store.Scheme.SetTypeMeta(obj)
	return obj
}
