package handlers

import (
	"encoding/json"
	"net/http"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/apiserver/registry"
	"github.com/minicp/minicp/apiserver/request"
	"github.com/minicp/minicp/apiserver/responsewriters"
)

// Watch streams events as newline-delimited JSON, one
// {"type":"ADDED","object":{...}} per line, flushed as each event arrives,
// until the client goes away, timeoutSeconds pass or storage ends the
// watch. A watch that cannot start from the requested resourceVersion
// because it is too old is a 200 whose only event is an ERROR carrying a
// 410 Expired Status, as kube-apiserver sends it: clients (client-go's
// Reflector, kubectl) relist on it.
//
// Upstream: k8s.io/apiserver/pkg/endpoints/handlers (WatchServer.HandleHTTP).
func (s *Scope) Watch(w http.ResponseWriter, r *http.Request, opts registry.ListOptions) {
	ctx := r.Context()
	info, _ := request.RequestInfoFrom(ctx)
	out, err := negotiate(r)
	if err != nil {
		responsewriters.WriteError(w, r, err)
		return
	}
	timeout, err := watchTimeout(r)
	if err != nil {
		responsewriters.WriteError(w, r, err)
		return
	}
	watcher, err := s.Store.Watch(ctx, info.Namespace, opts)
	if err != nil {
		responsewriters.WriteError(w, r, err)
		return
	}
	defer watcher.Stop()

	timer := s.Clock.NewTimer(timeout)
	defer timer.Stop()
	flusher, _ := w.(http.Flusher)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Transfer-Encoding", "chunked")
	w.WriteHeader(http.StatusOK)
	if flusher != nil {
		flusher.Flush()
	}
	enc := json.NewEncoder(w)
	for {
		select {
		case <-ctx.Done():
			return
		case <-timer.C():
			return
		case ev, ok := <-watcher.ResultChan():
			if !ok {
				return
			}
			obj, err := s.watchObject(r, ev, out)
			if err != nil {
				obj = responseStatus(err)
				ev.Type = watch.Error
			}
			data, err := json.Marshal(obj)
			if err != nil {
				return
			}
			if err := enc.Encode(metav1.WatchEvent{Type: string(ev.Type), Object: data}); err != nil {
				return // the client went away
			}
			if flusher != nil {
				flusher.Flush()
			}
			if ev.Type == watch.Error {
				return
			}
		}
	}
}

// watchObject is the payload of one event: the object with its kind set,
// or its Table row when the client asked for tables.
func (s *Scope) watchObject(r *http.Request, ev watch.Event, out output) (any, error) {
	if ev.Type == watch.Error {
		return ev.Object, nil
	}
	obj := ev.Object
	// Event objects from the watch cache are shared by every watcher: write
	// to them only when they lack a kind (bookmarks), never otherwise.
	if _, isStatus := obj.(*metav1.Status); !isStatus && obj.GetTypeMeta().Kind == "" {
		obj = obj.DeepCopyObject()
		_ = s.Store.Scheme.SetTypeMeta(obj)
	}
	if out == outputTable && s.Tables != nil && ev.Type != watch.Bookmark {
		return s.Tables.ConvertToTable(r.Context(), obj, r.URL.Query().Get("includeObject"), s.Clock.Now())
	}
	return obj, nil
}

func responseStatus(err error) runtime.Object {
	st := responsewriters.StatusFor(err).Status()
	return &st
}
