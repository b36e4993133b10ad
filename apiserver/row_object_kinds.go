package apiserver

import (
	"context"
	"time"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/handlers"
)

// rowObjectKinds is a TableConvertor that gives the items of a list their
// kind and apiVersion before the list is rendered with ?includeObject=Object.
// A LIST leaves them out, as kube-apiserver's does (the registry clears
// them), but a row's object is a whole object and must say what it is:
// kubectl decodes it (`kubectl get --sort-by` asks for it) and fails on
// one without a kind. kube-apiserver's asTable converts each row's object
// to its version, which sets the kind.
//
// It writes to the list's items: those are the list's own copies
// (registry.Store.List and DeleteCollection copy them out of storage), so
// no object the watch cache shares is written.
//
// Upstream: k8s.io/apiserver/pkg/endpoints/handlers (asTable, ConvertToVersion).
type rowObjectKinds struct {
	handlers.TableConvertor
	scheme *runtime.Scheme
}

// ConvertToTable implements handlers.TableConvertor.
func (t rowObjectKinds) ConvertToTable(ctx context.Context, obj runtime.Object, includeObject string, now time.Time) (*metav1.Table, error) {
	if _, isList := obj.(metav1.ListInterface); isList && includeObject == "Object" {
		items, _ := runtime.ListItems(obj)
		for _, item := range items {
			if item.GetTypeMeta().Kind == "" {
				_ = t.scheme.SetTypeMeta(item)
			}
		}
	}
	return t.TableConvertor.ConvertToTable(ctx, obj, includeObject, now)
}
