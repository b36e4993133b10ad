package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"

	metav1 "github.com/minicp/minicp/api/meta/v1"
)

// tableAccept is the Accept header of `kubectl get`: the server renders
// the objects as a Table, with the columns the resource declares. kubectl
// lists plain JSON last, for servers that cannot render tables.
const tableAccept = "application/json;as=Table;g=meta.k8s.io;v=v1"

// rest calls the API server the way kubectl does: HTTPS requests with
// JSON bodies, the admin's bearer token, no client library. Custom
// resources need nothing more: the server describes them (discovery) and
// renders them (tables) itself.
type rest struct {
	http *http.Client
	// base is the API server's URL, such as https://127.0.0.1:34567.
	base string
}

// response is an HTTP answer: its status code and body.
type response struct {
	code int
	body []byte
}

// do sends one request and reads the whole answer. Only a failure to
// talk to the server is an error: a 4xx or 5xx is a response, whose body
// is a Status (see status).
func (r rest) do(ctx context.Context, method, path, accept string, body []byte) (response, error) {
	var in io.Reader
	if body != nil {
		in = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, r.base+path, in)
	if err != nil {
		return response{}, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if accept == "" {
		accept = "application/json"
	}
	req.Header.Set("Accept", accept)
	resp, err := r.http.Do(req)
	if err != nil {
		return response{}, fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return response{}, fmt.Errorf("%s %s: %w", method, path, err)
	}
	return response{code: resp.StatusCode, body: data}, nil
}

// getJSON GETs path and decodes the 200 answer into out.
func (r rest) getJSON(ctx context.Context, path string, out any) error {
	resp, err := r.do(ctx, http.MethodGet, path, "", nil)
	if err != nil {
		return err
	}
	if resp.code != http.StatusOK {
		return fmt.Errorf("GET %s: %s", path, resp.status().Message)
	}
	return json.Unmarshal(resp.body, out)
}

// status decodes the Status every error answer carries.
func (resp response) status() metav1.Status {
	var s metav1.Status
	if err := json.Unmarshal(resp.body, &s); err != nil || s.Kind != "Status" {
		return metav1.Status{Code: int32(resp.code), Message: string(resp.body)}
	}
	return s
}

// errorLine is how kubectl prints an error answer.
func (resp response) errorLine() string {
	s := resp.status()
	return fmt.Sprintf("Error from server (%s): %s", s.Reason, s.Message)
}
