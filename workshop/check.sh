#!/usr/bin/env bash
# workshop-check: for each exercise, prove that the reference solution
# passes its tests and that the skeleton fails them the way a learner
# should see it: test failures that say what is not written yet, not a
# build error or a panic. Each exercise is run on its own, so one that
# fails the check does not hide another. `make workshop-check` runs it.
set -uo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}

# In the order of workshop/README.md.
exercises=(configmapcontroller scoreplugin admissionplugin operator relist readinessprobe watchwindow)

failed=()
fail() { echo "FAIL  $1: $2"; failed+=("$1"); }

echo "vet: skeletons and solutions"
$GO vet ./workshop/... || failed+=(vet)
$GO vet -tags solution ./workshop/... || failed+=(vet-solution)

# Build every test binary first, two builds of all exercises at once (the
# link is most of the time), then run each exercise's binaries on their
# own. Both build under the race detector: make test never runs the
# solutions (it builds the skeletons, whose tests skip), and after make
# test the rest of the tree is in the build cache with -race already.
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
$GO test -c -race -tags solution -o "$bin/solution/" ./workshop/... | grep -v "no test files" || true
$GO test -c -race -o "$bin/skeleton/" ./workshop/... | grep -v "no test files" || true

for e in "${exercises[@]}"; do
	for b in solution skeleton; do
		if [[ ! -x $bin/$b/$e.test ]]; then
			fail "$e" "the $b does not build"
			continue 2
		fi
	done
	start=$SECONDS
	if ! out=$(cd "workshop/$e" && MINICP_WORKSHOP=1 "$bin/solution/$e.test" -test.count=1 2>&1); then
		echo "$out"
		fail "$e" "the reference solution does not pass"
		continue
	fi
	solved=$((SECONDS - start))
	if out=$(cd "workshop/$e" && MINICP_WORKSHOP=1 "$bin/skeleton/$e.test" -test.count=1 2>&1); then
		fail "$e" "the skeleton passes its tests"
		continue
	fi
	if grep -q 'panic:' <<<"$out" || ! grep -q -- '--- FAIL' <<<"$out"; then
		echo "$out"
		fail "$e" "the skeleton does not fail as a test (a panic?)"
		continue
	fi
	if ! grep -q 'not written yet' <<<"$out"; then
		echo "$out"
		fail "$e" "the skeleton's failure does not say what is not written yet"
		continue
	fi
	echo "ok    $e: the solution passes in ${solved}s; the skeleton fails, saying what is not written yet"
done

if ((${#failed[@]})); then
	echo "workshop-check: FAIL: ${failed[*]}"
	exit 1
fi
echo "workshop-check: ok, ${#exercises[@]} exercises"
