package validation

import (
	"path/filepath"
	"strings"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
)

// The bounds of a projected service account token's lifetime: ten
// minutes, so a token can be refreshed before it expires, up to 2^32 s.
const (
	minTokenExpirationSeconds = 10 * 60
	maxTokenExpirationSeconds = 1 << 32
)

// validateVolumes checks each volume: a unique DNS-label name and exactly
// one valid source. It returns the names of the valid volumes, for the
// containers' volumeMounts to refer to.
func validateVolumes(volumes []corev1.Volume, fldPath path) (map[string]bool, apierrors.FieldErrors) {
	var errs apierrors.FieldErrors
	names := map[string]bool{}
	for i, vol := range volumes {
		idxPath := fldPath.index(i)
		namePath := idxPath.child("name")
		volErrs := validateVolumeSource(&vol.VolumeSource, idxPath)
		if vol.Name == "" {
			volErrs = append(volErrs, apierrors.Required(namePath.String(), ""))
		} else {
			for _, msg := range IsDNS1123Label(vol.Name) {
				volErrs = append(volErrs, apierrors.Invalid(namePath.String(), vol.Name, msg))
			}
		}
		if names[vol.Name] {
			volErrs = append(volErrs, apierrors.Duplicate(namePath.String(), vol.Name))
		}
		if len(volErrs) == 0 {
			names[vol.Name] = true
		}
		errs = append(errs, volErrs...)
	}
	return names, errs
}

func validateVolumeSource(src *corev1.VolumeSource, fldPath path) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	sources := 0
	// one is called for each source that is set, in upstream's order.
	one := func(name string, validate func(path) apierrors.FieldErrors) {
		if sources > 0 {
			errs = append(errs, apierrors.Forbidden(fldPath.child(name).String(), "may not specify more than 1 volume type"))
			return
		}
		sources++
		errs = append(errs, validate(fldPath.child(name))...)
	}
	if s := src.HostPath; s != nil {
		one("hostPath", func(p path) apierrors.FieldErrors {
			if s.Path == "" {
				return apierrors.FieldErrors{apierrors.Required(p.child("path").String(), "")}
			}
			return nil
		})
	}
	if src.EmptyDir != nil {
		one("emptyDir", func(p path) apierrors.FieldErrors {
			if sl := src.EmptyDir.SizeLimit; sl != nil && sl.Sign() < 0 {
				return apierrors.FieldErrors{apierrors.Invalid(p.child("sizeLimit").String(), sl.String(), isNegativeErrorMsg)}
			}
			return nil
		})
	}
	if s := src.Secret; s != nil {
		one("secret", func(p path) apierrors.FieldErrors {
			var errs apierrors.FieldErrors
			if s.SecretName == "" {
				errs = append(errs, apierrors.Required(p.child("secretName").String(), ""))
			}
			errs = append(errs, validateMode(s.DefaultMode, p.child("defaultMode"))...)
			return append(errs, validateKeyToPaths(s.Items, p.child("items"))...)
		})
	}
	if s := src.PersistentVolumeClaim; s != nil {
		one("persistentVolumeClaim", func(p path) apierrors.FieldErrors {
			if s.ClaimName == "" {
				return apierrors.FieldErrors{apierrors.Required(p.child("claimName").String(), "")}
			}
			return nil
		})
	}
	if s := src.DownwardAPI; s != nil {
		one("downwardAPI", func(p path) apierrors.FieldErrors {
			errs := validateMode(s.DefaultMode, p.child("defaultMode"))
			return append(errs, validateDownwardAPIFiles(s.Items, p.child("items"))...)
		})
	}
	if s := src.ConfigMap; s != nil {
		one("configMap", func(p path) apierrors.FieldErrors {
			var errs apierrors.FieldErrors
			if s.Name == "" {
				errs = append(errs, apierrors.Required(p.child("name").String(), ""))
			}
			errs = append(errs, validateMode(s.DefaultMode, p.child("defaultMode"))...)
			return append(errs, validateKeyToPaths(s.Items, p.child("items"))...)
		})
	}
	if s := src.Projected; s != nil {
		one("projected", func(p path) apierrors.FieldErrors {
			errs := validateMode(s.DefaultMode, p.child("defaultMode"))
			return append(errs, validateProjections(s.Sources, p.child("sources"))...)
		})
	}
	if sources == 0 {
		errs = append(errs, apierrors.Required(fldPath.String(), "must specify a volume type"))
	}
	return errs
}

func validateProjections(sources []corev1.VolumeProjection, fldPath path) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	for i, src := range sources {
		idxPath := fldPath.index(i)
		n := 0
		if s := src.Secret; s != nil {
			n++
			if s.Name == "" {
				errs = append(errs, apierrors.Required(idxPath.child("secret", "name").String(), ""))
			}
			errs = append(errs, validateKeyToPaths(s.Items, idxPath.child("secret", "items"))...)
		}
		if s := src.ConfigMap; s != nil {
			n++
			if s.Name == "" {
				errs = append(errs, apierrors.Required(idxPath.child("configMap", "name").String(), ""))
			}
			errs = append(errs, validateKeyToPaths(s.Items, idxPath.child("configMap", "items"))...)
		}
		if s := src.DownwardAPI; s != nil {
			n++
			errs = append(errs, validateDownwardAPIFiles(s.Items, idxPath.child("downwardAPI", "items"))...)
		}
		if s := src.ServiceAccountToken; s != nil {
			n++
			tokPath := idxPath.child("serviceAccountToken")
			if s.Path == "" {
				errs = append(errs, apierrors.Required(tokPath.child("path").String(), ""))
			} else {
				errs = append(errs, validateLocalDescendingPath(s.Path, tokPath.child("path"))...)
			}
			if e := s.ExpirationSeconds; e != nil {
				if *e < minTokenExpirationSeconds {
					errs = append(errs, apierrors.Invalid(tokPath.child("expirationSeconds").String(), *e, "may not specify a duration less than 10 minutes"))
				} else if *e > maxTokenExpirationSeconds {
					errs = append(errs, apierrors.Invalid(tokPath.child("expirationSeconds").String(), *e, "may not specify a duration larger than 2^32 seconds"))
				}
			}
		}
		if n != 1 {
			errs = append(errs, apierrors.Forbidden(idxPath.String(), "may not specify more than 1 volume type per source"))
		}
	}
	return errs
}

func validateKeyToPaths(items []corev1.KeyToPath, fldPath path) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	for i, item := range items {
		idxPath := fldPath.index(i)
		if item.Key == "" {
			errs = append(errs, apierrors.Required(idxPath.child("key").String(), ""))
		}
		if item.Path == "" {
			errs = append(errs, apierrors.Required(idxPath.child("path").String(), ""))
		} else {
			errs = append(errs, validateLocalDescendingPath(item.Path, idxPath.child("path"))...)
		}
		errs = append(errs, validateMode(item.Mode, idxPath.child("mode"))...)
	}
	return errs
}

func validateDownwardAPIFiles(files []corev1.DownwardAPIVolumeFile, fldPath path) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	for i, f := range files {
		idxPath := fldPath.index(i)
		if f.Path == "" {
			errs = append(errs, apierrors.Required(idxPath.child("path").String(), ""))
		} else {
			errs = append(errs, validateLocalDescendingPath(f.Path, idxPath.child("path"))...)
		}
		switch {
		case f.FieldRef != nil && f.ResourceFieldRef != nil:
			errs = append(errs, apierrors.Invalid(idxPath.String(), "resource", "fieldRef and resourceFieldRef can not be specified simultaneously"))
		case f.FieldRef != nil:
			errs = append(errs, validateObjectFieldSelector(f.FieldRef, volumeFieldPaths, idxPath.child("fieldRef"))...)
		case f.ResourceFieldRef != nil:
			errs = append(errs, validateResourceFieldSelector(f.ResourceFieldRef, idxPath.child("resourceFieldRef"))...)
		default:
			errs = append(errs, apierrors.Required(idxPath.String(), "one of fieldRef and resourceFieldRef is required"))
		}
		errs = append(errs, validateMode(f.Mode, idxPath.child("mode"))...)
	}
	return errs
}

// validateMode checks a file mode, which must fit in the permission bits.
func validateMode(mode *int32, fldPath path) apierrors.FieldErrors {
	if mode != nil && (*mode > 0o777 || *mode < 0) {
		return apierrors.FieldErrors{apierrors.Invalid(fldPath.String(), *mode, "must be a number between 0 and 0777 (octal), both inclusive")}
	}
	return nil
}

// validateLocalDescendingPath checks a path that must stay inside the
// volume: relative, without "..".
func validateLocalDescendingPath(p string, fldPath path) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	if filepath.IsAbs(p) || strings.HasPrefix(p, "/") {
		errs = append(errs, apierrors.Invalid(fldPath.String(), p, "must be a relative path"))
	}
	for _, part := range strings.Split(filepath.ToSlash(p), "/") {
		if part == ".." {
			errs = append(errs, apierrors.Invalid(fldPath.String(), p, "must not contain '..'"))
			break
		}
	}
	return errs
}
