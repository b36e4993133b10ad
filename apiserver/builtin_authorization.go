package apiserver

import (
	"context"
	"fmt"
	"reflect"

	"github.com/minicp/minicp/api/apierrors"
	authenticationv1 "github.com/minicp/minicp/api/authentication/v1"
	authorizationv1 "github.com/minicp/minicp/api/authorization/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	rbacv1 "github.com/minicp/minicp/api/rbac/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/authz"
	"github.com/minicp/minicp/apiserver/registry"
	"github.com/minicp/minicp/apiserver/request"
)

// installReviewResources installs the create-only review resources:
// authorization.k8s.io's access and rules reviews, which ask the
// server's authorizer, and authentication.k8s.io's SelfSubjectReview,
// which reports the caller, and TokenReview, which reports a token's
// owner. Nothing is stored: a create returns the
// review with its status filled in.
//
// Upstream: k8s.io/kubernetes/pkg/registry/authorization and
// k8s.io/kubernetes/pkg/registry/authentication/selfsubjectreview.
func (s *Server) installReviewResources() error {
	az, an := authorizationv1.SchemeGroupVersion, authenticationv1.SchemeGroupVersion
	reviews := []struct {
		gvr    runtime.GroupVersionResource
		new    func() runtime.Object
		create func(ctx context.Context, ns string, body runtime.Object) (runtime.Object, error)
	}{
		{az.WithResource("subjectaccessreviews"), func() runtime.Object { return &authorizationv1.SubjectAccessReview{} }, s.createSubjectAccessReview},
		{az.WithResource("localsubjectaccessreviews"), func() runtime.Object { return &authorizationv1.LocalSubjectAccessReview{} }, s.createLocalSubjectAccessReview},
		{az.WithResource("selfsubjectaccessreviews"), func() runtime.Object { return &authorizationv1.SelfSubjectAccessReview{} }, s.createSelfSubjectAccessReview},
		{az.WithResource("selfsubjectrulesreviews"), func() runtime.Object { return &authorizationv1.SelfSubjectRulesReview{} }, s.createSelfSubjectRulesReview},
		{an.WithResource("selfsubjectreviews"), func() runtime.Object { return &authenticationv1.SelfSubjectReview{} }, s.createSelfSubjectReview},
		{an.WithResource("tokenreviews"), func() runtime.Object { return &authenticationv1.TokenReview{} }, s.createTokenReview},
	}
	for _, rv := range reviews {
		info, ok := s.scheme.Resource(rv.gvr)
		if !ok {
			return fmt.Errorf("apiserver: the scheme has no resource %s", rv.gvr)
		}
		create := rv.create
		fn := &registry.NamedCreater{
			New: rv.new,
			Create: func(ctx context.Context, ns, _ string, body runtime.Object, _ registry.CreateOptions) (runtime.Object, error) {
				return create(ctx, ns, body)
			},
			ReturnObject: true,
		}
		if err := s.InstallResource(Resource{Info: info, Strategy: reviewStrategy{}, CreateOverride: fn}); err != nil {
			return err
		}
	}
	return nil
}

// resourceAttributes turns a review's request into the attributes the
// authorizer decides on, as a real request's RequestInfo would be.
//
// Upstream: k8s.io/kubernetes/pkg/registry/authorization/util
// (ResourceAttributesFrom, NonResourceAttributesFrom).
func resourceAttributes(u *request.User, ra *authorizationv1.ResourceAttributes, nra *authorizationv1.NonResourceAttributes) authz.Attributes {
	if ra != nil {
		version := ra.Version
		if version == "" {
			version = "*"
		}
		return authz.Attributes{User: u, RequestInfo: &request.RequestInfo{
			IsResourceRequest: true, Verb: ra.Verb, APIGroup: ra.Group, APIVersion: version,
			Namespace: ra.Namespace, Resource: ra.Resource, Subresource: ra.Subresource, Name: ra.Name,
		}}
	}
	return authz.Attributes{User: u, RequestInfo: &request.RequestInfo{Path: nra.Path, Verb: nra.Verb}}
}

// review asks the authorizer and words the answer as a status.
func (s *Server) review(ctx context.Context, a authz.Attributes) authorizationv1.SubjectAccessReviewStatus {
	d, reason, err := s.authorizer.Authorize(ctx, a)
	st := authorizationv1.SubjectAccessReviewStatus{
		Allowed: d == authz.DecisionAllow, Denied: d == authz.DecisionDeny, Reason: reason,
	}
	if err != nil {
		st.EvaluationError = err.Error()
	}
	return st
}

// validateAccessSpec checks that exactly one kind of attributes is given.
//
// Upstream: k8s.io/kubernetes/pkg/apis/authorization/validation
// (ValidateSubjectAccessReviewSpec).
func validateAccessSpec(ra *authorizationv1.ResourceAttributes, nra *authorizationv1.NonResourceAttributes) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	if ra != nil && nra != nil {
		errs = append(errs, apierrors.Invalid("spec.nonResourceAttributes", nra, "cannot be specified in combination with resourceAttributes"))
	}
	if ra == nil && nra == nil {
		errs = append(errs, apierrors.Invalid("spec.resourceAttributes", nra, "exactly one of nonResourceAttributes or resourceAttributes must be specified"))
	}
	return errs
}

func emptyMeta(m metav1.ObjectMeta) bool {
	m.ManagedFields = nil
	return reflect.DeepEqual(m, metav1.ObjectMeta{})
}

func (s *Server) createSubjectAccessReview(ctx context.Context, _ string, body runtime.Object) (runtime.Object, error) {
	sar := body.(*authorizationv1.SubjectAccessReview)
	errs := validateAccessSpec(sar.Spec.ResourceAttributes, sar.Spec.NonResourceAttributes)
	if sar.Spec.User == "" && len(sar.Spec.Groups) == 0 {
		errs = append(errs, apierrors.Invalid("spec.user", sar.Spec.User, "at least one of user or group must be specified"))
	}
	if !emptyMeta(sar.ObjectMeta) {
		errs = append(errs, apierrors.Invalid("metadata", sar.ObjectMeta, "must be empty"))
	}
	if len(errs) > 0 {
		return nil, apierrors.NewInvalid(authorizationv1.SchemeGroupVersion.WithKind("SubjectAccessReview"), "", errs)
	}
	u := &request.User{Name: sar.Spec.User, UID: sar.Spec.UID, Groups: sar.Spec.Groups}
	sar.Status = s.review(ctx, resourceAttributes(u, sar.Spec.ResourceAttributes, sar.Spec.NonResourceAttributes))
	sar.TypeMeta = metav1.TypeMeta{APIVersion: authorizationv1.SchemeGroupVersion.String(), Kind: "SubjectAccessReview"}
	return sar, nil
}

func (s *Server) createLocalSubjectAccessReview(ctx context.Context, ns string, body runtime.Object) (runtime.Object, error) {
	sar := body.(*authorizationv1.LocalSubjectAccessReview)
	if ns == "" {
		return nil, apierrors.NewBadRequest("namespace is required on this type: " + ns)
	}
	if ra := sar.Spec.ResourceAttributes; ra != nil && ra.Namespace != ns {
		return nil, apierrors.NewBadRequest("spec.resourceAttributes.namespace must match namespace: " + ns)
	}
	errs := validateAccessSpec(sar.Spec.ResourceAttributes, sar.Spec.NonResourceAttributes)
	if sar.Spec.User == "" && len(sar.Spec.Groups) == 0 {
		errs = append(errs, apierrors.Invalid("spec.user", sar.Spec.User, "at least one of user or group must be specified"))
	}
	if sar.Spec.NonResourceAttributes != nil {
		errs = append(errs, apierrors.Invalid("spec.nonResourceAttributes", sar.Spec.NonResourceAttributes, "disallowed on this kind of request"))
	}
	meta := sar.ObjectMeta
	meta.Namespace = ""
	if !emptyMeta(meta) {
		errs = append(errs, apierrors.Invalid("metadata", sar.ObjectMeta, "must be empty except for namespace"))
	}
	if len(errs) > 0 {
		return nil, apierrors.NewInvalid(authorizationv1.SchemeGroupVersion.WithKind("LocalSubjectAccessReview"), "", errs)
	}
	u := &request.User{Name: sar.Spec.User, UID: sar.Spec.UID, Groups: sar.Spec.Groups}
	sar.Status = s.review(ctx, resourceAttributes(u, sar.Spec.ResourceAttributes, nil))
	sar.TypeMeta = metav1.TypeMeta{APIVersion: authorizationv1.SchemeGroupVersion.String(), Kind: "LocalSubjectAccessReview"}
	return sar, nil
}

func (s *Server) createSelfSubjectAccessReview(ctx context.Context, _ string, body runtime.Object) (runtime.Object, error) {
	sar := body.(*authorizationv1.SelfSubjectAccessReview)
	u, ok := request.UserFrom(ctx)
	if !ok || u == nil {
		return nil, apierrors.NewBadRequest("no user present on request")
	}
	if errs := validateAccessSpec(sar.Spec.ResourceAttributes, sar.Spec.NonResourceAttributes); len(errs) > 0 {
		return nil, apierrors.NewInvalid(authorizationv1.SchemeGroupVersion.WithKind("SelfSubjectAccessReview"), "", errs)
	}
	sar.Status = s.review(ctx, resourceAttributes(u, sar.Spec.ResourceAttributes, sar.Spec.NonResourceAttributes))
	sar.TypeMeta = metav1.TypeMeta{APIVersion: authorizationv1.SchemeGroupVersion.String(), Kind: "SelfSubjectAccessReview"}
	return sar, nil
}

// createSelfSubjectRulesReview lists the caller's rules in the
// namespace: RBAC's rules in RBAC mode; everything for an authenticated
// user (the public paths for anyone else) under AllowAuthenticated; for
// a custom authorizer, nothing, marked incomplete.
//
// Upstream: k8s.io/kubernetes/pkg/registry/authorization/selfsubjectrulesreview.
func (s *Server) createSelfSubjectRulesReview(ctx context.Context, _ string, body runtime.Object) (runtime.Object, error) {
	ssrr := body.(*authorizationv1.SelfSubjectRulesReview)
	u, ok := request.UserFrom(ctx)
	if !ok || u == nil {
		return nil, apierrors.NewBadRequest("no user present on request")
	}
	if ssrr.Spec.Namespace == "" {
		return nil, apierrors.NewBadRequest("no namespace on request")
	}
	status := authorizationv1.SubjectRulesReviewStatus{
		ResourceRules: []authorizationv1.ResourceRule{}, NonResourceRules: []authorizationv1.NonResourceRule{},
	}
	_, isNode := request.NodeIdentity(u)
	switch {
	case s.authorizationModeEnabled(authz.ModeNode) && isNode:
		// Upstream: the Node authorizer's RulesFor, which cannot list
		// what it decides object by object.
		status.Incomplete = true
		status.EvaluationError = "node authorizer does not support user rule resolution"
	case s.authorizationModeEnabled(authz.ModeAlwaysAllow):
		all := []string{rbacv1.VerbAll}
		status.ResourceRules = append(status.ResourceRules, authorizationv1.ResourceRule{Verbs: all, APIGroups: all, Resources: all})
		status.NonResourceRules = append(status.NonResourceRules, authorizationv1.NonResourceRule{Verbs: all, NonResourceURLs: all})
	case s.authorizationModeEnabled(authz.ModeRBAC):
		rules, err := s.rbac.Resolver().RulesFor(ctx, u, ssrr.Spec.Namespace)
		for _, r := range rules {
			if len(r.Resources) > 0 {
				status.ResourceRules = append(status.ResourceRules, authorizationv1.ResourceRule{
					Verbs: r.Verbs, APIGroups: r.APIGroups, Resources: r.Resources, ResourceNames: r.ResourceNames,
				})
			}
			if len(r.NonResourceURLs) > 0 {
				status.NonResourceRules = append(status.NonResourceRules, authorizationv1.NonResourceRule{
					Verbs: r.Verbs, NonResourceURLs: r.NonResourceURLs,
				})
			}
		}
		if err != nil {
			status.EvaluationError = err.Error()
		}
	case s.authorizationModeEnabled(authz.ModeAllowAuthenticated):
		all := []string{rbacv1.VerbAll}
		if u.Name != request.AnonymousUser {
			status.ResourceRules = append(status.ResourceRules, authorizationv1.ResourceRule{Verbs: all, APIGroups: all, Resources: all})
			status.NonResourceRules = append(status.NonResourceRules, authorizationv1.NonResourceRule{Verbs: all, NonResourceURLs: all})
		} else {
			status.NonResourceRules = append(status.NonResourceRules, authorizationv1.NonResourceRule{Verbs: []string{"get"}, NonResourceURLs: authz.PublicPaths()})
		}
	default:
		status.Incomplete = true
	}
	return &authorizationv1.SelfSubjectRulesReview{
		TypeMeta: metav1.TypeMeta{APIVersion: authorizationv1.SchemeGroupVersion.String(), Kind: "SelfSubjectRulesReview"},
		Status:   status,
	}, nil
}

// createSelfSubjectReview reports the caller as authentication (and
// impersonation) established it.
//
// Upstream: k8s.io/kubernetes/pkg/registry/authentication/selfsubjectreview.
func (s *Server) createSelfSubjectReview(ctx context.Context, _ string, _ runtime.Object) (runtime.Object, error) {
	u, ok := request.UserFrom(ctx)
	if !ok || u == nil {
		return nil, apierrors.NewBadRequest("no user present on request")
	}
	return &authenticationv1.SelfSubjectReview{
		TypeMeta:   metav1.TypeMeta{APIVersion: authenticationv1.SchemeGroupVersion.String(), Kind: "SelfSubjectReview"},
		ObjectMeta: metav1.ObjectMeta{CreationTimestamp: metav1.NewTime(s.clock.Now())},
		Status:     authenticationv1.SelfSubjectReviewStatus{UserInfo: userInfo(u)},
	}, nil
}

// userInfo is u as the authentication.k8s.io kinds report it.
func userInfo(u *request.User) authenticationv1.UserInfo {
	info := authenticationv1.UserInfo{Username: u.Name, UID: u.UID, Groups: u.Groups}
	if len(u.Extra) > 0 {
		info.Extra = make(map[string]authenticationv1.ExtraValue, len(u.Extra))
		for k, v := range u.Extra {
			info.Extra[k] = authenticationv1.ExtraValue(v)
		}
	}
	return info
}

// reviewStrategy is the strategy of the review resources. Their only
// verb is create, which their CreateOverride serves, so the strategy is
// never asked anything; it exists because every installed resource has
// one.
type reviewStrategy struct{ registry.DefaultStrategy }

func (reviewStrategy) Validate(context.Context, runtime.Object) apierrors.FieldErrors { return nil }
func (reviewStrategy) ValidateUpdate(context.Context, runtime.Object, runtime.Object) apierrors.FieldErrors {
	return nil
}
