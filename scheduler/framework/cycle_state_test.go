package framework_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/scheduler/framework"
)

type counter struct{ n int }

func (c *counter) Clone() framework.StateData { return &counter{n: c.n} }

func TestCycleState(t *testing.T) {
	s := framework.NewCycleState()
	_, err := s.Read("k")
	assert.ErrorIs(t, err, framework.ErrNotFound, "Read of an unwritten key")

	s.Write("k", &counter{n: 1})
	d, err := s.Read("k")
	require.NoError(t, err)
	assert.Equal(t, 1, d.(*counter).n)

	c := s.Clone()
	d.(*counter).n = 2
	cd, err := c.Read("k")
	require.NoError(t, err)
	assert.Equal(t, 1, cd.(*counter).n, "Clone clones the data")

	s.Delete("k")
	_, err = s.Read("k")
	assert.ErrorIs(t, err, framework.ErrNotFound, "Read after Delete")
	_, err = c.Read("k")
	assert.NoError(t, err, "the clone is independent")
}
