package expectations_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/minicp/minicp/clock/clocktest"
	"github.com/minicp/minicp/controllers/expectations"
)

func TestNothingExpectedIsSatisfied(t *testing.T) {
	e := expectations.New(clocktest.NewFake(time.Unix(0, 0)))
	assert.True(t, e.Satisfied("ns/rs"))
}

func TestCreationsAreSatisfiedOnceAllObserved(t *testing.T) {
	e := expectations.New(clocktest.NewFake(time.Unix(0, 0)))
	e.ExpectCreations("ns/rs", 2)
	assert.False(t, e.Satisfied("ns/rs"))
	e.CreationObserved("ns/rs")
	assert.False(t, e.Satisfied("ns/rs"), "one of two creations seen")
	e.CreationObserved("ns/rs")
	assert.True(t, e.Satisfied("ns/rs"))
	assert.True(t, e.Satisfied("ns/other"), "keys are independent")
}

func TestDeletionsCountEachUIDOnce(t *testing.T) {
	e := expectations.New(clocktest.NewFake(time.Unix(0, 0)))
	e.ExpectDeletions("ns/rs", []string{"a", "b"})
	e.DeletionObserved("ns/rs", "a")
	e.DeletionObserved("ns/rs", "a") // the final delete after the graceful one
	e.DeletionObserved("ns/rs", "z") // not ours
	assert.False(t, e.Satisfied("ns/rs"), "b is still expected")
	e.DeletionObserved("ns/rs", "b")
	assert.True(t, e.Satisfied("ns/rs"))
}

func TestExpectationsExpire(t *testing.T) {
	clk := clocktest.NewFake(time.Unix(0, 0))
	e := expectations.New(clk)
	e.ExpectCreations("ns/rs", 1)
	clk.Step(expectations.Timeout)
	assert.False(t, e.Satisfied("ns/rs"), "not yet past the timeout")
	clk.Step(time.Second)
	assert.True(t, e.Satisfied("ns/rs"), "a lost event must not wedge the controller")
}

func TestDeleteForgetsTheKey(t *testing.T) {
	e := expectations.New(clocktest.NewFake(time.Unix(0, 0)))
	e.ExpectCreations("ns/rs", 3)
	e.Delete("ns/rs")
	assert.True(t, e.Satisfied("ns/rs"))
}
