// Package strategicpatch applies strategic merge patches: the JSON merge
// patch variant that `kubectl apply`, `kubectl edit`, `kubectl patch` (by
// default), `kubectl set image` and `kubectl rollout restart` send as
// application/strategic-merge-patch+json.
//
// It sits on the write path of the API server: the PATCH handler encodes
// the stored object to JSON, calls StrategicMergePatch inside the storage
// retry loop with the object's Go type as the schema, and decodes the
// result. The schema is read from the `patchStrategy` and `patchMergeKey`
// struct tags of api/core/v1 and api/meta/v1, which carry the same values
// as k8s.io/api (compat/strategicpatch checks both the tags and the
// merge results against upstream).
//
// A strategic merge patch is a JSON merge patch (RFC 7386) in which:
//
//   - a list whose field is tagged patchStrategy:"merge" with a
//     patchMergeKey is merged item by item, matching items by the key
//     (containers by name, env by name, ports by containerPort); a tagged
//     list of primitives (finalizers) is merged as a set; every other list
//     is replaced, as in a JSON merge patch;
//   - a field tagged patchStrategy:"replace" is replaced whole;
//   - directives adjust the merge: {"$patch": "replace"} or
//     {"$patch": "delete"} in a map replaces or deletes it, and in a list
//     item {"name": "x", "$patch": "delete"} deletes that item and
//     {"$patch": "replace"} replaces the whole list; "$setElementOrder/f"
//     gives the order of list f after the merge;
//     "$deleteFromPrimitiveList/f" lists values to remove from primitive
//     list f; "$retainKeys" lists the only keys the map keeps.
//
// Fields the schema does not know (and the values of maps) have no tags,
// so their lists are replaced and their maps merged, as in a JSON merge
// patch.
//
// The result is upstream's byte for byte, list order included: items a
// patch adds to a merge list go before the items only the original has
// (unless $setElementOrder says otherwise), and the order follows
// upstream's in-place slice writes where those decide it. Two
// differences: where upstream fails because the patch names a field the Go
// type lacks, this package merges that field as described above; where
// upstream panics (a null list item, an object as merge key), it returns
// an error.
//
// Upstream: k8s.io/apimachinery/pkg/util/strategicpatch (StrategicMergePatch),
// and the design in
// https://github.com/kubernetes/community/blob/master/contributors/devel/sig-api-machinery/strategic-merge-patch.md.
package strategicpatch
