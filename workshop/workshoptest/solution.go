//go:build solution

package workshoptest

// solution is true in a build of the reference solutions.
const solution = true
