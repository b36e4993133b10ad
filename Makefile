# minicp: the two commands a newcomer needs are `make run` and `make test`.
GO ?= go

.PHONY: build test run bench vet tidy compat workshop-check fuzz

build:
	$(GO) build ./...

vet:
	$(GO) vet ./...

# tidy fails when go.mod or go.sum of the library or of a compat module is
# not what `go mod tidy` would write, so a dependency nobody uses, or one
# marked indirect that the code imports, cannot creep in.
tidy:
	$(GO) mod tidy -diff
	for m in compat/*/; do (cd $$m && $(GO) mod tidy -diff) || exit 1; done

# CI runs exactly this (see .ci/run). The compat modules check wire
# compatibility against the real Kubernetes libraries, which the library
# itself never imports.
#
# TEST_TIMEOUT bounds each package's test binary; it is there to end a
# hung test, not to time a slow machine. The cluster package, the
# largest, took 195-216 s on two cores at load 8 with a warm build cache,
# and 476-503 s on a slower machine; there, on a first run, where it
# shared the cores with compiling every other package for -race, it went
# past go test's default of 10 minutes.
TEST_TIMEOUT ?= 30m
test: tidy vet
	$(GO) test -race -count=1 -timeout=$(TEST_TIMEOUT) ./...
	$(GO) test -race -count=1 -timeout=$(TEST_TIMEOUT) -parallel=20 -run TestManyClustersOnOneEtcd ./cluster/clustertest/
	cd compat/protobuf && $(GO) vet ./... && $(GO) test -count=1 ./...
	cd compat/strategicpatch && $(GO) vet ./... && $(GO) test -count=1 ./...
	cd compat/apiextensions && $(GO) vet ./... && $(GO) test -count=1 ./...
	cd compat/openapi && $(GO) vet ./... && $(GO) test -count=1 ./...
	cd compat/wire && $(GO) vet ./... && $(GO) test -count=1 ./...

run:
	$(GO) run ./cmd/minicp up

# fuzz runs every fuzz target (decoders, patches, selectors, request
# paths, CRD schemas) for FUZZTIME each, one at a time, as `go test -fuzz`
# requires; about two minutes in all. `make test` already replays their
# f.Add inputs and the failures committed under testdata/fuzz. For a
# longer hunt of one target: ./hack/fuzz -t 5m FuzzPatch.
FUZZTIME ?= 6s
fuzz:
	GO=$(GO) ./hack/fuzz -t $(FUZZTIME)

bench:
	$(GO) test -run='^$$' -bench=. -benchmem ./...

# compat runs controller-runtime's own test suites (the version
# compat/envtest/go.mod requires, from the module cache) against minicp
# with its built-in controllers off, as envtest's kube-apiserver runs, and
# prints passed and failed specs per package; then the envtest drop-in's
# own tests. About four minutes with a warm build cache, so `make test`
# does not run it. COMPAT_FLAGS passes flags, e.g. -pkg pkg/client -out dir.
compat:
	cd compat/envtest && $(GO) vet ./... && $(GO) run ./cmd/crsuites $(COMPAT_FLAGS)
	cd compat/envtest && $(GO) test -count=1 ./...

# workshop-check proves, for each exercise of workshop/, that the
# reference solution (built with -tags solution) passes its tests and
# that the skeleton a learner starts from fails them, saying what is not
# written yet. make test builds the skeletons too, but their tests skip
# unless MINICP_WORKSHOP=1, so they never fail it.
workshop-check:
	GO=$(GO) ./workshop/check.sh
