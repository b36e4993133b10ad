package protobuf

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/encoding/protowire"
	kcorev1 "k8s.io/api/core/v1"
	kmetav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	kprotobuf "k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
	"k8s.io/apimachinery/pkg/runtime/serializer/streaming"
	"k8s.io/apimachinery/pkg/util/framer"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/cluster"
)

// TestWatchFramesMatchKubernetes reads a protobuf watch stream from
// minicp byte by byte and checks each frame is the one kube-apiserver
// writes for the same event: apimachinery's streaming encoder over the
// length-delimited framer, writing with the raw protobuf serializer a
// metav1.WatchEvent whose object holds the protobuf serializer's
// encoding of the object (less the fields minicp's types lack, as in
// TestEncodeMatchesKubernetes).
func TestWatchFramesMatchKubernetes(t *testing.T) {
	c := startCluster(t, cluster.Options{})
	hc := c.HTTPClient()
	pod := webPod()
	pod.UID, pod.ResourceVersion, pod.Generation = "", "", 0
	pod.CreationTimestamp = metav1.Time{}
	body, err := json.Marshal(pod)
	require.NoError(t, err)

	tests := []struct {
		name    string
		accept  string
		newObj  func() kruntime.Object
		k8sOnly [][]protowire.Number
	}{
		{name: "pods", accept: acceptProtobuf, newObj: func() kruntime.Object { return &kcorev1.Pod{} }, k8sOnly: podStatusOnly(2)},
		{name: "metadata", accept: "application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json",
			newObj: func() kruntime.Object { return &kmetav1.PartialObjectMetadata{} }},
	}
	s := newSerializer()
	raw := kprotobuf.NewRawSerializer(kruntime.NewScheme(), kruntime.NewScheme())
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			frames := openRawProtobufWatch(t, hc, c.URL()+"/api/v1/namespaces/default/pods?watch=true&resourceVersion="+currentRV(t, hc, c.URL()), tc.accept)
			post(t, hc, "POST", c.URL()+"/api/v1/namespaces/default/pods", string(body), "application/json")
			post(t, hc, "PATCH", c.URL()+"/api/v1/namespaces/default/pods/"+pod.Name, `{"metadata":{"labels":{"x":"y"}}}`, "application/merge-patch+json")
			post(t, hc, "DELETE", c.URL()+"/api/v1/namespaces/default/pods/"+pod.Name+"?gracePeriodSeconds=0", "", "")

			for _, wantType := range []string{"ADDED", "MODIFIED", "DELETED"} {
				frame := nextFrame(t, frames)
				var ev kmetav1.WatchEvent
				require.NoError(t, ev.Unmarshal(frame[4:]), "upstream reads the %s frame", wantType)
				require.Equal(t, wantType, ev.Type)

				// The object as upstream's serializer encodes what it reads.
				obj := tc.newObj()
				_, _, err := s.Decode(ev.Object.Raw, nil, obj)
				require.NoError(t, err, "upstream decodes the %s object", wantType)
				var object bytes.Buffer
				require.NoError(t, s.Encode(obj, &object), "upstream encodes the %s object", wantType)

				// The frame as upstream's watch encoder writes it.
				var want bytes.Buffer
				enc := streaming.NewEncoder(framer.NewLengthDelimitedFrameWriter(&want), raw)
				require.NoError(t, enc.Encode(&kmetav1.WatchEvent{Type: wantType, Object: kruntime.RawExtension{
					Raw: stripFields(t, object.Bytes(), tc.k8sOnly),
				}}), "upstream encodes the %s event", wantType)
				if !bytes.Equal(want.Bytes(), frame) {
					t.Errorf("%s frame differs from Kubernetes':\n%s", wantType, diffDumps(want.Bytes()[4:], frame[4:]))
				}
			}
		})
	}
}

// openRawProtobufWatch starts a watch and sends its frames, length
// prefix included, as the server wrote them.
func openRawProtobufWatch(t *testing.T, hc *http.Client, url, accept string) <-chan []byte {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), "GET", url, nil)
	require.NoError(t, err)
	req.Header.Set("Accept", accept)
	resp, err := hc.Do(req)
	require.NoError(t, err, "watch %s", url)
	require.Equal(t, http.StatusOK, resp.StatusCode, "watch %s", url)
	require.Equal(t, watchProtobuf, resp.Header.Get("Content-Type"))
	t.Cleanup(func() { resp.Body.Close() })
	frames := make(chan []byte, 16)
	go func() {
		defer close(frames)
		r := bufio.NewReader(resp.Body)
		for {
			frame := make([]byte, 4)
			if _, err := io.ReadFull(r, frame); err != nil {
				return
			}
			frame = append(frame, make([]byte, binary.BigEndian.Uint32(frame))...)
			if _, err := io.ReadFull(r, frame[4:]); err != nil {
				return
			}
			frames <- frame
		}
	}()
	return frames
}

func nextFrame(t *testing.T, frames <-chan []byte) []byte {
	t.Helper()
	timer := time.NewTimer(eventTimeout)
	defer timer.Stop()
	select {
	case frame, ok := <-frames:
		require.True(t, ok, "the watch closed")
		return frame
	case <-timer.C:
		t.Fatalf("no watch frame within %s", eventTimeout)
		return nil
	}
}

// currentRV is the resourceVersion of the pods in default, to watch from.
func currentRV(t *testing.T, hc *http.Client, base string) string {
	t.Helper()
	resp, err := hc.Get(base + "/api/v1/namespaces/default/pods")
	require.NoError(t, err)
	defer resp.Body.Close()
	var list kmetav1.List
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&list))
	return list.ResourceVersion
}

// post sends a request with a body, requiring a 2xx answer.
func post(t *testing.T, hc *http.Client, method, url, body, contentType string) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, url, strings.NewReader(body))
	require.NoError(t, err)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := hc.Do(req)
	require.NoError(t, err, "%s %s", method, url)
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	assert.Less(t, resp.StatusCode, 300, "%s %s: %s", method, url, data)
}
