package simulated

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/minicp/minicp/kubelet/cri"
)

// image is a pulled image.
type image struct {
	id      string
	tags    []string
	size    uint64
	pinned  bool
	profile *imageProfile
	// program is what its containers run, for a programmable image.
	program Program
}

func (im *image) cri() cri.Image {
	return cri.Image{ID: im.id, RepoTags: slices.Clone(im.tags), Size: im.size, Pinned: im.pinned}
}

// errInvalidReference is what a malformed image name gives.
var errInvalidReference = errors.New("invalid reference format")

// normalizeImage turns an image name into its full form, as containerd
// does: "nginx" is "docker.io/library/nginx:latest", "minicp/http-echo"
// is "docker.io/minicp/http-echo:latest"; a name with a registry keeps it.
func normalizeImage(name string) (string, error) {
	if name == "" || name != strings.TrimSpace(name) || strings.ContainsAny(name, " \t\n") || strings.ToLower(repoOf(name)) != repoOf(name) {
		return "", fmt.Errorf("%q: %w", name, errInvalidReference)
	}
	if strings.HasPrefix(name, "sha256:") {
		return name, nil
	}
	domain, rest, found := strings.Cut(name, "/")
	if !found || !strings.ContainsAny(domain, ".:") && domain != "localhost" {
		domain, rest = "docker.io", name
	}
	if domain == "docker.io" && !strings.Contains(rest, "/") {
		rest = "library/" + rest
	}
	last := rest[strings.LastIndex(rest, "/")+1:]
	if !strings.Contains(last, ":") && !strings.Contains(last, "@") {
		rest += ":latest"
	}
	return domain + "/" + rest, nil
}

// repoOf returns name without its tag or digest.
func repoOf(name string) string {
	if i := strings.Index(name, "@"); i >= 0 {
		name = name[:i]
	}
	if i := strings.LastIndex(name, ":"); i > strings.LastIndex(name, "/") {
		name = name[:i]
	}
	return name
}

// imageID derives a stable ID from the normalized name.
func imageID(ref string) string {
	sum := sha256.Sum256([]byte(ref))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// DefaultPullError is the default Options.PullError: an image whose name
// or tag contains "doesnotexist" (nginx:doesnotexist,
// example.com/doesnotexist) is not found, as a registry would say. Every
// other image exists.
func DefaultPullError(image string) error {
	if strings.Contains(image, "doesnotexist") {
		return fmt.Errorf("failed to resolve reference %q: %s: not found", image, image)
	}
	return nil
}

// ListImages returns the pulled images, sorted by ID.
func (r *Runtime) ListImages(ctx context.Context) ([]cri.Image, error) {
	r.lock()
	defer r.unlock()
	ids := slices.Sorted(maps.Keys(r.images))
	out := make([]cri.Image, 0, len(ids))
	for _, id := range ids {
		out = append(out, r.images[id].cri())
	}
	return out, nil
}

// ImageStatus returns the image named by a name or an ID, or nil when it
// is not present.
func (r *Runtime) ImageStatus(ctx context.Context, name string) (*cri.Image, error) {
	r.lock()
	defer r.unlock()
	im, err := r.findImageLocked(name)
	if err != nil || im == nil {
		return nil, err
	}
	out := im.cri()
	return &out, nil
}

func (r *Runtime) findImageLocked(name string) (*image, error) {
	if im, ok := r.images[name]; ok {
		return im, nil
	}
	ref, err := normalizeImage(name)
	if err != nil {
		return nil, err
	}
	return r.imageByTag[ref], nil
}

// PullImage pulls the image: it waits Options.PullDelay on the clock,
// then fails if Options.PullError says so, and otherwise records the
// image and returns its ID. Pulling an image that is present pulls it
// again, as PullAlways does.
func (r *Runtime) PullImage(ctx context.Context, name string) (string, error) {
	ref, err := normalizeImage(name)
	if err != nil {
		return "", fmt.Errorf("pull image: %w: %w", cri.ErrImagePull, err)
	}
	if r.pullDelay != nil {
		if d := r.pullDelay(ref); d > 0 {
			t := r.clock.NewTimer(d)
			select {
			case <-t.C():
			case <-ctx.Done():
				t.Stop()
				return "", fmt.Errorf("pull image %q: %w", name, ctx.Err())
			}
		}
	}
	if err := r.pullError(ref); err != nil {
		return "", fmt.Errorf("%w: failed to pull and unpack image %q: %w", cri.ErrImagePull, ref, err)
	}
	r.lock()
	defer r.unlock()
	im := r.addImageLocked(ref)
	r.logger.Debug("image pulled", "hop", "runtime.pull", "name", ref)
	return im.id, nil
}

func (r *Runtime) addImageLocked(ref string) *image {
	if im, ok := r.imageByTag[ref]; ok {
		return im
	}
	prof := profileFor(ref)
	prog := r.programs[ref]
	if prog != nil {
		prof = programProfile(ref)
	}
	im := &image{id: imageID(ref), tags: []string{ref}, size: prof.size, profile: prof, program: prog, pinned: ref == r.pauseRef()}
	r.images[im.id] = im
	r.imageByTag[ref] = im
	return im
}

func (r *Runtime) pauseRef() string {
	ref, _ := normalizeImage(r.pauseImage) // validated by New
	return ref
}

// RemoveImage removes the image named by a name or an ID. Containers
// created from it keep running.
func (r *Runtime) RemoveImage(ctx context.Context, name string) error {
	r.lock()
	defer r.unlock()
	im, err := r.findImageLocked(name)
	if err != nil || im == nil {
		return err
	}
	delete(r.images, im.id)
	for _, tag := range im.tags {
		delete(r.imageByTag, tag)
	}
	return nil
}
