package core

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/validation"
)

// serviceTxn is the allocations of one write of a Service: undone if the
// write fails, and completed (old values released) if it is stored.
type serviceTxn struct {
	st     ServiceStrategy
	owner  string
	dryRun bool
	// taken are the values this write allocated, released on abort.
	taken []allocation
	// release are the values to free once the write is stored.
	release []allocation
}

type allocation struct {
	a     *Allocator
	value string
}

func (st ServiceStrategy) newTxn(svc *corev1.Service, dryRun bool) *serviceTxn {
	return &serviceTxn{st: st, owner: svc.Namespace + "/" + svc.Name, dryRun: dryRun}
}

func (t *serviceTxn) releaseOnCommit(a *Allocator, value string) {
	if value != "" && value != corev1.ClusterIPNone {
		t.release = append(t.release, allocation{a, value})
	}
}

// finish is the txn's registry.FinishFunc.
func (t *serviceTxn) finish(ctx context.Context, success bool) {
	ctx = context.WithoutCancel(ctx)
	undo := t.taken
	if success {
		undo = t.release
	}
	if t.dryRun {
		return
	}
	for _, v := range undo {
		_ = v.a.Release(ctx, v.value)
	}
}

// abort releases what the txn took and returns err.
func (t *serviceTxn) abort(ctx context.Context, err error) error {
	t.finish(ctx, false)
	return err
}

// allocateClusterIP fills the IP families and policy (IPv4 single stack,
// the only kind minicp's service CIDR offers) and allocates the cluster IP
// of a Service that needs one: the one in clusterIP, or a free one.
func (t *serviceTxn) allocateClusterIP(ctx context.Context, svc *corev1.Service) error {
	if !needsClusterIP(svc) {
		return nil
	}
	spec := &svc.Spec
	if spec.IPFamilyPolicy == nil {
		policy := corev1.IPFamilyPolicySingleStack
		spec.IPFamilyPolicy = &policy
	}
	if *spec.IPFamilyPolicy == corev1.IPFamilyPolicyRequireDualStack {
		return apierrors.NewInvalid(serviceGVK, svc.Name, apierrors.FieldErrors{apierrors.Invalid("spec.ipFamilyPolicy",
			*spec.IPFamilyPolicy, "this cluster is not configured for dual-stack services")})
	}
	for i, f := range spec.IPFamilies {
		if f != corev1.IPv4Protocol {
			return apierrors.NewInvalid(serviceGVK, svc.Name, apierrors.FieldErrors{apierrors.Invalid(
				fmt.Sprintf("spec.ipFamilies[%d]", i), f, "not configured on this cluster")})
		}
	}
	if len(spec.IPFamilies) == 0 {
		spec.IPFamilies = []corev1.IPFamily{corev1.IPv4Protocol}
	}
	if spec.ClusterIP == corev1.ClusterIPNone {
		return nil
	}
	if len(spec.ClusterIPs) > 1 {
		return apierrors.NewInvalid(serviceGVK, svc.Name, apierrors.FieldErrors{apierrors.Invalid("spec.clusterIPs",
			spec.ClusterIPs, "this cluster is not configured for dual-stack services")})
	}
	a := t.st.ClusterIPs
	if spec.ClusterIP == "" {
		ip, err := a.AllocateNext(ctx, t.owner, t.dryRun)
		if errors.Is(err, ErrFull) {
			return apierrors.NewInternalError(fmt.Errorf("failed to allocate a serviceIP: %w", err))
		}
		if err != nil {
			return apierrors.NewInternalError(fmt.Errorf("allocate a serviceIP: %w", err))
		}
		spec.ClusterIP, spec.ClusterIPs = ip, []string{ip}
		t.taken = append(t.taken, allocation{a, ip})
		return nil
	}
	if len(validation.IsValidIP(spec.ClusterIP)) > 0 {
		return nil // left for validation to report
	}
	var msg string
	switch err := a.Allocate(ctx, spec.ClusterIP, t.owner, t.dryRun); {
	case err == nil:
		t.taken = append(t.taken, allocation{a, spec.ClusterIP})
		return nil
	case errors.Is(err, ErrAllocated):
		msg = fmt.Sprintf("failed to allocate IP %s: provided IP is already allocated", spec.ClusterIP)
	case errors.Is(err, ErrNotInRange):
		msg = fmt.Sprintf("failed to allocate IP %s: the provided IP (%s) is not in the valid range. The range of valid IPs is %s",
			spec.ClusterIP, spec.ClusterIP, a)
	default:
		return apierrors.NewInternalError(fmt.Errorf("allocate IP %s: %w", spec.ClusterIP, err))
	}
	return apierrors.NewInvalid(serviceGVK, svc.Name, apierrors.FieldErrors{apierrors.Invalid("spec.clusterIPs", spec.ClusterIPs, msg)})
}

// allocateNodePorts allocates the node ports svc needs that old (nil on
// create) did not hold: ports without one get a free one, ports that ask
// for one get it. Ports old held and svc does not are released once the
// write is stored.
func (t *serviceTxn) allocateNodePorts(ctx context.Context, svc, old *corev1.Service) error {
	held := map[int32]bool{}
	if old != nil {
		for _, p := range usedNodePorts(old) {
			held[p] = true
		}
	}
	kept := map[int32]bool{}
	if needsNodePorts(svc) {
		for i := range svc.Spec.Ports {
			if err := t.allocateNodePort(ctx, svc, &svc.Spec.Ports[i].NodePort, fmt.Sprintf("spec.ports[%d].nodePort", i), held, kept); err != nil {
				return err
			}
		}
	}
	if validation.NeedsHealthCheck(svc) {
		if err := t.allocateNodePort(ctx, svc, &svc.Spec.HealthCheckNodePort, "spec.healthCheckNodePort", held, kept); err != nil {
			return err
		}
	}
	for p := range held {
		if !kept[p] {
			t.releaseOnCommit(t.st.NodePorts, strconv.Itoa(int(p)))
		}
	}
	return nil
}

// allocateNodePort fills *port with a free node port when it is 0, or
// allocates the one it names, unless held (by the old Service) or kept
// (by another port of this one, as a TCP and a UDP port may share one).
func (t *serviceTxn) allocateNodePort(ctx context.Context, svc *corev1.Service, port *int32, field string, held, kept map[int32]bool) error {
	a := t.st.NodePorts
	if *port == 0 {
		v, err := a.AllocateNext(ctx, t.owner, t.dryRun)
		if errors.Is(err, ErrFull) {
			return apierrors.NewInternalError(fmt.Errorf("failed to allocate a nodePort: %w", err))
		}
		if err != nil {
			return apierrors.NewInternalError(fmt.Errorf("allocate a nodePort: %w", err))
		}
		p, _ := strconv.Atoi(v)
		*port = int32(p)
		t.taken = append(t.taken, allocation{a, v})
		kept[*port] = true
		return nil
	}
	if held[*port] || kept[*port] {
		kept[*port] = true
		return nil
	}
	v := strconv.Itoa(int(*port))
	var msg string
	switch err := a.Allocate(ctx, v, t.owner, t.dryRun); {
	case err == nil:
		t.taken = append(t.taken, allocation{a, v})
		kept[*port] = true
		return nil
	case errors.Is(err, ErrAllocated):
		msg = "provided port is already allocated"
	case errors.Is(err, ErrNotInRange):
		msg = fmt.Sprintf("provided port is not in the valid range. The range of valid ports is %s", a)
	default:
		return apierrors.NewInternalError(fmt.Errorf("allocate node port %d: %w", *port, err))
	}
	return apierrors.NewInvalid(serviceGVK, svc.Name, apierrors.FieldErrors{apierrors.Invalid(field, *port, msg)})
}
