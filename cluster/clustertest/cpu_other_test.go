//go:build !unix

package clustertest_test

import "time"

// processCPU reports false: there is no getrusage here.
func processCPU() (time.Duration, bool) { return 0, false }
