// Package waittest holds the one bound every minicp test puts on a wait:
// for a watch event, a change, a component to be idle or ready. Tests of
// every package use it, from storage up to whole clusters
// (clustertest.WaitTimeout is the same value), so a slow machine is
// accommodated by one environment variable rather than by editing
// constants package by package.
package waittest

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"
)

// TimeoutEnv names the environment variable that overrides Timeout, as a
// time.ParseDuration string ("2m"), for a machine slower than CI.
const TimeoutEnv = "MINICP_WAIT_TIMEOUT"

// Timeout bounds every wait of a test. Changes arrive in milliseconds;
// 30 seconds is for a loaded 2-core CI machine under -race, and turns a
// change that never comes into a failure instead of a hang. It is
// MINICP_WAIT_TIMEOUT when that is set; tests only read it.
var Timeout = timeout()

func timeout() time.Duration {
	v := os.Getenv(TimeoutEnv)
	if v == "" {
		return 30 * time.Second
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		// Every test of the binary would wait the wrong time: refuse
		// to run any.
		panic(fmt.Sprintf("waittest: %s=%q: want a positive duration such as 2m", TimeoutEnv, v))
	}
	return d
}

// Context returns a context of t that ends after Timeout, for one wait;
// call its cancel func when done.
func Context(t testing.TB) (context.Context, context.CancelFunc) {
	return context.WithTimeout(t.Context(), Timeout)
}
