package client

import (
	"net/url"
	"strconv"
)

// GetOptions tunes Get.
//
// Upstream: k8s.io/apimachinery/pkg/apis/meta/v1 (GetOptions).
type GetOptions struct {
	// ResourceVersion "" reads the latest state; "0" lets the server answer
	// from a cache.
	ResourceVersion string
}

// ListOptions select and page a List, and say where a Watch starts. The
// fields are the query parameters of the same names.
//
// Upstream: k8s.io/apimachinery/pkg/apis/meta/v1 (ListOptions).
type ListOptions struct {
	// LabelSelector is a selector in its string form ("app=web,tier!=db"),
	// as labels.Selector.String writes it.
	LabelSelector string
	// FieldSelector is a field selector in its string form
	// ("metadata.name=x"), as fields.Selector.String writes it.
	FieldSelector string
	// Limit caps a List page; Continue asks for the next one.
	Limit    int64
	Continue string
	// ResourceVersion: for List, "" reads the latest state, "0" any recent
	// one, "N" one no older than N (or exactly N, with
	// ResourceVersionMatch "Exact"). For Watch, events after N; "" or "0"
	// first sends the current state as ADDED events.
	ResourceVersion      string
	ResourceVersionMatch string
	// TimeoutSeconds ends a Watch on the server after that many seconds.
	// Nil leaves it to the server (30 minutes).
	TimeoutSeconds *int64
	// AllowWatchBookmarks asks a Watch for BOOKMARK events, which advance
	// the resourceVersion while nothing changes.
	AllowWatchBookmarks bool
}

// query encodes the options as query parameters.
func (o ListOptions) query() url.Values {
	q := url.Values{}
	set := func(k, v string) {
		if v != "" {
			q.Set(k, v)
		}
	}
	set("labelSelector", o.LabelSelector)
	set("fieldSelector", o.FieldSelector)
	if o.Limit > 0 {
		q.Set("limit", strconv.FormatInt(o.Limit, 10))
	}
	set("continue", o.Continue)
	set("resourceVersion", o.ResourceVersion)
	set("resourceVersionMatch", o.ResourceVersionMatch)
	if o.TimeoutSeconds != nil {
		q.Set("timeoutSeconds", strconv.FormatInt(*o.TimeoutSeconds, 10))
	}
	if o.AllowWatchBookmarks {
		q.Set("allowWatchBookmarks", "true")
	}
	return q
}

// WriteOptions tune Create, Update, UpdateStatus and Patch.
//
// Upstream: k8s.io/apimachinery/pkg/apis/meta/v1 (CreateOptions,
// UpdateOptions, PatchOptions), which minicp folds into one.
type WriteOptions struct {
	// DryRun runs the request through admission and validation without
	// storing anything.
	DryRun bool
	// FieldValidation is how the server treats unknown fields: "Ignore",
	// "Warn" (the server's default) or "Strict" (400).
	FieldValidation string
	// FieldManager names the writer in the object's managedFields.
	// Defaults to the client's user agent up to its first '/'; an
	// ApplyPatchType patch must set it.
	FieldManager string
	// Force makes an ApplyPatchType patch take the fields other managers
	// own instead of failing with a conflict. Only for apply patches.
	Force bool
}

// query encodes the options as query parameters.
func (o WriteOptions) query() url.Values {
	q := url.Values{}
	if o.DryRun {
		q.Set("dryRun", "All")
	}
	if o.FieldValidation != "" {
		q.Set("fieldValidation", o.FieldValidation)
	}
	if o.FieldManager != "" {
		q.Set("fieldManager", o.FieldManager)
	}
	if o.Force {
		q.Set("force", "true")
	}
	return q
}

// PatchType is the media type of a patch.
//
// Upstream: k8s.io/apimachinery/pkg/types (PatchType).
type PatchType string

// The patch types minicp's API server accepts.
const (
	// JSONPatchType is RFC 6902: a list of operations.
	JSONPatchType PatchType = "application/json-patch+json"
	// MergePatchType is RFC 7386: a partial object, null deleting a field.
	MergePatchType PatchType = "application/merge-patch+json"
	// StrategicMergePatchType merges lists by key (containers by name)
	// following the types' patchStrategy tags, as kubectl apply sends.
	StrategicMergePatchType PatchType = "application/strategic-merge-patch+json"
	// ApplyPatchType is server-side apply: the fields the manager
	// (WriteOptions.FieldManager) wants set, in YAML or JSON; the server
	// merges them by field ownership and answers a conflict with another
	// manager with 409 unless WriteOptions.Force.
	ApplyPatchType PatchType = "application/apply-patch+yaml"
)
