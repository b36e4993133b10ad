package registry

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/minicp/minicp/api/apierrors"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/tracing"
)

// validateCreate is the Strategy's validation of a create, as the
// request's validation hop.
func (s *Store) validateCreate(ctx context.Context, obj runtime.Object) apierrors.FieldErrors {
	span := s.startValidation(ctx)
	errs := s.Strategy.Validate(ctx, obj)
	endValidation(span, errs)
	return errs
}

// validateUpdate is the Strategy's validation of an update, as the
// request's validation hop.
func (s *Store) validateUpdate(ctx context.Context, obj, old runtime.Object) apierrors.FieldErrors {
	span := s.startValidation(ctx)
	errs := s.Strategy.ValidateUpdate(ctx, obj, old)
	endValidation(span, errs)
	return errs
}

// startValidation starts the validation span of a traced request; a
// no-op span otherwise.
func (s *Store) startValidation(ctx context.Context) trace.Span {
	if !trace.SpanContextFromContext(ctx).IsValid() {
		return trace.SpanFromContext(ctx)
	}
	_, span := tracing.TracerFrom(ctx, "apiserver").Start(ctx, tracing.HopValidation,
		trace.WithAttributes(tracing.KeyResource.String(s.Resource.GVR.Resource)))
	return span
}

func endValidation(span trace.Span, errs apierrors.FieldErrors) {
	if !span.SpanContext().IsValid() {
		return // the request's own span, untraced: not ours to end
	}
	if len(errs) > 0 {
		span.SetAttributes(attribute.Int("errors", len(errs)))
		span.SetStatus(codes.Error, errs[0].Error())
	}
	span.End()
}
