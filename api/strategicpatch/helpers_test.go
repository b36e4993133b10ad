package strategicpatch_test

import (
	"encoding/json"
	"errors"
)

func jsonUnmarshal(s string, v any) error { return json.Unmarshal([]byte(s), v) }

func errorsIs(err, target error) bool { return errors.Is(err, target) }
