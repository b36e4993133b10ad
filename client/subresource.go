package client

import (
	"context"
	"io"
	"net/http"
	"net/url"

	"github.com/minicp/minicp/api/runtime"
)

// CreateSubresource POSTs body to a subresource of the object called name,
// such as pods/{name}/binding, and decodes the answer into out when out is
// not nil.
func (r *Resource[T, L]) CreateSubresource(ctx context.Context, name, subresource string, body runtime.Object, out runtime.Object, opts WriteOptions) error {
	ns, err := r.namedNamespace(name)
	if err != nil {
		return err
	}
	data, err := encode(body)
	if err != nil {
		return err
	}
	return r.client.do(ctx, request{method: http.MethodPost, gvr: r.info.GVR, namespace: ns, name: name,
		subresource: subresource, query: opts.query(), body: data}, out)
}

// Stream GETs a subresource that answers with a stream rather than an
// object, such as pods/{name}/log. The caller reads and closes the stream;
// cancelling ctx ends it.
func (r *Resource[T, L]) Stream(ctx context.Context, name, subresource string, query url.Values) (io.ReadCloser, error) {
	ns, err := r.namedNamespace(name)
	if err != nil {
		return nil, err
	}
	resp, err := r.client.send(ctx, request{method: http.MethodGet, gvr: r.info.GVR, namespace: ns, name: name,
		subresource: subresource, query: query})
	if err != nil {
		return nil, err
	}
	return resp.Body, nil
}
