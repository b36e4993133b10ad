package cri

import "errors"

// The errors of the CRI calls, compared with errors.Is. Runtimes wrap them
// with the ID or image name the call was about.
var (
	// ErrNotFound: no sandbox, container or image has that ID or name.
	// Upstream: gRPC code NotFound.
	ErrNotFound = errors.New("not found")
	// ErrAlreadyExists: a sandbox or container with the same metadata
	// (name, namespace, uid and attempt) exists. The kubelet bumps Attempt
	// when it recreates one. Upstream: containerd's "name is reserved".
	ErrAlreadyExists = errors.New("already exists")
	// ErrFailedPrecondition: the object is in the wrong state for the call,
	// e.g. StartContainer on a container that was already started, or
	// CreateContainer in a sandbox that is not ready.
	// Upstream: gRPC code FailedPrecondition.
	ErrFailedPrecondition = errors.New("failed precondition")
	// ErrImagePull: PullImage failed. The kubelet reports the container as
	// waiting with reason ErrImagePull, then ImagePullBackOff.
	ErrImagePull = errors.New("ErrImagePull")
)
