package apiserver_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// withT returns s reporting to t, a subtest's.
func (s *testServer) withT(t testing.TB) *testServer {
	sub := *s
	sub.t = t
	return &sub
}

// generationOf reads metadata.generation from a JSON object (0 when
// absent, as a kind without one has it).
func generationOf(t *testing.T, body []byte) int64 {
	t.Helper()
	var obj struct {
		Metadata struct {
			Generation int64 `json:"generation"`
		} `json:"metadata"`
	}
	require.NoError(t, json.Unmarshal(body, &obj), "decode %s", body)
	return obj.Metadata.Generation
}

// TestGenerationPerKind: metadata.generation is kept by the kinds whose
// upstream strategy keeps it (1 on create, +1 for a change of the desired
// state, +1 when a delete marks the object), and absent from the others,
// however they are written: Events, ConfigMaps, Secrets, Endpoints,
// ServiceAccounts, Services, Nodes, Namespaces and Leases have none.
func TestGenerationPerKind(t *testing.T) {
	s := newTestServer(t)
	const merge = "application/merge-patch+json"
	tests := []struct {
		name       string
		collection string
		body       string
		// change is a merge patch that changes the desired state (data,
		// spec, an Event's message).
		change string
		// tracked: 1 after create, 2 after change, 3 after a delete held
		// by a finalizer. Untracked: 0 throughout.
		tracked bool
	}{
		{name: "events", collection: "/api/v1/namespaces/default/events",
			body:   `{"metadata":{"name":"e"},"involvedObject":{"kind":"Pod","name":"p","namespace":"default"},"reason":"Test","message":"one","type":"Normal"}`,
			change: `{"message":"two","count":2}`},
		{name: "configmaps", collection: "/api/v1/namespaces/default/configmaps",
			body: `{"metadata":{"name":"c"},"data":{"a":"1"}}`, change: `{"data":{"a":"2"}}`},
		{name: "secrets", collection: "/api/v1/namespaces/default/secrets",
			body: `{"metadata":{"name":"s"},"data":{"a":"MQ=="}}`, change: `{"data":{"a":"Mg=="}}`},
		{name: "endpoints", collection: "/api/v1/namespaces/default/endpoints",
			body:   `{"metadata":{"name":"ep"},"subsets":[{"addresses":[{"ip":"10.0.0.1"}],"ports":[{"port":80}]}]}`,
			change: `{"subsets":[{"addresses":[{"ip":"10.0.0.2"}],"ports":[{"port":81}]}]}`},
		{name: "serviceaccounts", collection: "/api/v1/namespaces/default/serviceaccounts",
			body: `{"metadata":{"name":"sa"},"automountServiceAccountToken":false}`, change: `{"automountServiceAccountToken":true}`},
		{name: "services", collection: "/api/v1/namespaces/default/services",
			body: `{"metadata":{"name":"svc"},"spec":{"ports":[{"port":80}]}}`, change: `{"spec":{"ports":[{"port":81}]}}`},
		{name: "nodes", collection: "/api/v1/nodes",
			body: `{"metadata":{"name":"n"}}`, change: `{"spec":{"unschedulable":true}}`},
		{name: "namespaces", collection: "/api/v1/namespaces",
			body: `{"metadata":{"name":"team"}}`, change: `{"metadata":{"annotations":{"a":"b"}}}`},
		{name: "leases", collection: "/apis/coordination.k8s.io/v1/namespaces/default/leases",
			body: `{"metadata":{"name":"l"},"spec":{"holderIdentity":"a"}}`, change: `{"spec":{"holderIdentity":"b"}}`},
		{name: "pods", collection: "/api/v1/namespaces/default/pods",
			body:    `{"metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"busybox"}]}}`,
			change:  `{"spec":{"activeDeadlineSeconds":60}}`,
			tracked: true},
		{name: "deployments", collection: "/apis/apps/v1/namespaces/default/deployments",
			body: `{"metadata":{"name":"d"},"spec":{"selector":{"matchLabels":{"app":"d"}},` +
				`"template":{"metadata":{"labels":{"app":"d"}},"spec":{"containers":[{"name":"c","image":"busybox"}]}}}}`,
			change:  `{"spec":{"replicas":3}}`,
			tracked: true},
		{name: "replicasets", collection: "/apis/apps/v1/namespaces/default/replicasets",
			body: `{"metadata":{"name":"rs"},"spec":{"selector":{"matchLabels":{"app":"rs"}},` +
				`"template":{"metadata":{"labels":{"app":"rs"}},"spec":{"containers":[{"name":"c","image":"busybox"}]}}}}`,
			change:  `{"spec":{"replicas":3}}`,
			tracked: true},
		{name: "jobs", collection: "/apis/batch/v1/namespaces/default/jobs",
			body: `{"metadata":{"name":"j"},"spec":{"template":{"spec":{"restartPolicy":"Never",` +
				`"containers":[{"name":"c","image":"busybox"}]}}}}`,
			change:  `{"spec":{"parallelism":2}}`,
			tracked: true},
		{name: "validatingwebhookconfigurations", collection: "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations",
			body: `{"metadata":{"name":"v"},"webhooks":[{"name":"a.example.com","clientConfig":{"url":"https://example.com/a"},` +
				`"sideEffects":"None","admissionReviewVersions":["v1"]}]}`,
			change: `{"webhooks":[{"name":"b.example.com","clientConfig":{"url":"https://example.com/b"},` +
				`"sideEffects":"None","admissionReviewVersions":["v1"]}]}`,
			tracked: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := s.withT(t)
			want := func(tracked int64) int64 {
				if tc.tracked {
					return tracked
				}
				return 0
			}
			created := s.mustDo(http.StatusCreated, "POST", tc.collection, tc.body)
			assert.Equal(t, want(1), generationOf(t, created.body), "create %s", tc.name)
			var meta struct {
				Metadata struct{ Name string } `json:"metadata"`
			}
			require.NoError(t, json.Unmarshal(created.body, &meta))
			item := tc.collection + "/" + meta.Metadata.Name

			changed := s.mustDo(http.StatusOK, "PATCH", item, tc.change, withHeader("Content-Type", merge))
			assert.Equal(t, want(2), generationOf(t, changed.body), "change %s with %s", tc.name, tc.change)

			labeled := s.mustDo(http.StatusOK, "PATCH", item, `{"metadata":{"labels":{"l":"v"},"finalizers":["example.com/hold"]}}`,
				withHeader("Content-Type", merge))
			assert.Equal(t, want(2), generationOf(t, labeled.body), "metadata-only change of %s", tc.name)

			deleted := s.mustDo(http.StatusOK, "DELETE", item, "")
			assert.Equal(t, want(3), generationOf(t, deleted.body), "delete of %s held by a finalizer", tc.name)
		})
	}
}
