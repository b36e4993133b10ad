package apiserver

import (
	"context"
	"fmt"
	"time"

	"github.com/minicp/minicp/api/apierrors"
	authenticationv1 "github.com/minicp/minicp/api/authentication/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/authn"
	"github.com/minicp/minicp/apiserver/registry"
)

// Token lifetimes a TokenRequest may ask for, as kube-apiserver bounds
// them: an hour by default; never under ten minutes, which is what a
// client needs to refresh in time; never over 2^32 seconds.
const (
	defaultTokenExpirationSeconds = 60 * 60
	minTokenExpirationSeconds     = 10 * 60
	maxTokenExpirationSeconds     = 1 << 32
)

var tokenRequestGVK = authenticationv1.SchemeGroupVersion.WithKind("TokenRequest")

// installServiceAccountToken serves serviceaccounts/{name}/token.
func (s *Server) installServiceAccountToken() {
	s.addCreateSubresource(corev1.SchemeGroupVersion.WithResource("serviceaccounts"), "token", registry.NamedCreater{
		New:          func() runtime.Object { return &authenticationv1.TokenRequest{} },
		Create:       s.createToken,
		Kind:         tokenRequestGVK,
		ReturnObject: true,
	})
}

// createToken issues a token of the ServiceAccount ns/name, bound to
// the object the request names, if any.
//
// Upstream: k8s.io/kubernetes/pkg/registry/core/serviceaccount/storage
// (TokenREST.Create).
func (s *Server) createToken(ctx context.Context, ns, name string, body runtime.Object, _ registry.CreateOptions) (runtime.Object, error) {
	req := body.(*authenticationv1.TokenRequest)
	var errs apierrors.FieldErrors
	if req.Name != "" && req.Name != name {
		errs = append(errs, apierrors.Invalid("metadata.name", req.Name, "must match the service account name if specified"))
	}
	if req.Namespace != "" && req.Namespace != ns {
		errs = append(errs, apierrors.Invalid("metadata.namespace", req.Namespace, "must match the service account namespace if specified"))
	}
	if req.Spec.ExpirationSeconds == nil {
		exp := int64(defaultTokenExpirationSeconds)
		req.Spec.ExpirationSeconds = &exp
	}
	switch exp := *req.Spec.ExpirationSeconds; {
	case exp < minTokenExpirationSeconds:
		errs = append(errs, apierrors.Invalid("spec.expirationSeconds", exp, "may not specify a duration less than 10 minutes"))
	case exp > maxTokenExpirationSeconds:
		errs = append(errs, apierrors.Invalid("spec.expirationSeconds", exp, "may not specify a duration larger than 2^32 seconds"))
	}
	if len(errs) > 0 {
		return nil, apierrors.NewInvalid(tokenRequestGVK, name, errs)
	}
	sa, err := s.getLive(ctx, corev1.SchemeGroupVersion.WithResource("serviceaccounts"), ns, name)
	if err != nil {
		return nil, err
	}
	opts := authn.TokenOptions{
		ServiceAccount: sa.(*corev1.ServiceAccount),
		Audiences:      req.Spec.Audiences,
		Expiration:     time.Duration(*req.Spec.ExpirationSeconds) * time.Second,
	}
	if ref := req.Spec.BoundObjectRef; ref != nil {
		if err := s.bindToken(ctx, ns, name, ref, &opts); err != nil {
			return nil, err
		}
	}
	if len(opts.Audiences) == 0 {
		opts.Audiences = s.apiAudiences
		req.Spec.Audiences = s.apiAudiences
	}
	token, exp, err := s.saSigner.Issue(opts)
	if err != nil {
		return nil, apierrors.NewInternalError(err)
	}
	out := req.DeepCopyObject().(*authenticationv1.TokenRequest)
	out.TypeMeta = metav1.TypeMeta{APIVersion: authenticationv1.SchemeGroupVersion.String(), Kind: "TokenRequest"}
	out.Name, out.Namespace = name, ns
	out.CreationTimestamp = metav1.NewTime(s.clock.Now())
	out.Status = authenticationv1.TokenRequestStatus{Token: token, ExpirationTimestamp: metav1.NewTime(exp)}
	return out, nil
}

// bindToken looks up the object ref names and records it in opts: a
// Pod (with the node it runs on), a Secret or a Node.
func (s *Server) bindToken(ctx context.Context, ns, saName string, ref *authenticationv1.BoundObjectReference, opts *authn.TokenOptions) error {
	gvk := runtime.ParseGroupVersion(ref.APIVersion).WithKind(ref.Kind)
	var uid string
	switch {
	case gvk.Group == "" && gvk.Kind == "Pod":
		obj, err := s.getLive(ctx, gvrPods, ns, ref.Name)
		if err != nil {
			return err
		}
		pod := obj.(*corev1.Pod)
		if pod.Spec.ServiceAccountName != saName {
			return apierrors.NewBadRequest(fmt.Sprintf("cannot bind token for serviceaccount %q to pod running with serviceaccount %q", saName, pod.Spec.ServiceAccountName))
		}
		opts.Pod, uid = pod, pod.UID
		if pod.Spec.NodeName != "" {
			// The node only records where the pod runs; a node already
			// gone is named without its UID.
			opts.Node = &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: pod.Spec.NodeName}}
			if node, err := s.GetNode(ctx, pod.Spec.NodeName); err == nil {
				opts.Node = node
			}
		}
	case gvk.Group == "" && gvk.Kind == "Secret":
		obj, err := s.getLive(ctx, corev1.SchemeGroupVersion.WithResource("secrets"), ns, ref.Name)
		if err != nil {
			return err
		}
		opts.Secret = obj.(*corev1.Secret)
		uid = opts.Secret.UID
	case gvk.Group == "" && gvk.Kind == "Node":
		obj, err := s.getLive(ctx, corev1.SchemeGroupVersion.WithResource("nodes"), "", ref.Name)
		if err != nil {
			return err
		}
		opts.Node = obj.(*corev1.Node)
		uid = opts.Node.UID
	default:
		return apierrors.NewBadRequest(fmt.Sprintf("cannot bind token to object of type %s", gvk))
	}
	if ref.UID != "" && ref.UID != uid {
		return apierrors.NewConflict(runtime.GroupResource{Group: gvk.Group, Resource: gvk.Kind}, ref.Name,
			fmt.Errorf("the UID in the bound object reference (%s) does not match the UID in record (%s). The object might have been deleted and then recreated", ref.UID, uid))
	}
	return nil
}

// getLive reads ns/name of gvr from etcd, as a GET does.
func (s *Server) getLive(ctx context.Context, gvr runtime.GroupVersionResource, ns, name string) (runtime.Object, error) {
	store, ok := s.Store(gvr)
	if !ok {
		return nil, fmt.Errorf("%s are not served", gvr.Resource)
	}
	return store.Get(ctx, ns, name)
}
