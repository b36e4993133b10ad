package shell

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"path"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// The network utilities (wget, nc, nslookup) do their I/O outside Run:
// the command returns ctlWait with a function the runtime runs without
// its lock (the server at the other end may be a container of the same
// runtime, whose access log needs that lock), and the outcome is written
// to the process's streams and files when Run resumes. They cannot run
// in a command substitution, whose expansion cannot wait.

// ioOutcome is what a network command did: its output, its exit status
// and the file it wrote.
type ioOutcome struct {
	stdout, stderr strings.Builder
	status         int
	// file, when set, is written with fileData (wget -O file).
	file, fileData string
	// fds are the command's redirections, which are undone by the time
	// the outcome is applied.
	fds [3]sink
}

// applyIO writes o to the process, as the command would have.
func (p *Process) applyIO(o *ioOutcome) {
	saved := p.fds
	p.fds = o.fds
	p.write(1, o.stdout.String())
	p.write(2, o.stderr.String())
	p.fds = saved
	if o.file != "" {
		p.fs.Write(p.absPath(o.file), o.fileData, false)
	}
	p.status = o.status
}

// absPath is name relative to the working directory.
func (p *Process) absPath(name string) string {
	if strings.HasPrefix(name, "/") {
		return name
	}
	return path.Join(p.vars["PWD"], name)
}

// waitIO suspends the process until do, run by the caller of Run, has
// filled its outcome.
func (p *Process) waitIO(name string, do func(ctx context.Context, o *ioOutcome)) control {
	if p.capture != nil {
		p.errorf("%s: cannot run in a command substitution\n", name)
		p.status = 1
		return next
	}
	o := &ioOutcome{fds: p.fds}
	p.pendingIO = o
	return control{kind: ctlWait, io: func(ctx context.Context) { do(ctx, o) }}
}

// noNetwork is the network of a process given none: no name resolves,
// nothing connects.
type noNetwork struct{}

func (noNetwork) DialContext(context.Context, string, string) (net.Conn, error) {
	return nil, &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ENETUNREACH}
}

func (noNetwork) LookupHost(_ context.Context, host string) (string, []netip.Addr, error) {
	return "", nil, fmt.Errorf("lookup %s: no network", host)
}

func (noNetwork) Nameserver() netip.AddrPort { return netip.AddrPort{} }

// networkOf is p's network, or noNetwork.
func networkOf(cfg Config) Network {
	if cfg.Network == nil {
		return noNetwork{}
	}
	return cfg.Network
}

// resolve turns host into an address: an IP as it is, a name through
// cluster DNS.
func resolve(ctx context.Context, nw Network, host string) (netip.Addr, error) {
	if ip, err := netip.ParseAddr(host); err == nil {
		return ip, nil
	}
	_, addrs, err := nw.LookupHost(ctx, host)
	if err != nil || len(addrs) == 0 {
		return netip.Addr{}, fmt.Errorf("bad address '%s'", host)
	}
	return addrs[0], nil
}

// errnoText is the C library's text of a dial error, as busybox prints
// it.
func errnoText(err error) string {
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return "Connection refused"
	case errors.Is(err, syscall.EHOSTUNREACH):
		return "No route to host"
	case errors.Is(err, syscall.ENETUNREACH):
		return "Network is unreachable"
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, syscall.ETIMEDOUT):
		return "Connection timed out"
	}
	return err.Error()
}

// wgetDefaultTimeout is busybox wget's network timeout.
const wgetDefaultTimeout = 900 * time.Second

// wget fetches a URL over HTTP, as busybox's wget: -q, -O file (- for
// stdout), -T seconds, --spider, -S (headers to stderr).
//
// Upstream: busybox networking/wget.c.
func wget(p *Process, argv []string) control {
	quiet, spider, headers := false, false, false
	out, rawURL := "", ""
	timeout := wgetDefaultTimeout
	args := argv[1:]
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--spider":
			spider = true
		case a == "-q" || a == "--quiet":
			quiet = true
		case a == "-S" || a == "--server-response":
			headers = true
		case strings.HasPrefix(a, "-") && len(a) > 1 && !strings.HasPrefix(a, "--"):
			// Short options, possibly bundled (-qO-, -qO file, -T5).
			for j := 1; j < len(a); j++ {
				switch c := a[j]; c {
				case 'q':
					quiet = true
				case 'S':
					headers = true
				case 'O', 'T':
					v := a[j+1:]
					if v == "" {
						if i+1 >= len(args) {
							p.errorf("wget: option requires an argument -- '%c'\n", c)
							p.status = 1
							return next
						}
						i++
						v = args[i]
					}
					if c == 'O' {
						out = v
					} else {
						n, err := strconv.ParseFloat(v, 64)
						if err != nil || n < 0 {
							p.errorf("wget: invalid number '%s'\n", v)
							p.status = 1
							return next
						}
						timeout = time.Duration(n * float64(time.Second))
					}
					j = len(a)
				default:
					p.errorf("wget: unrecognized option '%c'\n", c)
					p.status = 1
					return next
				}
			}
		case strings.HasPrefix(a, "--output-document="):
			out = strings.TrimPrefix(a, "--output-document=")
		case strings.HasPrefix(a, "--timeout="):
			n, _ := strconv.Atoi(strings.TrimPrefix(a, "--timeout="))
			timeout = time.Duration(n) * time.Second
		default:
			rawURL = a
		}
	}
	if rawURL == "" {
		p.errorf("BusyBox v1.36.1 (2023-05-18 22:34:17 UTC) multi-call binary.\n\nUsage: wget [-cqS] [--spider] [-O FILE] [-o LOGFILE] [--header STR]\n\t[--post-data STR | --post-file FILE] [-Y on/off]\n\t[-P DIR] [-U AGENT] [-T SEC] URL...\n")
		p.status = 1
		return next
	}
	if !strings.Contains(rawURL, "://") {
		rawURL = "http://" + rawURL
	}
	u, err := url.Parse(rawURL)
	if err != nil || u.Scheme != "http" {
		p.errorf("wget: not an http or ftp url: %s\n", rawURL)
		p.status = 1
		return next
	}
	if out == "" && !spider {
		out = path.Base(u.Path)
		if u.Path == "" || strings.HasSuffix(u.Path, "/") {
			out = "index.html"
		}
	}
	nw := networkOf(p.cfg)
	return p.waitIO("wget", func(ctx context.Context, o *ioOutcome) {
		ctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		o.status = 1
		host, port := u.Hostname(), u.Port()
		if port == "" {
			port = "80"
		}
		ip, err := resolve(ctx, nw, host)
		if err != nil {
			fmt.Fprintf(&o.stderr, "wget: %v\n", err)
			return
		}
		target := net.JoinHostPort(ip.String(), port)
		if !quiet {
			fmt.Fprintf(&o.stderr, "Connecting to %s (%s)\n", u.Host, target)
		}
		conn, err := nw.DialContext(ctx, "tcp", target)
		if err != nil {
			fmt.Fprintf(&o.stderr, "wget: can't connect to remote host (%s): %s\n", ip, errnoText(err))
			return
		}
		tr := &http.Transport{
			DialContext:       func(context.Context, string, string) (net.Conn, error) { return conn, nil },
			DisableKeepAlives: true,
		}
		defer tr.CloseIdleConnections()
		method := http.MethodGet
		if spider {
			method = http.MethodHead
		}
		req, _ := http.NewRequestWithContext(ctx, method, u.String(), nil)
		req.Header.Set("User-Agent", "Wget")
		resp, err := tr.RoundTrip(req)
		if err != nil {
			_ = conn.Close()
			fmt.Fprintf(&o.stderr, "wget: error getting response: %s\n", errnoText(err))
			return
		}
		defer resp.Body.Close()
		if headers {
			fmt.Fprintf(&o.stderr, "  HTTP/%d.%d %s\n", resp.ProtoMajor, resp.ProtoMinor, resp.Status)
			for k, vs := range resp.Header {
				for _, v := range vs {
					fmt.Fprintf(&o.stderr, "  %s: %s\n", k, v)
				}
			}
		}
		if resp.StatusCode >= 400 {
			fmt.Fprintf(&o.stderr, "wget: server returned error: HTTP/%d.%d %s\n", resp.ProtoMajor, resp.ProtoMinor, resp.Status)
			return
		}
		if spider {
			if !quiet {
				o.stderr.WriteString("remote file exists\n")
			}
			o.status = 0
			return
		}
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			fmt.Fprintf(&o.stderr, "wget: error reading body: %s\n", errnoText(err))
			return
		}
		progress := fmt.Sprintf("%-20s 100%% |%s| %5d  0:00:00 ETA\n", progressName(out), strings.Repeat("*", 32), len(body))
		if out == "-" {
			if !quiet {
				o.stderr.WriteString("writing to stdout\n" + progress)
			}
			o.stdout.Write(body)
			if !quiet {
				o.stderr.WriteString("written to stdout\n")
			}
		} else {
			if !quiet {
				fmt.Fprintf(&o.stderr, "saving to '%s'\n%s'%s' saved\n", out, progress, out)
			}
			o.file, o.fileData = out, string(body)
		}
		o.status = 0
	})
}

// progressName is the name wget's progress bar shows.
func progressName(out string) string {
	if out == "-" {
		return "-"
	}
	return path.Base(out)
}

// nc connects to host port, as busybox's nc: -z only checks that the
// port accepts (exit 0 or 1), -v says so, -w seconds bounds the
// connection; without -z the standard input is sent and the answer
// printed.
//
// Upstream: busybox networking/nc.c.
func nc(p *Process, argv []string) control {
	zero, verbose := false, false
	timeout := wgetDefaultTimeout
	var pos []string
	args := argv[1:]
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-w" && i+1 < len(args):
			i++
			n, err := strconv.Atoi(args[i])
			if err != nil {
				p.errorf("nc: invalid number '%s'\n", args[i])
				p.status = 1
				return next
			}
			timeout = time.Duration(n) * time.Second
		case strings.HasPrefix(a, "-") && len(a) > 1:
			for _, c := range a[1:] {
				switch c {
				case 'z':
					zero = true
				case 'v':
					verbose = true
				case 'n':
				default:
					p.errorf("nc: unrecognized option '%c'\n", c)
					p.status = 1
					return next
				}
			}
		default:
			pos = append(pos, a)
		}
	}
	if len(pos) != 2 {
		p.errorf("BusyBox v1.36.1 (2023-05-18 22:34:17 UTC) multi-call binary.\n\nUsage: nc [OPTIONS] HOST PORT  - connect\n")
		p.status = 1
		return next
	}
	host, port := pos[0], pos[1]
	var input string
	if p.stdin != nil {
		input = p.stdin.data
	}
	nw := networkOf(p.cfg)
	return p.waitIO("nc", func(ctx context.Context, o *ioOutcome) {
		ctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		o.status = 1
		ip, err := resolve(ctx, nw, host)
		if err != nil {
			fmt.Fprintf(&o.stderr, "nc: %v\n", err)
			return
		}
		target := net.JoinHostPort(ip.String(), port)
		conn, err := nw.DialContext(ctx, "tcp", target)
		if err != nil {
			if verbose || !zero {
				fmt.Fprintf(&o.stderr, "nc: %s (%s:%s): %s\n", host, ip, port, errnoText(err))
			}
			return
		}
		defer conn.Close()
		if verbose {
			fmt.Fprintf(&o.stderr, "%s (%s:%s) open\n", host, ip, port)
		}
		o.status = 0
		if zero {
			return
		}
		stop := context.AfterFunc(ctx, func() { _ = conn.Close() })
		defer stop()
		if _, err := io.WriteString(conn, input); err == nil {
			if cw, ok := conn.(interface{ CloseWrite() error }); ok {
				_ = cw.CloseWrite()
			}
		}
		b, _ := io.ReadAll(conn)
		o.stdout.Write(b)
	})
}

// nslookup resolves a name through cluster DNS with the pod's search
// path, printing as busybox's nslookup does.
//
// Upstream: busybox networking/nslookup.c.
func nslookup(p *Process, argv []string) control {
	var host string
	for _, a := range argv[1:] {
		if !strings.HasPrefix(a, "-") {
			host = a
			break
		}
	}
	if host == "" {
		p.errorf("BusyBox v1.36.1 (2023-05-18 22:34:17 UTC) multi-call binary.\n\nUsage: nslookup [-type=QUERY_TYPE] [-debug] HOST [DNS_SERVER]\n")
		p.status = 1
		return next
	}
	nw := networkOf(p.cfg)
	return p.waitIO("nslookup", func(ctx context.Context, o *ioOutcome) {
		server := nw.Nameserver()
		fmt.Fprintf(&o.stdout, "Server:\t\t%s\nAddress:\t%s\n\n", server.Addr(), server)
		name, addrs, err := nw.LookupHost(ctx, host)
		if err != nil || len(addrs) == 0 {
			fmt.Fprintf(&o.stdout, "** server can't find %s: NXDOMAIN\n\n", host)
			o.status = 1
			return
		}
		for _, a := range addrs {
			fmt.Fprintf(&o.stdout, "Name:\t%s\nAddress: %s\n\n", strings.TrimSuffix(name, "."), a)
		}
		o.status = 0
	})
}
