// Package names holds the names of the in-tree scheduler plugins, as the
// configuration file spells them. It imports nothing, so the configuration
// (which lists the default plugins) and the plugins themselves can both
// use it.
//
// Upstream: k8s.io/kubernetes/pkg/scheduler/framework/plugins/names.
package names
