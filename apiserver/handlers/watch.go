package handlers

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"

	"github.com/minicp/minicp/api/apierrors"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/apiserver/handlers/negotiation"
	"github.com/minicp/minicp/apiserver/registry"
	"github.com/minicp/minicp/apiserver/request"
	"github.com/minicp/minicp/apiserver/responsewriters"
	"github.com/minicp/minicp/storage"
)

// Watch streams events, flushed as soon as no other event is waiting,
// until the client goes away, timeoutSeconds pass or storage ends the
// watch. The stream is newline-delimited JSON, one
// {"type":"ADDED","object":{...}} per line, or, for a client that
// negotiated protobuf, length-prefixed frames of protobuf WatchEvents
// (Content-Type application/vnd.kubernetes.protobuf;stream=watch); each
// event's object is the object itself, its PartialObjectMetadata or a
// Table, as out asks (see watchEncoder). A YAML watch is 406: YAML has no
// stream framing.
//
// A watch that cannot start from the requested resourceVersion because
// it is too old is a 200 whose only event is an ERROR carrying a 410
// Expired Status, as kube-apiserver sends it: clients (client-go's
// Reflector, kubectl) relist on it.
//
// The watch asks the watch cache for runtime.CacheableObjects, so an
// event that goes to many watchers is encoded once per format for all of
// them.
//
// Upstream: k8s.io/apiserver/pkg/endpoints/handlers (serveWatchHandler, WatchServer.HandleHTTP).
func (s *Scope) Watch(w http.ResponseWriter, r *http.Request, opts registry.ListOptions, out negotiation.MediaTypeOptions) {
	ctx := r.Context()
	info, _ := request.RequestInfoFrom(ctx)
	stream, err := negotiation.NegotiateOutputMediaTypeStream(r, negotiation.Serializers, s.restrictions())
	if err != nil {
		responsewriters.WriteError(w, r, err)
		return
	}
	timeout, err := watchTimeout(r)
	if err != nil {
		responsewriters.WriteError(w, r, err)
		return
	}
	enc, err := s.newWatchEncoder(r, stream, out.Convert)
	if err != nil {
		responsewriters.WriteError(w, r, err)
		return
	}
	watcher, err := s.Store.Watch(storage.WithCacheableObjects(ctx), info.Namespace, opts)
	if err != nil {
		responsewriters.WriteError(w, r, err)
		return
	}
	defer watcher.Stop()

	timer := s.Clock.NewTimer(timeout)
	defer timer.Stop()
	flusher, _ := w.(http.Flusher)
	w.Header().Set("Content-Type", stream.StreamContentType())
	w.Header().Set("Transfer-Encoding", "chunked")
	w.WriteHeader(http.StatusOK)
	if flusher != nil {
		flusher.Flush()
	}
	// frame is reused for every event: one Write per event.
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
			if frame, err = enc.appendEvent(frame[:0], ev); err != nil {
				// An object that cannot be encoded ends the watch with an
				// ERROR event saying why.
				ev = watch.Event{Type: watch.Error, Object: responseStatus(err)}
				if frame, err = enc.appendEvent(frame[:0], ev); err != nil {
					return
				}
			}
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

// responseStatus is the Status of err, for an ERROR event.
func responseStatus(err error) runtime.Object {
	st := responsewriters.StatusFor(err).Status()
	return &st
}

// minRequestTimeout is kube-apiserver's --min-request-timeout default: a
// watch without a timeout of its own ends after between one and two of
// it.
const minRequestTimeout = 30 * time.Minute

// watchTimeout reads ?timeoutSeconds. Missing or 0 means "not set", as in
// kube-apiserver: the watch ends after a random time in
// [minRequestTimeout, 2*minRequestTimeout), so clients periodically
// re-establish watches, and not all at once, which spreads them across
// servers.
//
// Upstream: k8s.io/apiserver/pkg/endpoints/handlers (ListResource).
func watchTimeout(r *http.Request) (time.Duration, error) {
	var secs int64
	if v := r.URL.Query().Get("timeoutSeconds"); v != "" {
		var err error
		if secs, err = strconv.ParseInt(v, 10, 64); err != nil || secs < 0 {
			return 0, apierrors.NewBadRequest(fmt.Sprintf("invalid timeoutSeconds %q", v))
		}
	}
	if secs == 0 {
		return minRequestTimeout + rand.N(minRequestTimeout), nil
	}
	return time.Duration(secs) * time.Second, nil
}
