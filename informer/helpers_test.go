package informer_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver"
	"github.com/minicp/minicp/apiserver/apiservertest"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/informer"
	"github.com/minicp/minicp/storage/storagetest"
	"github.com/minicp/minicp/wait"
)

var podsGVR = corev1.SchemeGroupVersion.WithResource("pods")

// fastBackoff keeps retries in tests quick: the reflector reconnects
// within milliseconds of a server coming back.
var fastBackoff = wait.Backoff{Initial: 5 * time.Millisecond, Factor: 2, Cap: 50 * time.Millisecond}

func asPod(obj any) *corev1.Pod {
	if tomb, ok := obj.(informer.DeletedFinalStateUnknown); ok {
		obj = tomb.Obj
	}
	p, ok := obj.(*corev1.Pod)
	if !ok {
		panic(fmt.Sprintf("%T is not a *Pod", obj))
	}
	return p
}

// newAPIServer returns an API server on the shared etcd under prefix, not
// listening: for the in-memory transport.
func newAPIServer(t testing.TB, prefix string, mutate ...func(*apiserver.Options)) *apiserver.Server {
	t.Helper()
	return apiservertest.New(t, append([]func(*apiserver.Options){func(o *apiserver.Options) { o.StoragePrefix = prefix }}, mutate...)...)
}

// newClientset returns a clientset over rt.
func newClientset(t testing.TB, rt http.RoundTripper) *client.Clientset {
	t.Helper()
	c, err := client.New(client.Config{Host: "http://in-memory", Transport: rt, BearerToken: apiservertest.AdminToken})
	require.NoError(t, err)
	cs, err := client.NewClientset(c)
	require.NoError(t, err)
	return cs
}

// inMemoryClientset starts an API server on a fresh prefix and returns a
// clientset that reaches it in memory.
func inMemoryClientset(t testing.TB) *client.Clientset {
	t.Helper()
	return newClientset(t, client.NewInMemoryTransport(newAPIServer(t, storagetest.Prefix(t)).Handler()))
}

// newPodInformer returns an informer of the pods of namespace default.
func newPodInformer(t testing.TB, cs *client.Clientset, opts informer.SharedInformerOptions) *informer.SharedInformer {
	t.Helper()
	res, err := client.NewResource[metav1.Object, metav1.ListInterface](cs.Client(), podsGVR)
	require.NoError(t, err)
	opts.ListerWatcher = res.Namespace("default")
	opts.Name = "pods"
	if opts.Backoff == nil {
		opts.Backoff = &fastBackoff
	}
	inf, err := informer.NewSharedInformer(opts)
	require.NoError(t, err)
	return inf
}

// run starts the informer until the test ends and waits for its sync.
func run(t testing.TB, inf *informer.SharedInformer) {
	t.Helper()
	clustertest.Start(t, inf)
	waitCtx, waitCancel := clustertest.WaitContext(t)
	defer waitCancel()
	require.NoError(t, inf.WaitForSync(waitCtx))
}

func newPod(name string, labels map[string]string) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: name, Labels: labels},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "busybox"}}},
	}
}

func createPod(t testing.TB, cs *client.Clientset, name string, labels map[string]string) *corev1.Pod {
	t.Helper()
	p, err := cs.Pods("default").Create(t.Context(), newPod(name, labels), client.WriteOptions{})
	require.NoError(t, err, "create pod %s", name)
	return p
}

// recorder is a handler that records each call as a line:
// "add NAME [initial]", "update NAME OLDRV->NEWRV", "sync NAME RV" (an
// update with an unchanged object), "delete NAME" or "delete NAME
// (tombstone)". Lines go to a channel the test reads in order.
type recorder struct {
	lines chan string
	// gate, when set, is received from before each call: a slow handler.
	gate chan struct{}
}

func newRecorder() *recorder { return &recorder{lines: make(chan string, 10000)} }

func (r *recorder) wait() {
	if r.gate != nil {
		<-r.gate
	}
}

func (r *recorder) OnAdd(obj runtime.Object, isInInitialList bool) {
	r.wait()
	line := "add " + asPod(obj).Name
	if isInInitialList {
		line += " initial"
	}
	r.lines <- line
}

func (r *recorder) OnUpdate(oldObj, newObj runtime.Object) {
	r.wait()
	o, n := asPod(oldObj), asPod(newObj)
	if o.ResourceVersion == n.ResourceVersion {
		r.lines <- "sync " + n.Name + " " + n.ResourceVersion
		return
	}
	r.lines <- fmt.Sprintf("update %s %s->%s", n.Name, o.ResourceVersion, n.ResourceVersion)
}

func (r *recorder) OnDelete(obj any) {
	r.wait()
	line := "delete " + asPod(obj).Name
	if _, ok := obj.(informer.DeletedFinalStateUnknown); ok {
		line += " (tombstone)"
	}
	r.lines <- line
}

// next returns the next line, failing the test if none comes.
func (r *recorder) next(t testing.TB) string {
	t.Helper()
	return clustertest.Receive(t, r.lines, "handler call")
}

// nextN returns the next n lines.
func (r *recorder) nextN(t testing.TB, n int) []string {
	t.Helper()
	out := make([]string, 0, n)
	for range n {
		out = append(out, r.next(t))
	}
	return out
}

// empty reports whether no line is waiting.
func (r *recorder) empty() bool { return len(r.lines) == 0 }

// assertMatchesServer checks that the informer holds exactly the pods the
// server has, at the same resourceVersions.
func assertMatchesServer(t testing.TB, cs *client.Clientset, inf *informer.SharedInformer) {
	t.Helper()
	list, err := cs.Pods("default").List(t.Context(), client.ListOptions{})
	require.NoError(t, err)
	want := map[string]string{}
	for _, p := range list.Items {
		want["default/"+p.Name] = p.ResourceVersion
	}
	got := map[string]string{}
	for _, obj := range inf.Indexer().List() {
		p := asPod(obj)
		got["default/"+p.Name] = p.ResourceVersion
	}
	assert.Equal(t, want, got, "the informer's state is the server's")
}

// faultTransport is a RoundTripper with a fault knob: Down ends every
// request in flight (watches included) and refuses new ones, as a server
// that went away; Up routes requests to a server again (the same or a new
// one).
type faultTransport struct {
	// mu guards next, cancels and seq.
	mu      sync.Mutex
	next    http.RoundTripper // nil while down
	cancels map[int]context.CancelFunc
	seq     int
}

// errDown is what a request to a down server gets: not a Status, as a
// refused connection is not.
var errDown = fmt.Errorf("dial tcp: connection refused (test: server down)")

func newFaultTransport(next http.RoundTripper) *faultTransport {
	return &faultTransport{next: next, cancels: map[int]context.CancelFunc{}}
}

func (f *faultTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	f.mu.Lock()
	next := f.next
	if next == nil {
		f.mu.Unlock()
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, errDown
	}
	ctx, cancel := context.WithCancel(req.Context())
	id := f.seq
	f.seq++
	f.cancels[id] = cancel
	f.mu.Unlock()
	done := func() {
		f.mu.Lock()
		delete(f.cancels, id)
		f.mu.Unlock()
		cancel()
	}
	resp, err := next.RoundTrip(req.WithContext(ctx))
	if err != nil {
		done()
		return nil, err
	}
	resp.Body = &trackedBody{ReadCloser: resp.Body, done: done}
	return resp, nil
}

// Down cuts every request in flight and refuses new ones.
func (f *faultTransport) Down() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.next = nil
	for _, cancel := range f.cancels {
		cancel()
	}
}

// Up sends requests to next from now on.
func (f *faultTransport) Up(next http.RoundTripper) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.next = next
}

// trackedBody forgets its request in the faultTransport once closed.
type trackedBody struct {
	io.ReadCloser
	done func()
	once sync.Once
}

func (b *trackedBody) Close() error {
	err := b.ReadCloser.Close()
	b.once.Do(b.done)
	return err
}
