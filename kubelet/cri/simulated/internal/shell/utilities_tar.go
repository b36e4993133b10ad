package shell

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
)

// tarOptions are the parsed arguments of tar.
type tarOptions struct {
	mode    byte // 'c', 'x' or 't'
	archive string
	dir     string
	gzip    bool
	verbose bool
	names   []string
}

// parseTar reads tar's arguments: the classic bundle without a dash
// (`tar cf - dir`), dashed flags (`-xmf - -C /tmp`), and the long
// options kubectl cp passes (--no-same-owner, --no-same-permissions),
// which change nothing here: files have no owners or modes.
func parseTar(argv []string) (tarOptions, error) {
	o := tarOptions{archive: "-"}
	args := argv[1:]
	if len(args) > 0 && args[0] != "" && args[0][0] != '-' {
		args[0] = "-" + args[0]
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			o.names = append(o.names, args[i+1:]...)
			return o, nil
		case strings.HasPrefix(a, "--directory="):
			o.dir = strings.TrimPrefix(a, "--directory=")
		case strings.HasPrefix(a, "--file="):
			o.archive = strings.TrimPrefix(a, "--file=")
		case strings.HasPrefix(a, "--"):
			// --no-same-owner, --no-same-permissions, ...
		case strings.HasPrefix(a, "-") && len(a) > 1:
			for j := 1; j < len(a); j++ {
				switch c := a[j]; c {
				case 'c', 'x', 't':
					if o.mode != 0 && o.mode != c {
						return o, errors.New("tar: you may not specify more than one of -c, -x or -t")
					}
					o.mode = c
				case 'f', 'C':
					// The argument is the rest of the flag, or the next word.
					var v string
					if j+1 < len(a) {
						v = a[j+1:]
					} else if i+1 < len(args) {
						i++
						v = args[i]
					} else {
						return o, fmt.Errorf("tar: option requires an argument -- '%c'", c)
					}
					if c == 'f' {
						o.archive = v
					} else {
						o.dir = v
					}
					j = len(a)
				case 'z':
					o.gzip = true
				case 'v':
					o.verbose = true
				case 'm', 'o', 'p', 'h':
				default:
					return o, fmt.Errorf("tar: invalid option -- '%c'", c)
				}
			}
		default:
			o.names = append(o.names, a)
		}
	}
	if o.mode == 0 {
		return o, errors.New("tar: need to specify one of -c, -x or -t")
	}
	return o, nil
}

// tarBuiltin is busybox's tar over the container's files: -c writes an
// archive of the named files and directories (their files, as the file
// system has no empty directories), -x extracts one, -t lists one; the
// archive is stdin or stdout ("-", the default) or a file, gzipped with
// -z. Member names lose a leading "/", with busybox's notice. It is what
// `kubectl cp` runs in the container.
func tarBuiltin(p *Process, argv []string) control {
	o, err := parseTar(argv)
	if err != nil {
		p.errorf("%v\n", err)
		p.status = 1
		return next
	}
	base := p.vars["PWD"]
	if o.dir != "" {
		base = p.abs(o.dir)
	}
	if o.mode == 'c' {
		p.status = p.tarCreate(o, base)
	} else {
		p.status = p.tarRead(o, base)
	}
	return next
}

// tarCreate writes the archive and returns the status.
func (p *Process) tarCreate(o tarOptions, base string) int {
	if len(o.names) == 0 {
		p.errorf("tar: empty archive\n")
		return 1
	}
	var buf bytes.Buffer
	var w io.Writer = &buf
	var zw *gzip.Writer
	if o.gzip {
		zw = gzip.NewWriter(&buf)
		w = zw
	}
	tw := tar.NewWriter(w)
	status, warned := 0, false
	for _, name := range o.names {
		member := path.Clean(name)
		if strings.HasPrefix(member, "/") {
			if !warned {
				p.errorf("tar: removing leading '/' from member names\n")
				warned = true
			}
			member = strings.TrimLeft(member, "/")
		}
		abs := path.Join(base, name)
		if path.IsAbs(name) {
			abs = path.Clean(name)
		}
		var files []string
		if _, ok := p.fs.Read(abs); ok {
			files = []string{abs}
		} else if p.fs.IsDir(abs) {
			files = p.fs.Files(abs)
			hdr := &tar.Header{Typeflag: tar.TypeDir, Name: strings.TrimSuffix(member, "/") + "/", Mode: 0o755, ModTime: p.now}
			if member == "." || member == "" {
				hdr.Name = "./"
			}
			_ = tw.WriteHeader(hdr)
		} else {
			p.errorf("tar: %s: No such file or directory\n", name)
			status = 1
			continue
		}
		for _, f := range files {
			data, _ := p.fs.Read(f)
			rel := path.Join(member, strings.TrimPrefix(f, abs))
			if o.verbose {
				p.errorf("%s\n", rel)
			}
			_ = tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: rel, Mode: 0o644, Size: int64(len(data)), ModTime: p.now})
			_, _ = io.WriteString(tw, data)
		}
	}
	_ = tw.Close()
	if zw != nil {
		_ = zw.Close()
	}
	if o.archive == "-" {
		p.write(1, buf.String())
		return status
	}
	abs := p.abs(o.archive)
	if p.fs.ReadOnly(abs) {
		p.errorf("tar: can't open '%s': Read-only file system\n", o.archive)
		return 1
	}
	p.fs.Write(abs, buf.String(), false)
	return status
}

// tarRead extracts (-x) or lists (-t) the archive and returns the
// status.
func (p *Process) tarRead(o tarOptions, base string) int {
	data, ok := p.readInput("tar", o.archive)
	if !ok {
		return 1
	}
	var r io.Reader = strings.NewReader(data)
	if o.gzip {
		zr, err := gzip.NewReader(r)
		if err != nil {
			p.errorf("tar: invalid gzip magic\n")
			return 1
		}
		r = zr
	}
	tr := tar.NewReader(r)
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return 0
		}
		if err != nil {
			if data == "" {
				// busybox's words for an empty archive.
				p.errorf("tar: short read\n")
			} else {
				p.errorf("tar: invalid tar header checksum\n")
			}
			return 1
		}
		name := strings.TrimLeft(path.Clean("/"+hdr.Name), "/")
		if o.mode == 't' || o.verbose {
			line := hdr.Name
			if o.mode == 't' {
				p.write(1, line+"\n")
				continue
			}
			p.errorf("%s\n", line)
		}
		if hdr.Typeflag != tar.TypeReg {
			continue // directories exist implicitly; links are not simulated
		}
		content, err := io.ReadAll(tr)
		if err != nil {
			p.errorf("tar: short read\n")
			return 1
		}
		dst := path.Join(base, name)
		if p.fs.ReadOnly(dst) {
			p.errorf("tar: can't open '%s': Read-only file system\n", name)
			return 1
		}
		p.fs.Write(dst, string(content), false)
	}
}
