//go:build !solution

package workshoptest

// solution is false in a build of the skeletons, the learner's build.
const solution = false
