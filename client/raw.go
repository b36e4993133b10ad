package client

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
)

// GetRaw GETs path (absolute, below the server's base, such as
// "/debug/traces/pods/web") with query, and returns the body of a 2xx
// answer as it is; any other answer is an error made from its Status, as
// for every request. It is for the server's non-resource paths, as
// client-go's RESTClient.Get().AbsPath(path).DoRaw.
func (c *Client) GetRaw(ctx context.Context, path string, query url.Values) ([]byte, error) {
	resp, err := c.send(ctx, request{method: http.MethodGet, path: path, query: query})
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("client: GET %s: %w", path, err)
	}
	return data, nil
}
