package framework_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/minicp/minicp/scheduler/framework"
)

func TestStatus(t *testing.T) {
	var nilStatus *framework.Status
	errBoom := errors.New("boom")
	tests := []struct {
		name        string
		s           *framework.Status
		wantCode    framework.Code
		wantMsg     string
		wantSuccess bool
		wantReject  bool
		wantErr     string
	}{
		{name: "nil is success", s: nilStatus, wantCode: framework.Success, wantSuccess: true},
		{name: "success", s: framework.NewStatus(framework.Success), wantCode: framework.Success, wantSuccess: true},
		{name: "unschedulable", s: framework.NewStatus(framework.Unschedulable, "Insufficient cpu", "Insufficient memory"),
			wantCode: framework.Unschedulable, wantMsg: "Insufficient cpu, Insufficient memory", wantReject: true,
			wantErr: "Insufficient cpu, Insufficient memory"},
		{name: "unresolvable", s: framework.NewStatus(framework.UnschedulableAndUnresolvable, "node(s) were unschedulable"),
			wantCode: framework.UnschedulableAndUnresolvable, wantMsg: "node(s) were unschedulable", wantReject: true,
			wantErr: "node(s) were unschedulable"},
		{name: "error", s: framework.AsStatus(errBoom), wantCode: framework.Error, wantMsg: "boom", wantErr: "boom"},
		{name: "skip", s: framework.NewStatus(framework.Skip), wantCode: framework.Skip},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.wantCode, tc.s.Code(), "Code")
			assert.Equal(t, tc.wantMsg, tc.s.Message(), "Message")
			assert.Equal(t, tc.wantSuccess, tc.s.IsSuccess(), "IsSuccess")
			assert.Equal(t, tc.wantReject, tc.s.IsRejected(), "IsRejected")
			if tc.wantErr == "" {
				assert.NoError(t, tc.s.AsError(), "AsError")
			} else {
				assert.EqualError(t, tc.s.AsError(), tc.wantErr, "AsError")
			}
		})
	}
	assert.ErrorIs(t, framework.AsStatus(errBoom).AsError(), errBoom, "AsStatus keeps the error")
	assert.Nil(t, framework.AsStatus(nil), "AsStatus(nil)")
	assert.Equal(t, "UnschedulableAndUnresolvable", framework.UnschedulableAndUnresolvable.String())
	assert.Equal(t, "Unschedulable: a, b", framework.NewStatus(framework.Unschedulable, "a", "b").String())
}
