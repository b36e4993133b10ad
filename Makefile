# minicp: the two commands a newcomer needs are `make run` and `make test`.
GO ?= go

.PHONY: build test run bench vet

build:
	$(GO) build ./...

vet:
	$(GO) vet ./...

# CI runs exactly this (see .ci/run). The compat modules check wire
# compatibility against the real Kubernetes libraries, which the library
# itself never imports.
test: vet
	$(GO) test -race -count=1 ./...
	$(GO) test -race -count=1 -parallel=20 -run TestManyClustersOnOneEtcd ./cluster/clustertest/
	cd compat/protobuf && $(GO) vet ./... && $(GO) test -count=1 ./...
	cd compat/strategicpatch && $(GO) vet ./... && $(GO) test -count=1 ./...
	cd compat/apiextensions && $(GO) vet ./... && $(GO) test -count=1 ./...
	cd compat/openapi && $(GO) vet ./... && $(GO) test -count=1 ./...

run:
	$(GO) run ./cmd/minicp up

bench:
	$(GO) test -run='^$$' -bench=. -benchmem ./...
