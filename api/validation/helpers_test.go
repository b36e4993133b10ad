package validation

import (
	"github.com/minicp/minicp/api/apierrors"
)

// summary renders errors as "<cause type> <field>", the part tests pin
// exactly; messages are checked separately where their wording matters.
func summary(errs apierrors.FieldErrors) []string {
	out := []string{}
	for _, e := range errs {
		out = append(out, string(e.Type)+" "+e.Field)
	}
	return out
}

func ptrTo[T any](v T) *T { return &v }
