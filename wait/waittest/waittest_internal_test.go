package waittest

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestTimeoutFromEnv(t *testing.T) {
	tests := []struct {
		name, env string
		want      time.Duration
		panics    bool
	}{
		{name: "unset", want: 30 * time.Second},
		{name: "set", env: "2m", want: 2 * time.Minute},
		{name: "not a duration", env: "soon", panics: true},
		{name: "not positive", env: "0s", panics: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(TimeoutEnv, tc.env)
			if tc.panics {
				assert.Panics(t, func() { timeout() }, "%s=%q", TimeoutEnv, tc.env)
				return
			}
			assert.Equal(t, tc.want, timeout(), "%s=%q", TimeoutEnv, tc.env)
		})
	}
}
