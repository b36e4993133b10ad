package client

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/minicp/minicp/api/apierrors"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
)

// DiscoveryClient reads what the API server serves from its discovery
// documents: /api and /apis list the groups and their versions, /api/v1
// and /apis/{group}/{version} the resources of one version. It is how a
// program learns about resources that appear while it runs (custom
// resources), which no scheme compiled into it can know.
//
// It keeps no cache: every call asks the server, so a resource installed
// a moment ago is seen. It is safe for concurrent use.
//
// Upstream: k8s.io/client-go/discovery (DiscoveryClient), without its
// memory and disk caches and without aggregated discovery, which minicp's
// API server does not serve.
type DiscoveryClient struct {
	client *Client
}

// NewDiscoveryClient returns the discovery client over c. It does not
// contact the server.
func NewDiscoveryClient(c *Client) *DiscoveryClient { return &DiscoveryClient{client: c} }

// ServerGroups returns the API groups the server serves: the legacy core
// group first (named "", read from /api), then the named groups of /apis,
// each with its versions and its preferred version. A server that serves
// no /api or no /apis (a 404) simply has none of those groups.
//
// Upstream: k8s.io/client-go/discovery (DiscoveryClient.ServerGroups).
func (d *DiscoveryClient) ServerGroups(ctx context.Context) (*metav1.APIGroupList, error) {
	var versions metav1.APIVersions
	if err := d.get(ctx, "/api", &versions); err != nil && !apierrors.IsNotFound(err) {
		return nil, err
	}
	var groups metav1.APIGroupList
	if err := d.get(ctx, "/apis", &groups); err != nil && !apierrors.IsNotFound(err) {
		return nil, err
	}
	if len(versions.Versions) > 0 {
		legacy := metav1.APIGroup{Name: ""}
		for _, v := range versions.Versions {
			legacy.Versions = append(legacy.Versions, metav1.GroupVersionForDiscovery{GroupVersion: v, Version: v})
		}
		legacy.PreferredVersion = legacy.Versions[0]
		groups.Groups = append([]metav1.APIGroup{legacy}, groups.Groups...)
	}
	return &groups, nil
}

// ServerResourcesForGroupVersion returns the resources of one group
// version, in the server's order. The server lists each subresource
// ("pods/status") as a resource of its own; here it is folded into its
// resource's Subresources. A group version the server does not serve is an
// error apierrors.IsNotFound recognizes.
//
// The ResourceInfos leave ListKindName empty: discovery does not say what
// a resource's lists are called, and a CRD's list kind is its kind
// followed by "List" unless the CRD names another.
//
// Upstream: k8s.io/client-go/discovery
// (DiscoveryClient.ServerResourcesForGroupVersion).
func (d *DiscoveryClient) ServerResourcesForGroupVersion(ctx context.Context, gv runtime.GroupVersion) ([]runtime.ResourceInfo, error) {
	path := "/apis/" + gv.Group + "/" + gv.Version
	if gv.Group == "" {
		path = "/api/" + gv.Version
	}
	var list metav1.APIResourceList
	if err := d.get(ctx, path, &list); err != nil {
		return nil, err
	}
	return resourceInfos(gv, list.APIResources), nil
}

// ServerPreferredResources returns every resource the server serves, each
// once: at its group's preferred version, or, for a resource the
// preferred version does not serve, at the first version that does.
// Groups come in the server's order (the core group first), and each
// group's resources in their version's order.
//
// If some group versions could not be read, it returns the resources of
// the others together with a *GroupDiscoveryFailedError naming the ones
// that failed: a caller that acts on a resource being absent (the garbage
// collector stopping its watch) must not take a failed group's resources
// for gone. A group version that answers 404 is not a failure: it went
// away after /apis listed it, and serves nothing. Any other error comes
// with no resources.
//
// Upstream: k8s.io/client-go/discovery (ServerPreferredResources), which
// reads the group versions concurrently, and counts a 404 as a failure
// (with a TODO to stop doing so); here they are read one after the other,
// which on one API server costs a few milliseconds.
func (d *DiscoveryClient) ServerPreferredResources(ctx context.Context) ([]runtime.ResourceInfo, error) {
	groups, err := d.ServerGroups(ctx)
	if err != nil {
		return nil, err
	}
	var out []runtime.ResourceInfo
	failed := map[runtime.GroupVersion]error{}
	for _, g := range groups.Groups {
		// chosen maps a resource of the group to its index in out.
		chosen := map[string]int{}
		for _, v := range g.Versions {
			gv := runtime.GroupVersion{Group: g.Name, Version: v.Version}
			infos, err := d.ServerResourcesForGroupVersion(ctx, gv)
			switch {
			case ctx.Err() != nil:
				return nil, err
			case apierrors.IsNotFound(err):
				// Listed by /apis a moment ago, gone now (a CRD deleted
				// in between): it serves nothing, which is no failure.
				continue
			case err != nil:
				failed[gv] = err
				continue
			}
			for _, info := range infos {
				i, seen := chosen[info.GVR.Resource]
				switch {
				case !seen:
					chosen[info.GVR.Resource] = len(out)
					out = append(out, info)
				case v.Version == g.PreferredVersion.Version:
					out[i] = info
				}
			}
		}
	}
	if len(failed) > 0 {
		return out, &GroupDiscoveryFailedError{Groups: failed}
	}
	return out, nil
}

// get reads the discovery document at path into into.
func (d *DiscoveryClient) get(ctx context.Context, path string, into runtime.Object) error {
	return d.client.do(ctx, request{method: http.MethodGet, path: path}, into)
}

// resourceInfos turns the APIResources of gv into ResourceInfos, each
// subresource folded into its resource. A subresource whose resource is
// not listed is dropped: there is nothing to hang it on.
func resourceInfos(gv runtime.GroupVersion, resources []metav1.APIResource) []runtime.ResourceInfo {
	var out []runtime.ResourceInfo
	index := map[string]int{}
	for _, r := range resources {
		if strings.Contains(r.Name, "/") {
			continue
		}
		index[r.Name] = len(out)
		out = append(out, runtime.ResourceInfo{
			GVR:          gv.WithResource(r.Name),
			Kind:         r.Kind,
			SingularName: r.SingularName,
			Namespaced:   r.Namespaced,
			Verbs:        slices.Clone(r.Verbs),
			ShortNames:   slices.Clone(r.ShortNames),
			Categories:   slices.Clone(r.Categories),
		})
	}
	for _, r := range resources {
		resource, sub, ok := strings.Cut(r.Name, "/")
		if !ok {
			continue
		}
		if i, found := index[resource]; found {
			out[i].Subresources = append(out[i].Subresources, sub)
		}
	}
	return out
}

// GroupDiscoveryFailedError says some group versions could not be read:
// the call that returns it also returned the resources of the others.
//
// Upstream: k8s.io/client-go/discovery (ErrGroupDiscoveryFailed).
type GroupDiscoveryFailedError struct {
	// Groups maps each group version that failed to its error.
	Groups map[runtime.GroupVersion]error
}

func (e *GroupDiscoveryFailedError) Error() string {
	parts := make([]string, 0, len(e.Groups))
	for gv, err := range e.Groups {
		parts = append(parts, fmt.Sprintf("%s: %v", gv, err))
	}
	// Sorted, so the same failure always reads the same.
	slices.Sort(parts)
	return "unable to retrieve the complete list of server APIs: " + strings.Join(parts, ", ")
}
