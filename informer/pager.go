package informer

import (
	"context"

	"github.com/minicp/minicp/api/apierrors"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/client"
)

// listPageSize is how many objects one LIST page holds: client-go's
// pager's default, which bounds the size of one response for large
// resources.
const listPageSize = 500

// listPages lists at rv in pages of limit objects (0: in one request).
// The pages are one consistent snapshot: every continue token is pinned
// to the first page's revision. If a token expires (etcd compacted that
// revision mid-list), the whole list is read again, at the latest
// revision, in one request.
//
// Upstream: k8s.io/client-go/tools/pager (ListPager.List).
func (r *Reflector) listPages(ctx context.Context, rv string, limit int64) ([]runtime.Object, string, error) {
	opts := r.listOptions(client.ListOptions{ResourceVersion: rv, Limit: limit})
	var items []runtime.Object
	listRV := ""
	for {
		list, err := r.lw.List(ctx, opts)
		if err != nil {
			if opts.Continue != "" && apierrors.IsResourceExpired(err) {
				return r.listPages(ctx, "", 0)
			}
			return nil, "", err
		}
		page, err := runtime.ListItems(list)
		if err != nil {
			return nil, "", err
		}
		items = append(items, page...)
		lm := list.GetListMeta()
		if listRV == "" {
			listRV = lm.ResourceVersion
		}
		if lm.Continue == "" {
			return items, listRV, nil
		}
		opts = r.listOptions(client.ListOptions{Continue: lm.Continue, Limit: limit})
	}
}
