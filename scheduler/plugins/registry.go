package plugins

import (
	"github.com/minicp/minicp/scheduler/framework"
	"github.com/minicp/minicp/scheduler/plugins/names"
	"github.com/minicp/minicp/scheduler/plugins/nodeaffinity"
	"github.com/minicp/minicp/scheduler/plugins/nodename"
	"github.com/minicp/minicp/scheduler/plugins/nodeready"
	"github.com/minicp/minicp/scheduler/plugins/noderesources"
	"github.com/minicp/minicp/scheduler/plugins/nodeunschedulable"
	"github.com/minicp/minicp/scheduler/plugins/tainttoleration"
)

// NewInTreeRegistry returns a new Registry of every in-tree plugin; the
// caller may Register more.
//
// Upstream: plugins.NewInTreeRegistry.
func NewInTreeRegistry() framework.Registry {
	return framework.Registry{
		names.NodeResourcesFit:                noderesources.NewFit,
		names.NodeResourcesBalancedAllocation: noderesources.NewBalancedAllocation,
		names.NodeName:                        nodename.New,
		names.NodeAffinity:                    nodeaffinity.New,
		names.TaintToleration:                 tainttoleration.New,
		names.NodeUnschedulable:               nodeunschedulable.New,
		names.NodeReady:                       nodeready.New,
	}
}
