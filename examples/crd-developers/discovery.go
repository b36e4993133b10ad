package main

import (
	"context"
	"fmt"
	"slices"
	"strings"

	metav1 "github.com/minicp/minicp/api/meta/v1"
)

// resource is what a word of `kubectl get <word>` resolved to.
type resource struct {
	groupVersion string // "example.com/v1", or "v1" for the core group
	api          metav1.APIResource
	// matched says how the word matched: "plural", "singular" or "short
	// name".
	matched string
}

// path is the URL of the resource's objects in namespace ns, or of the
// object name when it is not empty.
func (r resource) path(ns, name string) string {
	p := "/apis/" + r.groupVersion
	if r.groupVersion == "v1" {
		p = "/api/v1"
	}
	if r.api.Namespaced {
		p += "/namespaces/" + ns
	}
	p += "/" + r.api.Name
	if name != "" {
		p += "/" + name
	}
	return p
}

// group is the resource's API group, "" for the core group.
func (r resource) group() string {
	group, _, found := strings.Cut(r.groupVersion, "/")
	if !found {
		return ""
	}
	return group
}

// String is the resource as kubectl names it: plural.group.
func (r resource) String() string {
	if g := r.group(); g != "" {
		return r.api.Name + "." + g
	}
	return r.api.Name
}

// resolve finds the resource word names, as kubectl's REST mapper does:
// it reads discovery (/api/v1, then /apis and each group's preferred
// version) and matches the short names first, then the plural and the
// singular. A custom resource is found the same way as a built-in one:
// installing its CRD added it to discovery.
//
// Upstream: k8s.io/client-go/restmapper (shortcutExpander,
// DeferredDiscoveryRESTMapper).
func (r rest) resolve(ctx context.Context, word string) (resource, error) {
	lists, err := r.discover(ctx)
	if err != nil {
		return resource{}, err
	}
	// Short names win, as in kubectl: "po" is pods whatever else exists.
	for _, match := range []string{"short name", "plural", "singular"} {
		for _, l := range lists {
			for _, api := range l.APIResources {
				var hit bool
				switch match {
				case "short name":
					hit = slices.Contains(api.ShortNames, word)
				case "plural":
					hit = api.Name == word
				case "singular":
					hit = api.SingularName == word
				}
				if hit {
					return resource{groupVersion: l.GroupVersion, api: api, matched: match}, nil
				}
			}
		}
	}
	return resource{}, fmt.Errorf("the server doesn't have a resource type %q", word)
}

// discover reads the resource lists of the core group and of every
// group's preferred version.
func (r rest) discover(ctx context.Context) ([]metav1.APIResourceList, error) {
	var core metav1.APIResourceList
	if err := r.getJSON(ctx, "/api/v1", &core); err != nil {
		return nil, err
	}
	lists := []metav1.APIResourceList{core}
	var groups metav1.APIGroupList
	if err := r.getJSON(ctx, "/apis", &groups); err != nil {
		return nil, err
	}
	for _, g := range groups.Groups {
		var l metav1.APIResourceList
		if err := r.getJSON(ctx, "/apis/"+g.PreferredVersion.GroupVersion, &l); err != nil {
			return nil, err
		}
		lists = append(lists, l)
	}
	return lists, nil
}
