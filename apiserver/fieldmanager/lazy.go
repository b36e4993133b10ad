package fieldmanager

import "sync"

// Lazy builds a FieldManager on its first use. Converting a schema costs
// more than a server start should pay for every resource, most of which
// a short-lived test server never writes. It is safe for concurrent use.
type Lazy struct {
	once  sync.Once
	build func() (*FieldManager, error)
	fm    *FieldManager
	err   error
}

// NewLazy returns a Lazy whose Get calls build once.
func NewLazy(build func() (*FieldManager, error)) *Lazy {
	return &Lazy{build: build}
}

// Get returns the FieldManager, building it on the first call; a build
// that failed fails every call the same way.
func (l *Lazy) Get() (*FieldManager, error) {
	l.once.Do(func() { l.fm, l.err = l.build() })
	return l.fm, l.err
}
