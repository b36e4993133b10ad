package deployment

import (
	"encoding/binary"
	"encoding/json"
	"hash/fnv"
	"maps"
	"reflect"
	"strconv"

	appsv1 "github.com/minicp/minicp/api/apps/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
)

// ComputeHash returns the pod-template-hash of template: the FNV-32a hash
// of a deterministic encoding of the template, with collisionCount (when
// set) mixed in, written in a safe alphabet. It is about ten characters
// and goes into the new ReplicaSet's name, selector and pod labels, so
// ReplicaSets of one Deployment never select each other's pods. The same
// template and collisionCount always give the same hash; bumping
// collisionCount gives another one, which is how a Deployment gets out of
// a name collision.
//
// Upstream: k8s.io/kubernetes/pkg/controller (ComputeHash).
func ComputeHash(template *corev1.PodTemplateSpec, collisionCount *int32) string {
	h := fnv.New32a()
	// encoding/json is deterministic: struct fields in declaration order,
	// map keys sorted. Upstream hashes a spew dump for the same reason.
	b, err := json.Marshal(template)
	if err != nil {
		// Only an unencodable value (a time past year 9999) gets here; its
		// error text is as stable as the template.
		b = []byte(err.Error())
	}
	h.Write(b)
	if collisionCount != nil {
		// Eight bytes with the count in the low four, as upstream.
		buf := make([]byte, 8)
		binary.LittleEndian.PutUint32(buf, uint32(*collisionCount))
		h.Write(buf)
	}
	return safeEncodeString(strconv.FormatUint(uint64(h.Sum32()), 10))
}

// alphanums has no vowels, so that an encoding never spells a word, and
// none of the look-alikes 0, 1, 3 (o, l, e).
//
// Upstream: k8s.io/apimachinery/pkg/util/rand (alphanums).
const alphanums = "bcdfghjklmnpqrstvwxz2456789"

// safeEncodeString maps each character of s to one of alphanums.
//
// Upstream: k8s.io/apimachinery/pkg/util/rand (SafeEncodeString).
func safeEncodeString(s string) string {
	out := make([]byte, 0, len(s))
	for _, r := range s {
		out = append(out, alphanums[int(r)%len(alphanums)])
	}
	return string(out)
}

// EqualIgnoreHash reports whether two pod templates are semantically
// equal once the pod-template-hash label is removed from both: whether a
// ReplicaSet's template is a Deployment's. Semantically means as the API
// sees them: a nil and an empty list or map are equal, and so are
// quantities written differently ("1" and "1000m").
//
// Upstream: k8s.io/kubernetes/pkg/controller/deployment/util (EqualIgnoreHash).
func EqualIgnoreHash(t1, t2 *corev1.PodTemplateSpec) bool {
	a, errA := normalizedTemplate(t1)
	b, errB := normalizedTemplate(t2)
	if errA != nil || errB != nil {
		return false
	}
	return reflect.DeepEqual(a, b)
}

// normalizedTemplate is t without the pod-template-hash label, as its JSON
// decoded generically with empty values removed: the form in which two
// templates the API treats alike are reflect.DeepEqual.
func normalizedTemplate(t *corev1.PodTemplateSpec) (any, error) {
	c := *t
	// Only the labels change: a shallow copy with a fresh label map leaves
	// t (perhaps the cache's) alone.
	c.Labels = maps.Clone(t.Labels)
	delete(c.Labels, appsv1.DefaultDeploymentUniqueLabelKey)
	b, err := json.Marshal(&c)
	if err != nil {
		return nil, err
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, err
	}
	return pruneEmpty(v), nil
}

// pruneEmpty removes nulls, empty maps and empty lists from map values,
// recursively, and returns v.
func pruneEmpty(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			e = pruneEmpty(e)
			if isEmptyJSON(e) {
				delete(v, k)
				continue
			}
			v[k] = e
		}
	case []any:
		for i := range v {
			v[i] = pruneEmpty(v[i])
		}
	}
	return v
}

func isEmptyJSON(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case map[string]any:
		return len(v) == 0
	case []any:
		return len(v) == 0
	}
	return false
}
