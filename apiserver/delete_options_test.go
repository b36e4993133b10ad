package apiserver_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
)

// TestDeleteOptionsInProtobuf sends DeleteOptions as client-go's typed
// clients do since 1.33: a protobuf body. The options must take effect
// (here: a dry run leaves the pod in place).
func TestDeleteOptionsInProtobuf(t *testing.T) {
	s := newTestServer(t)
	s.createPod("p", nil)
	body, err := runtime.EncodeProtobuf(&metav1.DeleteOptions{
		TypeMeta: metav1.TypeMeta{Kind: "DeleteOptions", APIVersion: "meta.k8s.io/v1"},
		DryRun:   []string{"All"},
	})
	require.NoError(t, err)
	s.mustDo(http.StatusOK, "DELETE", "/api/v1/namespaces/default/pods/p", string(body),
		withHeader("Content-Type", runtime.ContentTypeProtobuf))
	s.mustDo(http.StatusOK, "GET", "/api/v1/namespaces/default/pods/p", "")

	bad := s.do("DELETE", "/api/v1/namespaces/default/pods/p", "k8s\x00garbage", withHeader("Content-Type", runtime.ContentTypeProtobuf))
	assert.Equal(t, http.StatusBadRequest, bad.code, "%s", bad.body)
	s.mustDo(http.StatusUnsupportedMediaType, "DELETE", "/api/v1/namespaces/default/pods/p", "{}", withHeader("Content-Type", "text/plain"))
}
