package handlers

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/minicp/minicp/api/apierrors"
	"github.com/minicp/minicp/api/fields"
	"github.com/minicp/minicp/api/labels"
	"github.com/minicp/minicp/apiserver/registry"
	"github.com/minicp/minicp/apiserver/request"
	"github.com/minicp/minicp/apiserver/responsewriters"
	"github.com/minicp/minicp/storage"
)

// List serves GET on a collection, as the list, its
// PartialObjectMetadataList or a Table, in JSON, YAML or protobuf; it
// hands ?watch=true to Watch.
func (s *Scope) List(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	info, _ := request.RequestInfoFrom(ctx)
	opts, err := s.parseListOptions(r)
	if err != nil {
		responsewriters.WriteError(w, r, err)
		return
	}
	out, err := s.negotiateOutput(r)
	if err != nil {
		responsewriters.WriteError(w, r, err)
		return
	}
	if info.Verb == "watch" {
		s.Watch(w, r, opts, out)
		return
	}
	list, err := s.Store.List(ctx, info.Namespace, opts)
	if err != nil {
		responsewriters.WriteError(w, r, err)
		return
	}
	s.writeResult(w, r, out, http.StatusOK, list)
}

// parseListOptions reads the list and watch query parameters, rejecting
// malformed ones with 400.
func (s *Scope) parseListOptions(r *http.Request) (registry.ListOptions, error) {
	q := r.URL.Query()
	var opts registry.ListOptions
	var err error
	if opts.LabelSelector, err = labels.Parse(q.Get("labelSelector")); err != nil {
		// The parser's error already says which requirement is wrong.
		return opts, apierrors.NewBadRequest(err.Error())
	}
	if opts.FieldSelector, err = fields.ParseSelector(q.Get("fieldSelector")); err != nil {
		return opts, apierrors.NewBadRequest(fmt.Sprintf("invalid field selector: %v", err))
	}
	if err := s.checkFieldSelector(opts.FieldSelector); err != nil {
		return opts, err
	}
	// A GET on a single object with ?watch=true watches that object.
	if info, ok := request.RequestInfoFrom(r.Context()); ok && info.Name != "" {
		if name, ok := opts.FieldSelector.RequiresExactMatch("metadata.name"); ok && name != info.Name {
			return opts, apierrors.NewBadRequest("fieldSelector metadata.name doesn't match requested name")
		}
		opts.FieldSelector = andSelector(opts.FieldSelector, fields.OneTermEqualSelector("metadata.name", info.Name))
	}
	if v := q.Get("limit"); v != "" {
		if opts.Limit, err = strconv.ParseInt(v, 10, 64); err != nil || opts.Limit < 0 {
			return opts, apierrors.NewBadRequest(fmt.Sprintf("invalid limit %q", v))
		}
	}
	opts.Continue = q.Get("continue")
	opts.ResourceVersion = q.Get("resourceVersion")
	if opts.ResourceVersion != "" {
		if rv, err := parseResourceVersion(opts.ResourceVersion); err != nil {
			return opts, err
		} else if rv > 0 && opts.Continue != "" {
			return opts, apierrors.NewBadRequest("specifying resource version is not allowed when using continue")
		}
	}
	switch m := storage.ResourceVersionMatch(q.Get("resourceVersionMatch")); m {
	case "":
	case storage.ResourceVersionMatchNotOlderThan, storage.ResourceVersionMatchExact:
		if opts.ResourceVersion == "" {
			return opts, apierrors.NewBadRequest("resourceVersionMatch is forbidden unless resourceVersion is provided")
		}
		if m == storage.ResourceVersionMatchExact && opts.ResourceVersion == "0" {
			return opts, apierrors.NewBadRequest(`resourceVersionMatch "Exact" is forbidden for resourceVersion "0"`)
		}
		opts.ResourceVersionMatch = m
	default:
		return opts, apierrors.NewBadRequest(fmt.Sprintf("unsupported resourceVersionMatch %q; supported values: Exact, NotOlderThan", m))
	}
	switch v := q.Get("allowWatchBookmarks"); v {
	case "", "false", "0":
	case "true", "1":
		opts.AllowWatchBookmarks = true
	default:
		return opts, apierrors.NewBadRequest(fmt.Sprintf("invalid allowWatchBookmarks %q", v))
	}
	return opts, nil
}

// parseResourceVersion reads a ?resourceVersion, which must be a
// revision; a malformed one is 400 with kube-apiserver's wording.
//
// Upstream: k8s.io/apiserver/pkg/storage (ValidateListOptions, APIObjectVersioner.ParseResourceVersion).
func parseResourceVersion(v string) (uint64, error) {
	rv, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		return 0, apierrors.NewBadRequest("invalid resource version: " +
			apierrors.Invalid("resourceVersion", v, err.Error()).Error())
	}
	return rv, nil
}
