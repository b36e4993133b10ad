//go:build unix

package clustertest_test

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time the process has used, user and system,
// and true. The whole cluster runs in the test binary (the shared etcd
// too), so it is the cluster's CPU, and unlike wall time it barely moves
// with the load of other processes on the machine.
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
