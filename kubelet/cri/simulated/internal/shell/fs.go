package shell

import (
	"maps"
	"path"
	"slices"
	"strings"
)

// FS is a container's file system: a flat map from absolute path to
// content, enough for `echo ok > /tmp/healthy` and an exec probe's
// `cat /tmp/healthy`, and the files of mounted volumes. Directories exist
// implicitly. Not safe for concurrent use.
type FS struct {
	files map[string]string
	// readOnly are the mount points of read-only mounts: nothing at or
	// below them can be written or removed.
	readOnly []string
}

// NewFS returns a file system holding files (path to content); it takes
// ownership of nothing.
func NewFS(files map[string]string) *FS {
	fs := &FS{files: make(map[string]string, len(files))}
	maps.Copy(fs.files, files)
	return fs
}

// Read returns the content of the file at the absolute path name.
func (fs *FS) Read(name string) (string, bool) {
	data, ok := fs.files[path.Clean(name)]
	return data, ok
}

// Write writes data to name, creating it, after what it holds if
// appending.
func (fs *FS) Write(name, data string, appending bool) {
	name = path.Clean(name)
	if appending {
		data = fs.files[name] + data
	}
	fs.files[name] = data
}

// Remove removes name and reports whether it existed.
func (fs *FS) Remove(name string) bool {
	name = path.Clean(name)
	_, ok := fs.files[name]
	delete(fs.files, name)
	return ok
}

// Mount mounts files (path relative to dir, to content) at dir, hiding
// what was there; the key "" is dir itself, a mount of one file. A
// read-only mount refuses writes and removals at and below dir. It takes
// ownership of nothing.
func (fs *FS) Mount(dir string, files map[string]string, readOnly bool) {
	dir = path.Clean(dir)
	for name := range fs.files {
		if within(name, dir) {
			delete(fs.files, name)
		}
	}
	for rel, data := range files {
		fs.files[path.Join(dir, rel)] = data
	}
	if readOnly {
		fs.readOnly = append(fs.readOnly, dir)
	}
}

// ReadOnly reports whether name is on a read-only mount.
func (fs *FS) ReadOnly(name string) bool {
	name = path.Clean(name)
	for _, dir := range fs.readOnly {
		if within(name, dir) {
			return true
		}
	}
	return false
}

// within reports whether the clean path name is dir or below it.
func within(name, dir string) bool {
	return name == dir || strings.HasPrefix(name, strings.TrimSuffix(dir, "/")+"/")
}

// standardDirs exist in every image.
var standardDirs = map[string]bool{
	"/": true, "/bin": true, "/dev": true, "/etc": true, "/home": true, "/proc": true,
	"/root": true, "/tmp": true, "/usr": true, "/usr/bin": true, "/var": true, "/var/log": true,
}

// IsDir reports whether name is a standard directory or holds a file.
func (fs *FS) IsDir(name string) bool {
	name = path.Clean(name)
	if standardDirs[name] {
		return true
	}
	prefix := strings.TrimSuffix(name, "/") + "/"
	for f := range fs.files {
		if strings.HasPrefix(f, prefix) {
			return true
		}
	}
	return false
}

// Files returns the paths of the files at or below dir, sorted.
func (fs *FS) Files(dir string) []string {
	dir = path.Clean(dir)
	var out []string
	for name := range fs.files {
		if within(name, dir) || dir == "/" {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}
