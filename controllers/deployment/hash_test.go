package deployment

import (
	"log/slog"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	appsv1 "github.com/minicp/minicp/api/apps/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/intstr"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/resource"
	"github.com/minicp/minicp/api/runtime"
)

func template(image string, labels map[string]string) *corev1.PodTemplateSpec {
	return &corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: labels},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: image}}},
	}
}

func ptr[T any](v T) *T { return &v }

// TestComputeHashIsStable: the hash depends on the template and
// collisionCount only; not on map order, not on the process. The golden
// value pins the encoding, so that it changes only on purpose: a new hash
// for the same template names the Deployment's next ReplicaSet
// differently. (It does not roll existing Deployments out again: their
// current ReplicaSet is found by template, EqualIgnoreHash.) It last
// changed when the JSON tags became upstream's, which write the
// container's "resources": {}.
func TestComputeHashIsStable(t *testing.T) {
	base := template("nginx:1.25", map[string]string{"app": "web", "tier": "front", "zone": "a"})
	h := ComputeHash(base, nil)
	assert.Equal(t, "6d7f565794", h, "golden hash")
	assert.LessOrEqual(t, len(h), 10)
	for _, r := range h {
		assert.Contains(t, alphanums, string(r), "hash %q uses the safe alphabet", h)
	}

	// The same labels inserted in another order.
	reordered := template("nginx:1.25", map[string]string{})
	for _, k := range []string{"zone", "tier", "app"} {
		reordered.Labels[k] = base.Labels[k]
	}
	assert.Equal(t, h, ComputeHash(reordered, nil), "map order does not matter")
	copied := runtime.DeepCopy(base)
	assert.Equal(t, h, ComputeHash(copied, nil))

	tests := []struct {
		name      string
		template  *corev1.PodTemplateSpec
		collision *int32
	}{
		{"another image", template("nginx:1.26", base.Labels), nil},
		{"another label", template("nginx:1.25", map[string]string{"app": "web"}), nil},
		{"collisionCount 0", base, ptr(int32(0))},
		{"collisionCount 1", base, ptr(int32(1))},
		{"collisionCount 2", base, ptr(int32(2))},
	}
	seen := map[string]string{h: "base"}
	for _, tc := range tests {
		got := ComputeHash(tc.template, tc.collision)
		if prev, dup := seen[got]; dup {
			t.Errorf("%s hashes like %s: %s", tc.name, prev, got)
		}
		seen[got] = tc.name
		assert.Equal(t, got, ComputeHash(tc.template, tc.collision), "%s: stable", tc.name)
	}
}

// TestEqualIgnoreHash: templates are compared as the API sees them,
// without the pod-template-hash label.
func TestEqualIgnoreHash(t *testing.T) {
	withHash := template("nginx", map[string]string{"app": "web", appsv1.DefaultDeploymentUniqueLabelKey: "abc"})
	tests := []struct {
		name string
		a, b *corev1.PodTemplateSpec
		want bool
	}{
		{"hash label ignored", withHash, template("nginx", map[string]string{"app": "web"}), true},
		{"different hashes ignored", withHash, template("nginx", map[string]string{"app": "web", appsv1.DefaultDeploymentUniqueLabelKey: "xyz"}), true},
		{"only the hash label vs none", template("nginx", map[string]string{appsv1.DefaultDeploymentUniqueLabelKey: "abc"}), template("nginx", nil), true},
		{"another image", withHash, template("nginx:2", map[string]string{"app": "web"}), false},
		{"another label", withHash, template("nginx", map[string]string{"app": "db"}), false},
		{"nil and empty env", func() *corev1.PodTemplateSpec {
			tp := template("nginx", nil)
			tp.Spec.Containers[0].Env = []corev1.EnvVar{}
			return tp
		}(), template("nginx", map[string]string{}), true},
		{"quantities written differently", func() *corev1.PodTemplateSpec {
			tp := template("nginx", nil)
			tp.Spec.Containers[0].Resources.Requests = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1")}
			return tp
		}(), func() *corev1.PodTemplateSpec {
			tp := template("nginx", nil)
			tp.Spec.Containers[0].Resources.Requests = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1000m")}
			return tp
		}(), true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, EqualIgnoreHash(tc.a, tc.b), "a vs b")
			assert.Equal(t, tc.want, EqualIgnoreHash(tc.b, tc.a), "b vs a")
		})
	}
	assert.Equal(t, "abc", withHash.Labels[appsv1.DefaultDeploymentUniqueLabelKey], "the arguments are not modified")
}

// TestResolveFenceposts: maxSurge rounds up, maxUnavailable down, and
// both 0 make maxUnavailable 1.
func TestResolveFenceposts(t *testing.T) {
	pct := func(s string) *intstr.IntOrString { return ptr(intstr.FromString(s)) }
	num := func(n int32) *intstr.IntOrString { return ptr(intstr.FromInt32(n)) }
	tests := []struct {
		name                  string
		surge, unavailable    *intstr.IntOrString
		desired               int32
		wantSurge, wantUnavbl int32
		wantErr               bool
	}{
		{"25% of 10", pct("25%"), pct("25%"), 10, 3, 2, false},
		{"25% of 4", pct("25%"), pct("25%"), 4, 1, 1, false},
		{"25% of 1: unavailable rounds to 0", pct("25%"), pct("25%"), 1, 1, 0, false},
		{"both round to 0", pct("10%"), pct("10%"), 0, 0, 1, false},
		{"0 surge, 10% of 5 unavailable", num(0), pct("10%"), 5, 0, 1, false},
		{"counts", num(2), num(1), 6, 2, 1, false},
		{"unset", nil, nil, 3, 0, 1, false},
		{"not a percentage", pct("x"), num(1), 3, 0, 0, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, u, err := resolveFenceposts(tc.surge, tc.unavailable, tc.desired)
			if tc.wantErr {
				assert.Error(t, err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, [2]int32{tc.wantSurge, tc.wantUnavbl}, [2]int32{s, u})
		})
	}
}

// TestRevisionHistoryStaysBounded: a ReplicaSet rolled back to again and
// again keeps its latest revisions within the annotation's limit.
func TestRevisionHistoryStaysBounded(t *testing.T) {
	rs := &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{}}}
	log := slog.New(slog.DiscardHandler)
	for i := 1; i <= 1000; i++ {
		appendRevisionHistory(log, rs, strings.Repeat("9", 5)+strconv.Itoa(i))
	}
	history := rs.Annotations[RevisionHistoryAnnotation]
	assert.LessOrEqual(t, len(history), maxRevHistoryLengthInChars)
	assert.True(t, strings.HasSuffix(history, ",999991000"), "the latest revision is last: ...%s", history[len(history)-30:])
	assert.False(t, strings.HasPrefix(history, "999991,"), "the oldest ones were dropped")
}
