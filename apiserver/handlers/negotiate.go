package handlers

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/minicp/minicp/api/apierrors"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/responsewriters"
)

// TableConvertor renders objects as the rows `kubectl get` prints.
type TableConvertor interface {
	// ConvertToTable renders obj, a single object or a list. includeObject
	// is None, Metadata (the default) or Object: what each row carries.
	ConvertToTable(ctx context.Context, obj runtime.Object, includeObject string, now time.Time) (*metav1.Table, error)
}

// output is the representation a client asked for.
type output int

const (
	outputObject output = iota // JSON or YAML of the object itself
	outputTable                // meta.k8s.io/v1 Table
)

// negotiate picks the first representation in the Accept header the server
// can produce. Protobuf-only clients get 406: minicp speaks JSON and YAML.
func negotiate(r *http.Request) (output, error) {
	accept := r.Header.Get("Accept")
	if accept == "" {
		return outputObject, nil
	}
	for part := range strings.SplitSeq(accept, ",") {
		fields := strings.Split(part, ";")
		mt := strings.TrimSpace(fields[0])
		params := map[string]string{}
		for _, p := range fields[1:] {
			k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
			params[k] = v
		}
		switch mt {
		case "application/json", "application/yaml", "*/*", "application/*":
		default:
			continue
		}
		switch params["as"] {
		case "":
			return outputObject, nil
		case "Table":
			if params["g"] == "meta.k8s.io" && (params["v"] == "v1" || params["v"] == "v1beta1") {
				return outputTable, nil
			}
		}
	}
	return 0, apierrors.NewNotAcceptable(accept)
}

// writeResult writes obj as the client asked: itself or as a Table.
func (s *Scope) writeResult(w http.ResponseWriter, r *http.Request, code int, obj runtime.Object) {
	out, err := negotiate(r)
	if err != nil {
		responsewriters.WriteError(w, r, err)
		return
	}
	if out == outputTable && s.Tables != nil {
		table, err := s.Tables.ConvertToTable(r.Context(), obj, r.URL.Query().Get("includeObject"), s.Clock.Now())
		if err != nil {
			responsewriters.WriteError(w, r, err)
			return
		}
		responsewriters.WriteObject(w, r, code, table)
		return
	}
	responsewriters.WriteObject(w, r, code, obj)
}
