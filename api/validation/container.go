package validation

import (
	"fmt"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
)

// validateContainers checks the pod's containers, then its init
// containers; names are unique across both.
func validateContainers(spec *corev1.PodSpec, volumes map[string]bool, specPath path) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	ctrsPath := specPath.child("containers")
	if len(spec.Containers) == 0 {
		errs = append(errs, apierrors.Required(ctrsPath.String(), ""))
	}
	names := map[string]bool{}
	for i := range spec.Containers {
		c := &spec.Containers[i]
		idxPath := ctrsPath.index(i)
		errs = append(errs, validateContainerName(c.Name, names, idxPath.child("name"))...)
		errs = append(errs, validateContainer(c, spec, volumes, idxPath)...)
		if c.RestartPolicy != nil {
			errs = append(errs, apierrors.Forbidden(idxPath.child("restartPolicy").String(), "may not be set for non-init containers"))
		}
		errs = append(errs, validateProbes(c, spec, idxPath)...)
	}
	initPath := specPath.child("initContainers")
	for i := range spec.InitContainers {
		c := &spec.InitContainers[i]
		idxPath := initPath.index(i)
		errs = append(errs, validateContainerName(c.Name, names, idxPath.child("name"))...)
		errs = append(errs, validateContainer(c, spec, volumes, idxPath)...)
		// Only a sidecar (an init container with restartPolicy Always)
		// keeps running, so only it may have probes and hooks.
		sidecar := c.RestartPolicy != nil && *c.RestartPolicy == corev1.ContainerRestartPolicyAlways
		if c.RestartPolicy != nil && !sidecar {
			errs = append(errs, apierrors.NotSupported(idxPath.child("restartPolicy").String(), *c.RestartPolicy,
				[]string{string(corev1.ContainerRestartPolicyAlways)}))
		}
		if sidecar {
			errs = append(errs, validateProbes(c, spec, idxPath)...)
			continue
		}
		for _, f := range []struct {
			name string
			set  bool
		}{
			{"lifecycle", c.Lifecycle != nil},
			{"livenessProbe", c.LivenessProbe != nil},
			{"readinessProbe", c.ReadinessProbe != nil},
			{"startupProbe", c.StartupProbe != nil},
		} {
			if f.set {
				errs = append(errs, apierrors.Forbidden(idxPath.child(f.name).String(), "may not be set for init containers without restartPolicy=Always"))
			}
		}
	}
	errs = append(errs, validateHostPorts(spec, specPath)...)
	return errs
}

func validateContainerName(name string, seen map[string]bool, fldPath path) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	switch {
	case name == "":
		errs = append(errs, apierrors.Required(fldPath.String(), ""))
	case seen[name]:
		errs = append(errs, apierrors.Duplicate(fldPath.String(), name))
	default:
		for _, msg := range IsDNS1123Label(name) {
			errs = append(errs, apierrors.Invalid(fldPath.String(), name, msg))
		}
	}
	seen[name] = true
	return errs
}

// validateContainer checks what every kind of container shares: image,
// policies, ports, environment, mounts, resources and security context.
func validateContainer(c *corev1.Container, spec *corev1.PodSpec, volumes map[string]bool, fldPath path) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	if c.Image == "" {
		errs = append(errs, apierrors.Required(fldPath.child("image").String(), ""))
	}
	if c.Lifecycle != nil {
		grace := spec.TerminationGracePeriodSeconds
		errs = append(errs, validateLifecycleHandler(c.Lifecycle.PostStart, grace, fldPath.child("lifecycle", "postStart"))...)
		errs = append(errs, validateLifecycleHandler(c.Lifecycle.PreStop, grace, fldPath.child("lifecycle", "preStop"))...)
	}
	errs = append(errs, validateContainerPorts(c.Ports, fldPath.child("ports"))...)
	errs = append(errs, validateEnv(c.Env, fldPath.child("env"))...)
	errs = append(errs, validateEnvFrom(c.EnvFrom, fldPath.child("envFrom"))...)
	errs = append(errs, validateVolumeMounts(c.VolumeMounts, volumes, fldPath.child("volumeMounts"))...)
	errs = append(errs, validatePullPolicy(c.ImagePullPolicy, fldPath.child("imagePullPolicy"))...)
	errs = append(errs, validateResourceRequirements(&c.Resources, fldPath.child("resources"))...)
	errs = append(errs, validateSecurityContext(c.SecurityContext, fldPath.child("securityContext"))...)
	switch c.TerminationMessagePolicy {
	case corev1.TerminationMessageReadFile, corev1.TerminationMessageFallbackToLogsOnError:
	case "":
		errs = append(errs, apierrors.Required(fldPath.child("terminationMessagePolicy").String(),
			"must be 'File' or 'FallbackToLogsOnError'"))
	default:
		errs = append(errs, apierrors.Invalid(fldPath.child("terminationMessagePolicy").String(), c.TerminationMessagePolicy,
			"must be 'File' or 'FallbackToLogsOnError'"))
	}
	return errs
}

func validatePullPolicy(policy corev1.PullPolicy, fldPath path) apierrors.FieldErrors {
	switch policy {
	case corev1.PullAlways, corev1.PullIfNotPresent, corev1.PullNever:
		return nil
	case "":
		return apierrors.FieldErrors{apierrors.Required(fldPath.String(), "")}
	}
	return apierrors.FieldErrors{apierrors.NotSupported(fldPath.String(), policy, []string{
		string(corev1.PullAlways), string(corev1.PullIfNotPresent), string(corev1.PullNever)})}
}

// validateContainerPorts checks port numbers, protocols and names; names
// must be unique within the container.
func validateContainerPorts(ports []corev1.ContainerPort, fldPath path) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	names := map[string]bool{}
	for i, port := range ports {
		idxPath := fldPath.index(i)
		if port.Name != "" {
			if msgs := IsValidPortName(port.Name); len(msgs) != 0 {
				for _, msg := range msgs {
					errs = append(errs, apierrors.Invalid(idxPath.child("name").String(), port.Name, msg))
				}
			} else if names[port.Name] {
				errs = append(errs, apierrors.Duplicate(idxPath.child("name").String(), port.Name))
			} else {
				names[port.Name] = true
			}
		}
		if port.ContainerPort == 0 {
			errs = append(errs, apierrors.Required(idxPath.child("containerPort").String(), ""))
		} else {
			for _, msg := range IsValidPortNum(int(port.ContainerPort)) {
				errs = append(errs, apierrors.Invalid(idxPath.child("containerPort").String(), port.ContainerPort, msg))
			}
		}
		if port.HostPort != 0 {
			for _, msg := range IsValidPortNum(int(port.HostPort)) {
				errs = append(errs, apierrors.Invalid(idxPath.child("hostPort").String(), port.HostPort, msg))
			}
		}
		switch port.Protocol {
		case corev1.ProtocolTCP, corev1.ProtocolUDP, corev1.ProtocolSCTP:
		case "":
			errs = append(errs, apierrors.Required(idxPath.child("protocol").String(), ""))
		default:
			errs = append(errs, apierrors.NotSupported(idxPath.child("protocol").String(), port.Protocol,
				[]string{string(corev1.ProtocolSCTP), string(corev1.ProtocolTCP), string(corev1.ProtocolUDP)}))
		}
	}
	return errs
}

// validateHostPorts checks that no two ports of the pod claim the same
// host IP, protocol and host port.
func validateHostPorts(spec *corev1.PodSpec, specPath path) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	seen := map[string]bool{}
	check := func(containers []corev1.Container, ctrsPath path) {
		for i, c := range containers {
			for j, port := range c.Ports {
				if port.HostPort == 0 {
					continue
				}
				key := fmt.Sprintf("%s/%s/%d", port.HostIP, port.Protocol, port.HostPort)
				if seen[key] {
					errs = append(errs, apierrors.Duplicate(ctrsPath.index(i).child("ports").index(j).child("hostPort").String(), key))
				}
				seen[key] = true
			}
		}
	}
	check(spec.Containers, specPath.child("containers"))
	check(spec.InitContainers, specPath.child("initContainers"))
	return errs
}

// validateVolumeMounts checks that each mount names a volume of the pod
// and that mount paths are unique.
func validateVolumeMounts(mounts []corev1.VolumeMount, volumes map[string]bool, fldPath path) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	paths := map[string]bool{}
	for i, m := range mounts {
		idxPath := fldPath.index(i)
		if m.Name == "" {
			errs = append(errs, apierrors.Required(idxPath.child("name").String(), ""))
		}
		if !volumes[m.Name] {
			errs = append(errs, notFound(idxPath.child("name").String(), m.Name))
		}
		if m.MountPath == "" {
			errs = append(errs, apierrors.Required(idxPath.child("mountPath").String(), ""))
		}
		if paths[m.MountPath] {
			errs = append(errs, apierrors.Invalid(idxPath.child("mountPath").String(), m.MountPath, "must be unique"))
		}
		paths[m.MountPath] = true
		if m.SubPath != "" {
			errs = append(errs, validateLocalDescendingPath(m.SubPath, idxPath.child("subPath"))...)
		}
	}
	return errs
}

// notFound reports a reference to something that does not exist.
// apierrors has no constructor for this cause type yet.
func notFound(field string, value any) *apierrors.FieldError {
	return &apierrors.FieldError{Type: metav1.CauseTypeFieldValueNotFound, Field: field, BadValue: value}
}

func validateSecurityContext(sc *corev1.SecurityContext, fldPath path) apierrors.FieldErrors {
	if sc == nil {
		return nil
	}
	var errs apierrors.FieldErrors
	errs = append(errs, validateID(sc.RunAsUser, fldPath.child("runAsUser"))...)
	errs = append(errs, validateID(sc.RunAsGroup, fldPath.child("runAsGroup"))...)
	errs = append(errs, validateSeccompProfile(sc.SeccompProfile, fldPath.child("seccompProfile"))...)
	if sc.AllowPrivilegeEscalation != nil && !*sc.AllowPrivilegeEscalation {
		if sc.Privileged != nil && *sc.Privileged {
			errs = append(errs, apierrors.Invalid(fldPath.String(), "", "cannot set `allowPrivilegeEscalation` to false and `privileged` to true"))
		}
		if sc.Capabilities != nil {
			for _, c := range sc.Capabilities.Add {
				if c == "CAP_SYS_ADMIN" {
					errs = append(errs, apierrors.Invalid(fldPath.String(), "", "cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN"))
				}
			}
		}
	}
	return errs
}
