package kubelet

import (
	"context"
	"errors"
	"fmt"
	"path"
	"strings"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/kubelet/cri"
)

// volumeFiles are the files of one volume, by path relative to its root.
type volumeFiles map[string]string

// setUpVolumes makes sure st.volumes holds the files of the pod's
// configMap, secret and projected volumes as the API has them now,
// reading them once per sync (st.volumes is cleared at the start of
// each). A volume that cannot be set up (a missing ConfigMap or Secret
// that is not optional, a missing key it lists) is a FailedMount event,
// in upstream's words, and a retry after retryPeriod; it reports whether
// the volumes are set up.
//
// Other volumes (emptyDir, hostPath, downwardAPI, ...) have no files in
// minicp: their mounts are left out of the containers. A projected
// volume's service account token is requested from the API server, and
// its downward API files hold the pod's fields.
//
// Upstream: k8s.io/kubernetes/pkg/kubelet/volumemanager
// (WaitForAttachAndMount) and the configmap, secret and projected volume
// plugins' SetUpAt.
func (k *Kubelet) setUpVolumes(ctx context.Context, pod *corev1.Pod, st *podState, res *syncResult) bool {
	if st.volumes != nil {
		return true
	}
	src := newConfigSource(k.cs, pod.Namespace)
	volumes := map[string]volumeFiles{}
	ok := true
	for _, v := range pod.Spec.Volumes {
		files, err := volumeFilesOf(ctx, &v, pod, src)
		if err != nil {
			if ctx.Err() != nil {
				return false
			}
			k.event(pod, corev1.EventTypeWarning, "FailedMount", "MountVolume.SetUp failed for volume %q : %v", v.Name, err)
			ok = false
			continue
		}
		if files != nil {
			volumes[v.Name] = files
		}
	}
	if !ok {
		res.wakeAtOrEarlier(k.clock.Now().Add(retryPeriod))
		return false
	}
	st.volumes = volumes
	return true
}

// volumeFilesOf returns the files of v, or nil for a kind of volume
// minicp has no files for.
func volumeFilesOf(ctx context.Context, v *corev1.Volume, pod *corev1.Pod, src *configSource) (volumeFiles, error) {
	files := volumeFiles{}
	switch {
	case v.ConfigMap != nil:
		return files, addConfigMap(ctx, files, v.ConfigMap.Name, v.ConfigMap.Items, v.ConfigMap.Optional, src)
	case v.Secret != nil:
		return files, addSecret(ctx, files, v.Secret.SecretName, v.Secret.Items, v.Secret.Optional, src)
	case v.Projected != nil:
		var errs []error
		for _, p := range v.Projected.Sources {
			switch {
			case p.ConfigMap != nil:
				errs = append(errs, addConfigMap(ctx, files, p.ConfigMap.Name, p.ConfigMap.Items, p.ConfigMap.Optional, src))
			case p.Secret != nil:
				errs = append(errs, addSecret(ctx, files, p.Secret.Name, p.Secret.Items, p.Secret.Optional, src))
			case p.ServiceAccountToken != nil:
				errs = append(errs, addServiceAccountToken(ctx, files, pod, p.ServiceAccountToken, src.cs))
			case p.DownwardAPI != nil:
				errs = append(errs, addDownwardAPI(files, pod, p.DownwardAPI.Items))
			}
		}
		return files, errors.Join(errs...)
	}
	return nil, nil
}

// addConfigMap adds the ConfigMap's keys to files: every key of data and
// binaryData, or the items listed, each at its path.
//
// Upstream: k8s.io/kubernetes/pkg/volume/configmap (MakePayload).
func addConfigMap(ctx context.Context, files volumeFiles, name string, items []corev1.KeyToPath, optional *bool, src *configSource) error {
	cm, err := src.configMap(ctx, name)
	if missingOptional(err, optional) {
		return nil
	}
	if err != nil {
		return err
	}
	data := make(map[string]string, len(cm.Data)+len(cm.BinaryData))
	for k, v := range cm.BinaryData {
		data[k] = string(v)
	}
	for k, v := range cm.Data {
		data[k] = v
	}
	return project(files, data, items, optional, "configmap references non-existent config key: %s")
}

// addSecret adds the Secret's keys to files, as addConfigMap does.
//
// Upstream: k8s.io/kubernetes/pkg/volume/secret (MakePayload).
func addSecret(ctx context.Context, files volumeFiles, name string, items []corev1.KeyToPath, optional *bool, src *configSource) error {
	sec, err := src.secret(ctx, name)
	if missingOptional(err, optional) {
		return nil
	}
	if err != nil {
		return err
	}
	data := make(map[string]string, len(sec.Data))
	for k, v := range sec.Data {
		data[k] = string(v)
	}
	return project(files, data, items, optional, "references non-existent secret key: %s")
}

// project adds data to files: all of it, each key a file, or the items,
// each key at its path. A listed key that is missing is skipped if the
// source is optional and an error (missingKey) otherwise.
func project(files volumeFiles, data map[string]string, items []corev1.KeyToPath, optional *bool, missingKey string) error {
	if len(items) == 0 {
		for k, v := range data {
			files[k] = v
		}
		return nil
	}
	for _, item := range items {
		v, ok := data[item.Key]
		if !ok {
			if isTrue(optional) {
				continue
			}
			return fmt.Errorf(missingKey, item.Key)
		}
		files[path.Clean(item.Path)] = v
	}
	return nil
}

// containerMounts returns the mounts of c's volumeMounts of volumes that
// have files, all read-only, as upstream mounts configMap, secret and
// projected volumes. A subPath (or subPathExpr, expanded with the
// container's variables) mounts only that file or directory of the
// volume.
func containerMounts(c *corev1.Container, volumes map[string]volumeFiles, vars map[string]string) []cri.Mount {
	var mounts []cri.Mount
	for _, vm := range c.VolumeMounts {
		files, ok := volumes[vm.Name]
		if !ok {
			continue
		}
		sub := vm.SubPath
		if vm.SubPathExpr != "" {
			sub = expand(vm.SubPathExpr, vars)
		}
		sub = strings.Trim(path.Clean("/"+sub), "/")
		mounted := make(map[string]string, len(files))
		for name, data := range files {
			switch {
			case sub == "":
				mounted[name] = data
			case name == sub:
				mounted[""] = data
			case strings.HasPrefix(name, sub+"/"):
				mounted[strings.TrimPrefix(name, sub+"/")] = data
			}
		}
		mounts = append(mounts, cri.Mount{ContainerPath: vm.MountPath, Files: mounted, Readonly: true})
	}
	return mounts
}
