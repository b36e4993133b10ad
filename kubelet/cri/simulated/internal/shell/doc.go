// Package shell is the little shell the simulated container runtime's
// containers run: a subset of POSIX sh, as busybox's ash behaves, with
// the busybox utilities as builtins. LANGUAGE.md in the parent directory
// documents the language for users.
//
// A script is parsed (Parse) and compiled to a flat instruction list
// (Program). A Process runs a Program until it sleeps, starts a server or
// exits; the runtime calls Run again when the sleep is over. Because the
// program counter and the variables are the whole state, a sleeping
// container costs a few hundred bytes and no goroutine. Time is whatever
// Run is given: the package never reads a clock.
package shell
