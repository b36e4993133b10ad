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
	"github.com/minicp/minicp/watchcache"
)

// Watch streams events as newline-delimited JSON, one
// {"type":"ADDED","object":{...}} per line, flushed as soon as no other
// event is waiting, until the client goes away, timeoutSeconds pass or storage ends the
// watch. A watch that cannot start from the requested resourceVersion
// because it is too old is a 200 whose only event is an ERROR carrying a
// 410 Expired Status, as kube-apiserver sends it: clients (client-go's
// Reflector, kubectl) relist on it.
//
// The watch asks the watch cache for CachingObjects, so an event that
// goes to many watchers is encoded once for all of them.
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
	watcher, err := s.Store.Watch(watchcache.WithCachingObjects(ctx), info.Namespace, opts)
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
	// frame is reused for every event: one Write per event, as
	// json.Encoder made.
	var frame []byte
	ch := watcher.ResultChan()
	for {
		select {
		case <-ctx.Done():
			return
		case <-timer.C():
			return
		case ev, ok := <-ch:
			if !ok {
				return
			}
			data, err := s.watchEventData(r, ev, out)
			if err != nil {
				ev.Type = watch.Error
				if data, err = json.Marshal(responseStatus(err)); err != nil {
					return
				}
			}
			frame = appendWatchEvent(frame[:0], ev.Type, data)
			if _, err := w.Write(frame); err != nil {
				return // the client went away
			}
			// Flush once a burst is written, not after each of its events
			// (upstream's len(ch) == 0): the client gets the whole burst
			// as soon as its last event is written, in fewer chunks.
			if flusher != nil && (len(ch) == 0 || ev.Type == watch.Error) {
				flusher.Flush()
			}
			if ev.Type == watch.Error {
				return
			}
		}
	}
}

// watchEventData is the JSON of one event's object: the object with its
// kind set, or its Table row when the client asked for tables. The JSON
// of a CachingObject's object is computed once, by the first watch to
// send it, and shared by the others.
func (s *Scope) watchEventData(r *http.Request, ev watch.Event, out output) ([]byte, error) {
	if co, ok := ev.Object.(*watchcache.CachingObject); ok {
		if out == outputObject {
			return co.CacheEncode(s.objectJSON)
		}
		ev.Object = co.GetObject()
	}
	if ev.Type == watch.Error {
		return json.Marshal(ev.Object)
	}
	if out == outputTable && s.Tables != nil && ev.Type != watch.Bookmark {
		table, err := s.Tables.ConvertToTable(r.Context(), s.withKind(ev.Object), r.URL.Query().Get("includeObject"), s.Clock.Now())
		if err != nil {
			return nil, err
		}
		return json.Marshal(table)
	}
	return s.objectJSON(ev.Object)
}

// objectJSON is the JSON of a watch event's object, with its kind set.
func (s *Scope) objectJSON(obj runtime.Object) ([]byte, error) {
	return json.Marshal(s.withKind(obj))
}

// withKind returns obj with its kind set: obj itself when it has one,
// else a copy. Event objects from the watch cache are shared by every
// watcher: they are written to only when they lack a kind (bookmarks),
// and then only as a copy.
func (s *Scope) withKind(obj runtime.Object) runtime.Object {
	if _, isStatus := obj.(*metav1.Status); isStatus || obj.GetTypeMeta().Kind != "" {
		return obj
	}
	obj = obj.DeepCopyObject()
	_ = s.Store.Scheme.SetTypeMeta(obj)
	return obj
}

// appendWatchEvent appends one line of the watch stream to b: the bytes
// json.Encoder writes for metav1.WatchEvent{Type: typ, Object: object}
// when object is encoding/json's output (compact, HTML-escaped), which it
// copies as it is instead of scanning it again.
//
// Upstream: k8s.io/apimachinery/pkg/runtime/serializer/streaming (Encoder.Encode).
func appendWatchEvent(b []byte, typ watch.EventType, object []byte) []byte {
	b = append(b, `{"type":`...)
	b = appendJSONString(b, string(typ))
	b = append(b, `,"object":`...)
	b = append(b, object...)
	return append(b, "}\n"...)
}

// appendJSONString appends s as encoding/json writes a string. The event
// types are plain ASCII words, written as they are; anything else goes
// through encoding/json.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 'A' || c > 'Z' {
			quoted, _ := json.Marshal(s)
			return append(b, quoted...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

func responseStatus(err error) runtime.Object {
	st := responsewriters.StatusFor(err).Status()
	return &st
}
