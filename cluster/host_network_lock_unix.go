//go:build unix

package cluster

import (
	"errors"
	"os"
	"syscall"
)

// tryLock takes f's exclusive flock without waiting; errLocked when
// another open file description (another process) holds it.
func tryLock(f *os.File) error {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return errLocked
	}
	return err
}
