package handlers

import (
	"bytes"
	"fmt"
	"net/http"
	"strconv"

	"github.com/minicp/minicp/api/apierrors"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/admission"
	"github.com/minicp/minicp/apiserver/handlers/negotiation"
	"github.com/minicp/minicp/apiserver/request"
	"github.com/minicp/minicp/apiserver/responsewriters"
)

// Delete serves DELETE on an object. It answers 200, with the object (its
// terminating state when its deletion waits for finalizers or a grace
// period) or a Success Status for kinds that do not return it; 202 only
// when the deletion waits and the client asked for orphanDependents=false,
// as kube-apiserver does (it keeps 200 otherwise for old clients).
func (s *Scope) Delete(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	info, _ := request.RequestInfoFrom(ctx)
	out, err := s.negotiateOutput(r)
	if err != nil {
		responsewriters.WriteError(w, r, err)
		return
	}
	opts, err := s.parseDeleteOptions(r)
	if err != nil {
		responsewriters.WriteError(w, r, err)
		return
	}
	dryRun := len(opts.DryRun) > 0
	obj, deleted, err := s.Store.Delete(ctx, info.Namespace, info.Name,
		s.validating(admission.Delete, info.Namespace, info.Name, dryRun), opts)
	if err != nil {
		responsewriters.WriteError(w, r, err)
		return
	}
	code := http.StatusOK
	if !deleted && opts.OrphanDependents != nil && !*opts.OrphanDependents {
		code = http.StatusAccepted
	}
	if deleted && !s.Store.ReturnDeletedObject {
		meta := metav1.MustAccessor(obj)
		s.writeResult(w, r, out, code, &metav1.Status{
			TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
			Status:   metav1.StatusSuccess,
			Details: &metav1.StatusDetails{Name: meta.Name, Group: s.Store.Resource.GVR.Group,
				Kind: s.Store.Resource.GVR.Resource, UID: meta.UID},
		})
		return
	}
	s.writeResult(w, r, out, code, obj)
}

// DeleteCollection serves DELETE on a collection: every object matching
// the list options is deleted as Delete would.
func (s *Scope) DeleteCollection(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	info, _ := request.RequestInfoFrom(ctx)
	out, err := s.negotiateOutput(r)
	if err != nil {
		responsewriters.WriteError(w, r, err)
		return
	}
	opts, err := s.parseDeleteOptions(r)
	if err != nil {
		responsewriters.WriteError(w, r, err)
		return
	}
	listOpts, err := s.parseListOptions(r)
	if err != nil {
		responsewriters.WriteError(w, r, err)
		return
	}
	dryRun := len(opts.DryRun) > 0
	list, err := s.Store.DeleteCollection(ctx, info.Namespace,
		s.validating(admission.Delete, info.Namespace, "", dryRun), opts, listOpts)
	if err != nil {
		responsewriters.WriteError(w, r, err)
		return
	}
	s.writeResult(w, r, out, http.StatusOK, list)
}

// parseDeleteOptions reads DeleteOptions from the body (kubectl sends
// them there, client-go's typed clients as protobuf) and the query
// parameters (curl users send them there).
func (s *Scope) parseDeleteOptions(r *http.Request) (*metav1.DeleteOptions, error) {
	opts := &metav1.DeleteOptions{}
	if r.Body != nil {
		data, err := readBody(r)
		if err != nil {
			return nil, err
		}
		if len(bytes.TrimSpace(data)) > 0 {
			in, err := negotiation.NegotiateInputSerializer(r)
			if err != nil {
				return nil, err
			}
			if in == negotiation.Protobuf {
				err = runtime.DecodeProtobuf(data, opts)
			} else {
				_, err = runtime.Decode(data, opts)
			}
			if err != nil {
				return nil, apierrors.NewBadRequest("decode DeleteOptions: " + err.Error())
			}
		}
	}
	q := r.URL.Query()
	if v := q.Get("gracePeriodSeconds"); v != "" {
		g, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return nil, apierrors.NewBadRequest(fmt.Sprintf("invalid gracePeriodSeconds %q", v))
		}
		opts.GracePeriodSeconds = &g
	}
	if v := q.Get("propagationPolicy"); v != "" {
		p := metav1.DeletionPropagation(v)
		opts.PropagationPolicy = &p
	}
	if v := q.Get("orphanDependents"); v != "" {
		orphan, err := strconv.ParseBool(v)
		if err != nil {
			return nil, apierrors.NewBadRequest(fmt.Sprintf("invalid orphanDependents %q", v))
		}
		opts.OrphanDependents = &orphan
	}
	if v := q["dryRun"]; len(v) > 0 {
		opts.DryRun = v
	}
	return opts, validateDeleteOptions(opts)
}

func validateDeleteOptions(opts *metav1.DeleteOptions) error {
	var errs apierrors.FieldErrors
	if opts.GracePeriodSeconds != nil && *opts.GracePeriodSeconds < 0 {
		errs = append(errs, apierrors.Invalid("gracePeriodSeconds", *opts.GracePeriodSeconds, "must be greater than or equal to 0"))
	}
	if p := opts.PropagationPolicy; p != nil {
		switch *p {
		case metav1.DeletePropagationBackground, metav1.DeletePropagationForeground, metav1.DeletePropagationOrphan:
		default:
			errs = append(errs, apierrors.NotSupported("propagationPolicy", *p, []string{"Foreground", "Background", "Orphan"}))
		}
	}
	for _, d := range opts.DryRun {
		if d != "All" {
			errs = append(errs, apierrors.NotSupported("dryRun", d, []string{"All"}))
		}
	}
	if len(errs) > 0 {
		return apierrors.NewInvalid(runtime.GroupVersionKind{Group: "meta.k8s.io", Version: "v1", Kind: "DeleteOptions"}, "", errs)
	}
	return nil
}
