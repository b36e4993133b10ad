package reconcile_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/minicp/minicp/controllers/reconcile"
)

func TestTerminalError(t *testing.T) {
	base := errors.New("spec.replicas is negative")
	tests := []struct {
		name         string
		err          error
		wantTerminal bool
		wantBase     bool
	}{
		{name: "plain", err: base, wantTerminal: false, wantBase: true},
		{name: "terminal", err: reconcile.TerminalError(base), wantTerminal: true, wantBase: true},
		{name: "wrapped terminal", err: fmt.Errorf("reconcile web: %w", reconcile.TerminalError(base)),
			wantTerminal: true, wantBase: true},
		{name: "terminal of nil", err: reconcile.TerminalError(nil), wantTerminal: true},
		{name: "joined", err: errors.Join(errors.New("other"), reconcile.TerminalError(base)),
			wantTerminal: true, wantBase: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.wantTerminal, errors.Is(tc.err, reconcile.TerminalError(nil)), "errors.Is(%v, TerminalError(nil))", tc.err)
			assert.Equal(t, tc.wantBase, errors.Is(tc.err, base), "errors.Is(%v, base)", tc.err)
		})
	}
	assert.Equal(t, "terminal error: spec.replicas is negative", reconcile.TerminalError(base).Error())
	assert.Equal(t, "terminal error", reconcile.TerminalError(nil).Error())
}

func TestFuncAndRequest(t *testing.T) {
	var got reconcile.Request
	r := reconcile.Func(func(_ context.Context, req reconcile.Request) (reconcile.Result, error) {
		got = req
		return reconcile.Result{Requeue: true}, nil
	})
	req := reconcile.Request{NamespacedName: reconcile.NamespacedName{Namespace: "default", Name: "web"}}
	res, err := r.Reconcile(t.Context(), req)
	assert.NoError(t, err)
	assert.Equal(t, req, got)
	assert.False(t, res.IsZero(), "Requeue result")
	assert.True(t, reconcile.Result{}.IsZero())
	assert.Equal(t, "default/web", req.String())
	assert.Equal(t, "node-1", reconcile.NamespacedName{Name: "node-1"}.String())
}
