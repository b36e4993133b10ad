package cri

import "context"

// ImageManagerService pulls and lists images. Implementations are safe for
// concurrent use.
//
// Upstream: k8s.io/cri-api/pkg/apis (ImageManagerService); the gRPC
// service is ImageService.
type ImageManagerService interface {
	// ListImages returns the images present on the node, sorted by ID.
	ListImages(ctx context.Context) ([]Image, error)
	// ImageStatus returns the image, or nil (and no error) when it is not
	// present.
	ImageStatus(ctx context.Context, image string) (*Image, error)
	// PullImage pulls the image and returns its ID (the image ref). It
	// blocks for as long as the pull takes, or until ctx is done. A pull
	// that fails returns an error wrapping ErrImagePull.
	PullImage(ctx context.Context, image string) (string, error)
	// RemoveImage removes the image. It is idempotent.
	RemoveImage(ctx context.Context, image string) error
}

// Image is an image present on the node.
// Upstream: runtime/v1 Image.
type Image struct {
	// ID is "sha256:" and 64 hex digits.
	ID string
	// RepoTags are the normalized names it was pulled as
	// ("docker.io/library/nginx:latest").
	RepoTags []string
	Size     uint64
	// Pinned images (the pause image) are never garbage-collected.
	Pinned bool
}
