package apiserver_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
)

// TestMalformedResourceVersionIsBadRequest: a resourceVersion that is not
// a revision is 400 on a GET of one object as on a LIST, with
// kube-apiserver's message.
func TestMalformedResourceVersionIsBadRequest(t *testing.T) {
	s := newTestServer(t)
	p := s.createPod("p", nil)
	const want = `invalid resource version: resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax`
	for _, path := range []string{
		"/api/v1/namespaces/default/pods/p?resourceVersion=abc",
		"/api/v1/namespaces/default/pods/p/status?resourceVersion=abc",
		"/api/v1/namespaces/default/pods?resourceVersion=abc",
	} {
		st := s.mustDo(http.StatusBadRequest, "GET", path, "").status(t)
		assert.Equal(t, metav1.StatusReasonBadRequest, st.Reason, "GET %s", path)
		assert.Equal(t, want, st.Message, "GET %s", path)
	}
	// A GET at resourceVersion 0 reads the watch cache as it is; a list not
	// older than p's creation first waits for the cache to hold p.
	s.waitCached("/api/v1/namespaces/default/pods", p.ResourceVersion)
	s.mustDo(http.StatusOK, "GET", "/api/v1/namespaces/default/pods/p?resourceVersion=0", "")
}

// TestLabelSelectorQuery: label selectors in a query parse as
// kube-apiserver parses them: "()" is the set of the empty value, not an
// empty set, and a malformed selector is 400 with the parser's message.
func TestLabelSelectorQuery(t *testing.T) {
	s := newTestServer(t)
	s.createPod("empty", map[string]string{"a": ""})
	s.createPod("set", map[string]string{"a": "x"})
	s.createPod("unlabelled", nil)
	tests := []struct {
		selector string
		want     []string
	}{
		{"a in ()", []string{"empty"}},
		{"a notin ()", []string{"set", "unlabelled"}},
		{"a in (,x)", []string{"empty", "set"}},
	}
	for _, tc := range tests {
		r := s.mustDo(http.StatusOK, "GET", "/api/v1/namespaces/default/pods?labelSelector="+url.QueryEscape(tc.selector), "")
		list := decodeJSON[corev1.PodList](t, r)
		var got []string
		for _, it := range list.Items {
			got = append(got, it.Name)
		}
		assert.ElementsMatch(t, tc.want, got, "labelSelector=%s", tc.selector)
	}
	st := s.mustDo(http.StatusBadRequest, "GET", "/api/v1/namespaces/default/pods?labelSelector="+url.QueryEscape("a in"), "").status(t)
	assert.Equal(t, "unable to parse requirement: found '' expected: '('", st.Message)
}
