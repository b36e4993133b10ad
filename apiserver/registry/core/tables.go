package core

import (
	"fmt"
	"strings"
	"time"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/printers"
)

func column(name, typ, desc string, priority int32) metav1.TableColumnDefinition {
	return metav1.TableColumnDefinition{Name: name, Type: typ, Description: desc, Priority: priority}
}

// PodTable prints pods as `kubectl get pods` does.
//
// Upstream: k8s.io/kubernetes/pkg/printers/internalversion (printPod).
var PodTable = printers.Printer{
	Columns: []metav1.TableColumnDefinition{
		printers.NameColumn,
		column("Ready", "string", "The aggregate readiness state of this pod for accepting traffic.", 0),
		column("Status", "string", "The aggregate status of the containers in this pod.", 0),
		column("Restarts", "string", "The number of times the containers in this pod have been restarted.", 0),
		printers.AgeColumn,
		column("IP", "string", "IP address allocated to the pod.", 1),
		column("Node", "string", "Name of the node this pod is assigned to.", 1),
		column("Nominated Node", "string", "Name of the node this pod is nominated to.", 1),
		column("Readiness Gates", "string", "The readiness gates of this pod.", 1),
	},
	Cells: func(obj runtime.Object, now time.Time) []any {
		pod := obj.(*corev1.Pod)
		ready, restarts := 0, int32(0)
		for _, cs := range pod.Status.ContainerStatuses {
			if cs.Ready {
				ready++
			}
			restarts += cs.RestartCount
		}
		or := func(s string) string {
			if s == "" {
				return "<none>"
			}
			return s
		}
		gates := "<none>"
		if n := len(pod.Spec.ReadinessGates); n > 0 {
			gates = fmt.Sprintf("0/%d", n)
		}
		return []any{pod.Name, fmt.Sprintf("%d/%d", ready, len(pod.Spec.Containers)), PodStatusReason(pod),
			fmt.Sprint(restarts), printers.Age(obj, now), or(pod.Status.PodIP), or(pod.Spec.NodeName),
			or(pod.Status.NominatedNodeName), gates}
	},
}

// PodStatusReason is the STATUS column of `kubectl get pods`: the phase,
// refined by the first container that is waiting or terminated, and
// Terminating once deletion has started.
func PodStatusReason(pod *corev1.Pod) string {
	reason := string(pod.Status.Phase)
	if pod.Status.Reason != "" {
		reason = pod.Status.Reason
	}
	for _, cs := range pod.Status.InitContainerStatuses {
		if t := cs.State.Terminated; t != nil && t.ExitCode == 0 {
			continue
		}
		if w := cs.State.Waiting; w != nil && w.Reason != "" && w.Reason != "PodInitializing" {
			reason = "Init:" + w.Reason
		} else {
			reason = "Init:0/" + fmt.Sprint(len(pod.Spec.InitContainers))
		}
		break
	}
	for i := len(pod.Status.ContainerStatuses) - 1; i >= 0; i-- {
		cs := pod.Status.ContainerStatuses[i]
		switch {
		case cs.State.Waiting != nil && cs.State.Waiting.Reason != "":
			reason = cs.State.Waiting.Reason
		case cs.State.Terminated != nil && cs.State.Terminated.Reason != "":
			reason = cs.State.Terminated.Reason
		case cs.State.Terminated != nil && cs.State.Terminated.Signal != 0:
			reason = fmt.Sprintf("Signal:%d", cs.State.Terminated.Signal)
		case cs.State.Terminated != nil:
			reason = fmt.Sprintf("ExitCode:%d", cs.State.Terminated.ExitCode)
		}
	}
	if pod.DeletionTimestamp != nil {
		reason = "Terminating"
	}
	return reason
}

// NodeTable prints nodes as `kubectl get nodes` does.
var NodeTable = printers.Printer{
	Columns: []metav1.TableColumnDefinition{
		printers.NameColumn,
		column("Status", "string", "The status of the node", 0),
		column("Roles", "string", "The roles of the node", 0),
		printers.AgeColumn,
		column("Version", "string", "Kubelet Version reported by the node.", 0),
		column("Internal-IP", "string", "List of internal IPs for the node.", 1),
		column("External-IP", "string", "List of external IPs for the node.", 1),
		column("OS-Image", "string", "OS Image reported by the node from /etc/os-release.", 1),
		column("Kernel-Version", "string", "Kernel Version reported by the node.", 1),
		column("Container-Runtime", "string", "Container Runtime Version reported by the node.", 1),
	},
	Cells: func(obj runtime.Object, now time.Time) []any {
		node := obj.(*corev1.Node)
		status := "Unknown"
		for _, c := range node.Status.Conditions {
			if c.Type == corev1.NodeReady {
				status = "NotReady"
				if c.Status == corev1.ConditionTrue {
					status = "Ready"
				}
			}
		}
		if node.Spec.Unschedulable {
			status += ",SchedulingDisabled"
		}
		var roles []string
		for k := range node.Labels {
			if role, ok := strings.CutPrefix(k, "node-role.kubernetes.io/"); ok && role != "" {
				roles = append(roles, role)
			}
		}
		rolesCell := "<none>"
		if len(roles) > 0 {
			rolesCell = strings.Join(roles, ",")
		}
		address := func(t corev1.NodeAddressType) string {
			for _, a := range node.Status.Addresses {
				if a.Type == t {
					return a.Address
				}
			}
			return "<none>"
		}
		info := node.Status.NodeInfo
		return []any{node.Name, status, rolesCell, printers.Age(obj, now), info.KubeletVersion,
			address(corev1.NodeInternalIP), address(corev1.NodeExternalIP), info.OSImage, info.KernelVersion, info.ContainerRuntimeVersion}
	},
}

// NamespaceTable prints namespaces as `kubectl get ns` does.
var NamespaceTable = printers.Printer{
	Columns: []metav1.TableColumnDefinition{
		printers.NameColumn,
		column("Status", "string", "The status of the namespace", 0),
		printers.AgeColumn,
	},
	Cells: func(obj runtime.Object, now time.Time) []any {
		ns := obj.(*corev1.Namespace)
		return []any{ns.Name, string(ns.Status.Phase), printers.Age(obj, now)}
	},
}

// EventTable prints events as `kubectl get events` does.
var EventTable = printers.Printer{
	Columns: []metav1.TableColumnDefinition{
		column("Last Seen", "string", "Time when last this event was seen.", 0),
		column("Type", "string", "Type of this event (Normal, Warning).", 0),
		column("Reason", "string", "Why the action was taken.", 0),
		column("Object", "string", "The object this Event is about.", 0),
		column("Message", "string", "A human-readable description of the status of this operation.", 0),
		column("Source", "string", "The component reporting this event.", 1),
		column("First Seen", "string", "The first time this event was seen.", 1),
		column("Count", "string", "How many times this event was seen.", 1),
		printers.NameColumn,
	},
	Cells: func(obj runtime.Object, now time.Time) []any {
		e := obj.(*corev1.Event)
		last := e.LastTimestamp.Time
		if last.IsZero() {
			last = e.EventTime.Time
		}
		first := e.FirstTimestamp.Time
		if first.IsZero() {
			first = e.EventTime.Time
		}
		age := func(t time.Time) string {
			if t.IsZero() {
				return "<unknown>"
			}
			return printers.HumanDuration(now.Sub(t))
		}
		object := strings.ToLower(e.InvolvedObject.Kind) + "/" + e.InvolvedObject.Name
		source := e.Source.Component
		if e.Source.Host != "" {
			source += ", " + e.Source.Host
		}
		return []any{age(last), e.Type, e.Reason, object, strings.TrimSpace(e.Message), source, age(first), fmt.Sprint(e.Count), e.Name}
	},
}
