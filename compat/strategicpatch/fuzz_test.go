package strategicpatch

import "testing"

// FuzzStrategicMergePatch compares minicp with upstream on arbitrary
// (original, patch) pairs, seeded with the handwritten cases. Plain `go
// test` runs the seeds; `go test -fuzz FuzzStrategicMergePatch` explores.
func FuzzStrategicMergePatch(f *testing.F) {
	for _, tc := range podCases {
		original := tc.original
		if original == "" {
			original = richPod
		}
		f.Add([]byte(original), []byte(tc.patch))
	}
	f.Fuzz(func(t *testing.T, original, patch []byte) {
		if diff, _ := check(podKind, original, patch); diff != "" {
			t.Errorf("%s\noriginal %s\npatch    %s", diff, original, patch)
		}
	})
}
