package strategicpatch

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	kcorev1 "k8s.io/api/core/v1"
	kstrategicpatch "k8s.io/apimachinery/pkg/util/strategicpatch"
)

// randomRounds is how many random (last-applied, modified, live) triples
// each test tries. Fixed seeds keep failures reproducible.
const randomRounds = 1500

// TestApplyPatchesMatchUpstream makes patches the way kubectl apply does
// (upstream CreateThreeWayMergePatch from the last-applied manifest, the
// new manifest and the live object) and the way controllers and kubectl
// edit do (CreateTwoWayMergePatch from the live object to the edited one),
// and applies them to the live object with both implementations.
func TestApplyPatchesMatchUpstream(t *testing.T) {
	podMeta, err := kstrategicpatch.NewPatchMetaFromStruct(&kcorev1.Pod{})
	require.NoError(t, err)
	nodeMeta, err := kstrategicpatch.NewPatchMetaFromStruct(&kcorev1.Node{})
	require.NoError(t, err)
	gens := []struct {
		kind kind
		meta kstrategicpatch.LookupPatchMeta
		gen  func(*gen) map[string]any
		live func(*gen, map[string]any) map[string]any
	}{
		{podKind, podMeta, (*gen).pod, (*gen).livePod},
		{nodeKind, nodeMeta, (*gen).node, (*gen).liveNode},
	}
	for _, g := range gens {
		t.Run(g.kind.name, func(t *testing.T) {
			r := &gen{rand.New(rand.NewPCG(1, 2))}
			failures := 0
			for i := range randomRounds {
				last := g.gen(r)
				modified := r.mix(last, g.gen(r))
				live := g.live(r, r.mix(last, g.gen(r)))
				lastJSON, modifiedJSON, liveJSON := mustJSON(t, last), mustJSON(t, modified), mustJSON(t, live)
				patches := map[string][]byte{}
				if p, err := kstrategicpatch.CreateThreeWayMergePatch(lastJSON, modifiedJSON, liveJSON, g.meta, true); err == nil {
					patches["three-way"] = p
				}
				edited := g.live(r, r.mix(live, g.gen(r)))
				if p, err := kstrategicpatch.CreateTwoWayMergePatch(liveJSON, mustJSON(t, edited), g.kind.k8s()); err == nil {
					patches["two-way"] = p
				}
				for how, patch := range patches {
					if diff, _ := check(g.kind, liveJSON, patch); diff != "" && failures < 5 {
						failures++
						t.Errorf("round %d, %s patch: %s\nlive  %s\npatch %s", i, how, diff, liveJSON, patch)
					}
				}
			}
		})
	}
}

// TestDirectivePatchesMatchUpstream applies random patches full of
// directives, nulls and odd values, most of which no client would send, to
// random live objects.
func TestDirectivePatchesMatchUpstream(t *testing.T) {
	for _, k := range []struct {
		kind kind
		gen  func(*gen) map[string]any
		live func(*gen, map[string]any) map[string]any
	}{{podKind, (*gen).pod, (*gen).livePod}, {nodeKind, (*gen).node, (*gen).liveNode}} {
		t.Run(k.kind.name, func(t *testing.T) {
			r := &gen{rand.New(rand.NewPCG(3, 4))}
			failures, errs := 0, 0
			for i := range randomRounds {
				live := mustJSON(t, k.live(r, k.gen(r)))
				patch := mustJSON(t, r.patchOf(k.gen(r), 0))
				diff, want := check(k.kind, live, patch)
				if want.err != nil {
					errs++
				}
				if diff != "" && failures < 5 {
					failures++
					t.Errorf("round %d: %s\nlive  %s\npatch %s", i, diff, live, patch)
				}
			}
			// The generator should make both good and bad patches.
			if errs == 0 || errs == randomRounds {
				t.Errorf("%d of %d random patches failed upstream; tune the generator", errs, randomRounds)
			}
		})
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	data, err := json.Marshal(v)
	require.NoError(t, err)
	return data
}

// gen makes random objects as JSON values (map[string]any).
type gen struct{ r *rand.Rand }

func (g *gen) chance(p float64) bool { return g.r.Float64() < p }

func (g *gen) pick(options ...string) string { return options[g.r.IntN(len(options))] }

// subset returns a random subset of options in random order.
func (g *gen) subset(options ...string) []string {
	out := slices.Clone(options)
	g.r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out[:g.r.IntN(len(out)+1)]
}

func anyList[T any](items []T) []any {
	out := make([]any, len(items))
	for i, v := range items {
		out[i] = v
	}
	return out
}

// mix returns a copy of base with each top-level section of its metadata
// and spec replaced, with some chance, by other's.
func (g *gen) mix(base, other map[string]any) map[string]any {
	out := deepCopy(base).(map[string]any)
	for _, section := range []string{"metadata", "spec"} {
		b, _ := out[section].(map[string]any)
		o, _ := other[section].(map[string]any)
		if b == nil || o == nil {
			continue
		}
		for _, k := range slices.Sorted(keys(o)) {
			if g.chance(0.3) {
				b[k] = deepCopy(o[k])
			}
		}
		for _, k := range slices.Sorted(keys(b)) {
			if _, ok := o[k]; !ok && g.chance(0.2) {
				delete(b, k)
			}
		}
		if c, ok := b["containers"].([]any); ok && g.chance(0.5) {
			// Change one container in place, as most applies do.
			oc, _ := o["containers"].([]any)
			if len(c) > 0 && len(oc) > 0 {
				bc := c[g.r.IntN(len(c))].(map[string]any)
				src := oc[g.r.IntN(len(oc))].(map[string]any)
				for _, k := range slices.Sorted(keys(src)) {
					if k != "name" && g.chance(0.5) {
						bc[k] = deepCopy(src[k])
					}
				}
			}
		}
	}
	return out
}

func keys(m map[string]any) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func deepCopy(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = deepCopy(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = deepCopy(e)
		}
		return out
	}
	return v
}

// pod is a random pod manifest, as a user writes one.
func (g *gen) pod() map[string]any {
	meta := map[string]any{"name": "web", "namespace": "default"}
	if l := g.subset("app", "tier", "version"); len(l) > 0 {
		labels := map[string]any{}
		for _, k := range l {
			labels[k] = g.pick("a", "b")
		}
		meta["labels"] = labels
	}
	if a := g.subset("note", "owner"); len(a) > 0 {
		ann := map[string]any{}
		for _, k := range a {
			ann[k] = g.pick("x", "y")
		}
		meta["annotations"] = ann
	}
	if f := g.subset("a.io/f", "b.io/f", "c.io/f"); len(f) > 0 {
		meta["finalizers"] = anyList(f)
	}
	spec := map[string]any{}
	var containers []any
	for _, name := range g.subset("web", "log", "proxy") {
		containers = append(containers, g.container(name))
	}
	if len(containers) == 0 {
		containers = append(containers, g.container("web"))
	}
	spec["containers"] = containers
	if g.chance(0.3) {
		spec["initContainers"] = []any{g.container("init")}
	}
	if v := g.subset("cache", "cfg", "data"); len(v) > 0 {
		var volumes []any
		for _, name := range v {
			volumes = append(volumes, g.volume(name))
		}
		spec["volumes"] = volumes
	}
	if tol := g.subset("dedicated", "gpu", "spot"); len(tol) > 0 {
		var tolerations []any
		for _, k := range tol {
			tolerations = append(tolerations, map[string]any{"key": k, "operator": "Exists", "effect": g.pick("NoSchedule", "NoExecute")})
		}
		spec["tolerations"] = tolerations
	}
	if g.chance(0.4) {
		spec["nodeSelector"] = map[string]any{"disk": g.pick("ssd", "hdd")}
	}
	if s := g.subset("reg1", "reg2"); len(s) > 0 {
		var secrets []any
		for _, name := range s {
			secrets = append(secrets, map[string]any{"name": name})
		}
		spec["imagePullSecrets"] = secrets
	}
	if g.chance(0.3) {
		spec["securityContext"] = map[string]any{"runAsUser": int64(g.r.IntN(3)), "supplementalGroups": anyList([]int64{1, int64(g.r.IntN(3))})}
	}
	return map[string]any{"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec}
}

func (g *gen) container(name string) map[string]any {
	c := map[string]any{"name": name, "image": name + ":" + g.pick("1", "2", "3")}
	if g.chance(0.3) {
		c["args"] = anyList(g.subset("-v", "-q", "--x"))
	}
	if e := g.subset("A", "B", "C", "D"); len(e) > 0 {
		var env []any
		for _, k := range e {
			if g.chance(0.2) {
				env = append(env, map[string]any{"name": k, "valueFrom": map[string]any{"fieldRef": map[string]any{"fieldPath": "status.podIP"}}})
			} else {
				env = append(env, map[string]any{"name": k, "value": g.pick("1", "2")})
			}
		}
		c["env"] = env
	}
	if p := g.subset("80", "443", "8080"); len(p) > 0 {
		var ports []any
		for _, n := range p {
			port := map[string]any{"containerPort": map[string]int64{"80": 80, "443": 443, "8080": 8080}[n]}
			if g.chance(0.5) {
				port["name"] = "p" + n
			}
			if g.chance(0.3) {
				port["protocol"] = g.pick("TCP", "UDP")
			}
			ports = append(ports, port)
		}
		c["ports"] = ports
	}
	if m := g.subset("/cache", "/cfg", "/data"); len(m) > 0 {
		var mounts []any
		for _, path := range m {
			mount := map[string]any{"mountPath": path, "name": path[1:]}
			if g.chance(0.3) {
				mount["readOnly"] = true
			}
			mounts = append(mounts, mount)
		}
		c["volumeMounts"] = mounts
	}
	if g.chance(0.3) {
		c["resources"] = map[string]any{"requests": map[string]any{"cpu": g.pick("100m", "200m")}}
	}
	return c
}

func (g *gen) volume(name string) map[string]any {
	v := map[string]any{"name": name}
	switch g.r.IntN(3) {
	case 0:
		v["emptyDir"] = map[string]any{}
	case 1:
		v["hostPath"] = map[string]any{"path": "/" + g.pick("a", "b")}
	default:
		v["configMap"] = map[string]any{"name": g.pick("a", "b")}
	}
	return v
}

// livePod is manifest as the server stores it: defaulted, with what other
// writers added (a webhook's env var and sidecar, a controller's
// finalizer) and a status.
func (g *gen) livePod(manifest map[string]any) map[string]any {
	pod := deepCopy(manifest).(map[string]any)
	meta := pod["metadata"].(map[string]any)
	meta["uid"], meta["resourceVersion"] = "u1", "42"
	if g.chance(0.5) {
		f, _ := meta["finalizers"].([]any)
		meta["finalizers"] = append(f, "server.io/f")
	}
	spec := pod["spec"].(map[string]any)
	containers := spec["containers"].([]any)
	for _, c := range containers {
		c := c.(map[string]any)
		c["terminationMessagePath"] = "/dev/termination-log"
		c["imagePullPolicy"] = "IfNotPresent"
		if g.chance(0.3) {
			env, _ := c["env"].([]any)
			c["env"] = append(env, map[string]any{"name": "INJECTED", "value": "1"})
		}
	}
	if g.chance(0.3) {
		spec["containers"] = append(containers, map[string]any{"name": "istio-proxy", "image": "envoy"})
	}
	if g.chance(0.5) {
		v, _ := spec["volumes"].([]any)
		spec["volumes"] = append(v, map[string]any{"name": "kube-api-access", "projected": map[string]any{"sources": []any{}}})
	}
	spec["restartPolicy"], spec["dnsPolicy"] = "Always", "ClusterFirst"
	if g.chance(0.5) {
		t, _ := spec["tolerations"].([]any)
		spec["tolerations"] = append(t, map[string]any{"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": int64(300)})
	}
	var conditions []any
	for _, c := range g.subset("PodScheduled", "Initialized", "Ready") {
		conditions = append(conditions, map[string]any{"type": c, "status": g.pick("True", "False")})
	}
	pod["status"] = map[string]any{"phase": "Running", "conditions": conditions, "podIPs": []any{map[string]any{"ip": "10.0.0.1"}}}
	return pod
}

// node is a random node as a kubelet reports it.
func (g *gen) node() map[string]any {
	meta := map[string]any{"name": "n1"}
	labels := map[string]any{"kubernetes.io/hostname": "n1"}
	for _, k := range g.subset("zone", "role", "gpu") {
		labels[k] = g.pick("a", "b")
	}
	meta["labels"] = labels
	spec := map[string]any{}
	if c := g.subset("10.0.0.0/24", "fd00::/64"); len(c) > 0 {
		spec["podCIDRs"] = anyList(c)
	}
	if t := g.subset("dedicated", "spot"); len(t) > 0 {
		var taints []any
		for _, k := range t {
			taints = append(taints, map[string]any{"key": k, "effect": g.pick("NoSchedule", "NoExecute")})
		}
		spec["taints"] = taints
	}
	if g.chance(0.2) {
		spec["unschedulable"] = true
	}
	status := map[string]any{"capacity": map[string]any{"cpu": g.pick("2", "4"), "pods": "110"}}
	var conditions []any
	for _, c := range g.subset("Ready", "MemoryPressure", "DiskPressure", "PIDPressure") {
		conditions = append(conditions, map[string]any{
			"type": c, "status": g.pick("True", "False", "Unknown"),
			"lastHeartbeatTime": fmt.Sprintf("2024-06-10T06:%02d:00Z", g.r.IntN(60)), "reason": g.pick("A", "B"),
		})
	}
	if len(conditions) > 0 {
		status["conditions"] = conditions
	}
	var addresses []any
	for _, a := range g.subset("InternalIP", "Hostname", "ExternalIP") {
		addresses = append(addresses, map[string]any{"type": a, "address": g.pick("10.0.0.1", "n1", "1.2.3.4")})
	}
	if len(addresses) > 0 {
		status["addresses"] = addresses
	}
	return map[string]any{"apiVersion": "v1", "kind": "Node", "metadata": meta, "spec": spec, "status": status}
}

func (g *gen) liveNode(node map[string]any) map[string]any {
	out := deepCopy(node).(map[string]any)
	out["metadata"].(map[string]any)["uid"] = "n-uid"
	return out
}

// patchOf turns a random object into a random patch: it nulls keys,
// sprinkles directives and drops merge keys, each with some chance.
func (g *gen) patchOf(v any, depth int) any {
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for _, k := range slices.Sorted(keys(v)) {
			switch {
			case g.chance(0.3):
				continue
			case g.chance(0.05):
				out[k] = nil
			default:
				out[k] = g.patchOf(v[k], depth+1)
			}
			if list, ok := v[k].([]any); ok && g.chance(0.1) {
				out["$setElementOrder/"+k] = g.orderOf(list)
			}
			if _, ok := v[k].([]any); ok && g.chance(0.03) {
				out["$deleteFromPrimitiveList/"+k] = anyList(g.subset("a.io/f", "b.io/f", "10.0.0.0/24"))
			}
		}
		switch {
		case depth > 0 && g.chance(0.02):
			out[directiveMarker] = g.pick("replace", "delete", "replace", "merge")
		case depth > 0 && g.chance(0.02):
			retain := anyList(slices.Sorted(keys(out)))
			if g.chance(0.7) {
				retain = append(retain, "name")
			}
			out["$retainKeys"] = retain
		}
		return out
	case []any:
		var out []any
		for _, e := range v {
			if g.chance(0.2) {
				continue
			}
			e = g.patchOf(e, depth+1)
			if m, ok := e.(map[string]any); ok && g.chance(0.1) {
				m[directiveMarker] = g.pick("delete", "delete", "replace", "merge")
			}
			out = append(out, e)
		}
		if out == nil {
			out = []any{}
		}
		return out
	}
	return v
}

// orderOf is a $setElementOrder list for list: its merge keys, mostly.
func (g *gen) orderOf(list []any) []any {
	out := []any{}
	for _, e := range list {
		if m, ok := e.(map[string]any); ok {
			item := map[string]any{}
			for _, k := range []string{"name", "type", "containerPort", "mountPath", "ip"} {
				if v, ok := m[k]; ok {
					item[k] = v
					break
				}
			}
			out = append(out, item)
		} else {
			out = append(out, e)
		}
	}
	g.r.Shuffle(len(out), func(i, j int) {
		if g.chance(0.3) {
			out[i], out[j] = out[j], out[i]
		}
	})
	return out
}

const directiveMarker = "$patch"
