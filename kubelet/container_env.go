package kubelet

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/kubelet/cri"
)

// containerEnv resolves c's environment, reading the ConfigMaps and
// Secrets it names from src:
//
//  1. envFrom, source by source: every key of the ConfigMap's data or the
//     Secret's data, after the source's prefix. Every key is kept: the
//     kubelet stopped skipping keys that are not valid variable names
//     (and the InvalidEnvironmentVariableNames event) in Kubernetes 1.30,
//     when names became any printable characters but '=';
//  2. env, in order, replacing a variable of the same name: a value with
//     its $(VAR) references to the variables before it expanded, or a
//     valueFrom: fieldRef, resourceFieldRef, configMapKeyRef, secretKeyRef.
//
// A variable keeps the place it first got. A missing ConfigMap or Secret
// fails with `configmap "x" not found` (`secret "x" not found`) unless its
// reference is optional, a missing key with `couldn't find key k in
// ConfigMap ns/x` unless the key reference is optional; an optional one
// that is missing adds nothing. The caller reports the error as the
// container's CreateContainerConfigError.
//
// Upstream: k8s.io/kubernetes/pkg/kubelet (Kubelet.makeEnvironmentVariables).
func containerEnv(ctx context.Context, pod *corev1.Pod, c *corev1.Container, podIP string, src *configSource) ([]cri.KeyValue, error) {
	var envs []cri.KeyValue
	index := map[string]int{}
	vars := map[string]string{}
	set := func(name, value string) {
		vars[name] = value
		if i, ok := index[name]; ok {
			envs[i].Value = value
			return
		}
		index[name] = len(envs)
		envs = append(envs, cri.KeyValue{Key: name, Value: value})
	}
	for i := range c.EnvFrom {
		from := &c.EnvFrom[i]
		data, err := envFromData(ctx, from, src)
		if err != nil {
			return nil, err
		}
		// Upstream's order is a map's; sorted keys make minicp's stable.
		for _, k := range slices.Sorted(maps.Keys(data)) {
			set(from.Prefix+k, data[k])
		}
	}
	for i := range c.Env {
		e := &c.Env[i]
		value, ok, err := envValue(ctx, pod, c, e, vars, podIP, src)
		if err != nil {
			return nil, err
		}
		if ok {
			set(e.Name, value)
		}
	}
	return envs, nil
}

// envFromData returns the data of an envFrom source: nil for an optional
// one that is missing.
func envFromData(ctx context.Context, from *corev1.EnvFromSource, src *configSource) (map[string]string, error) {
	switch {
	case from.ConfigMapRef != nil:
		cm, err := src.configMap(ctx, from.ConfigMapRef.Name)
		if missingOptional(err, from.ConfigMapRef.Optional) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		return cm.Data, nil
	case from.SecretRef != nil:
		sec, err := src.secret(ctx, from.SecretRef.Name)
		if missingOptional(err, from.SecretRef.Optional) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		data := make(map[string]string, len(sec.Data))
		for k, v := range sec.Data {
			data[k] = string(v)
		}
		return data, nil
	}
	return nil, nil
}

// envValue returns the value of e: its value with $(VAR) references to
// vars expanded, or its valueFrom resolved. ok is false when e refers,
// optionally, to something missing: the variable is not set.
func envValue(ctx context.Context, pod *corev1.Pod, c *corev1.Container, e *corev1.EnvVar, vars map[string]string, podIP string,
	src *configSource) (value string, ok bool, err error) {
	from := e.ValueFrom
	if e.Value != "" || from == nil {
		return expand(e.Value, vars), true, nil
	}
	switch {
	case from.FieldRef != nil:
		value, err = podField(pod, from.FieldRef.FieldPath, podIP)
		return value, err == nil, err
	case from.ResourceFieldRef != nil:
		value, err = resourceField(c, from.ResourceFieldRef)
		return value, err == nil, err
	case from.ConfigMapKeyRef != nil:
		ref := from.ConfigMapKeyRef
		cm, err := src.configMap(ctx, ref.Name)
		if err != nil {
			return "", false, ignoreMissingOptional(err, ref.Optional)
		}
		if value, ok := cm.Data[ref.Key]; ok {
			return value, true, nil
		}
		if isTrue(ref.Optional) {
			return "", false, nil
		}
		return "", false, fmt.Errorf("couldn't find key %s in ConfigMap %s/%s", ref.Key, pod.Namespace, ref.Name)
	case from.SecretKeyRef != nil:
		ref := from.SecretKeyRef
		sec, err := src.secret(ctx, ref.Name)
		if err != nil {
			return "", false, ignoreMissingOptional(err, ref.Optional)
		}
		if value, ok := sec.Data[ref.Key]; ok {
			return string(value), true, nil
		}
		if isTrue(ref.Optional) {
			return "", false, nil
		}
		return "", false, fmt.Errorf("couldn't find key %s in Secret %s/%s", ref.Key, pod.Namespace, ref.Name)
	}
	return "", true, nil
}

// podField is the value of a downward API fieldRef.
func podField(pod *corev1.Pod, path, podIP string) (string, error) {
	switch path {
	case "metadata.name":
		return pod.Name, nil
	case "metadata.namespace":
		return pod.Namespace, nil
	case "metadata.uid":
		return pod.UID, nil
	case "spec.nodeName":
		return pod.Spec.NodeName, nil
	case "spec.serviceAccountName":
		return pod.Spec.ServiceAccountName, nil
	case "status.hostIP", "status.hostIPs":
		return NodeIP, nil
	case "status.podIP", "status.podIPs":
		return podIP, nil
	}
	for prefix, m := range map[string]map[string]string{"metadata.labels": pod.Labels, "metadata.annotations": pod.Annotations} {
		if key, ok := strings.CutPrefix(path, prefix+"['"); ok && strings.HasSuffix(key, "']") {
			return m[strings.TrimSuffix(key, "']")], nil
		}
	}
	return "", fmt.Errorf("unsupported fieldPath: %s", path)
}

// resourceField is the value of a downward API resourceFieldRef: the
// container's limit or request, in units of the divisor (default 1).
func resourceField(c *corev1.Container, ref *corev1.ResourceFieldSelector) (string, error) {
	kind, name, ok := strings.Cut(ref.Resource, ".")
	if !ok || (kind != "limits" && kind != "requests") {
		return "", fmt.Errorf("unsupported container resource: %s", ref.Resource)
	}
	list := c.Resources.Limits
	if kind == "requests" {
		list = c.Resources.Requests
	}
	q, ok := list[corev1.ResourceName(name)]
	if !ok {
		return "0", nil
	}
	divisor := ref.Divisor.MilliValue()
	if divisor == 0 {
		divisor = 1000
	}
	// Round up, as upstream's ExtractContainerResourceValue does.
	return strconv.FormatInt((q.MilliValue()+divisor-1)/divisor, 10), nil
}

func expandAll(in []string, vars map[string]string) []string {
	if in == nil {
		return nil
	}
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = expand(s, vars)
	}
	return out
}

// expand replaces $(VAR) with the variable's value, leaves references to
// unknown variables as they are and turns $$ into $.
//
// Upstream: k8s.io/kubernetes/third_party/forked/golang/expansion (Expand).
func expand(s string, vars map[string]string) string {
	if !strings.Contains(s, "$") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '$' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		switch s[i+1] {
		case '$':
			b.WriteByte('$')
			i++
		case '(':
			end := strings.IndexByte(s[i+2:], ')')
			if end < 0 {
				b.WriteString(s[i:])
				return b.String()
			}
			name := s[i+2 : i+2+end]
			if v, ok := vars[name]; ok {
				b.WriteString(v)
			} else {
				b.WriteString(s[i : i+3+end])
			}
			i += 2 + end
		default:
			b.WriteByte('$')
		}
	}
	return b.String()
}
