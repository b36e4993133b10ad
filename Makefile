# minicp: the two commands a newcomer needs are `make run` and `make test`.
GO ?= go

.PHONY: build test run bench vet

build:
	$(GO) build ./...

vet:
	$(GO) vet ./...

# CI runs exactly this (see .ci/run).
test: vet
	$(GO) test -race -count=1 ./...

run:
	$(GO) run ./cmd/minicp up

bench:
	$(GO) test -run='^$$' -bench=. -benchmem ./...
