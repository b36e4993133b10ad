// Package watchwindow is the workshop's ring-buffer exercise: the window
// of recent events from which the watch cache serves WATCH requests, and
// the 410 Gone a client gets when it asks for events older than the
// window. The learner writes Add and EventsSince (ring.go); see README.md.
package watchwindow
