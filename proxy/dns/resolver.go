package dns

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"strings"
	"time"

	miekgdns "github.com/miekg/dns"
)

// DefaultNdots is resolv.conf's ndots in a pod: a name with fewer dots
// than this is tried with the search domains first.
const DefaultNdots = 5

// defaultTimeout bounds one query to the server.
const defaultTimeout = 2 * time.Second

// ErrNotFound is a lookup's error when no name of the search path exists
// (NXDOMAIN for each). Check it with errors.Is.
var ErrNotFound = errors.New("no such host")

// SearchPath is the search list of a pod in namespace ns, as the kubelet
// writes it into resolv.conf: "<ns>.svc.<domain> svc.<domain> <domain>".
func SearchPath(ns, domain string) []string {
	return []string{ns + ".svc." + domain, "svc." + domain, domain}
}

// Resolver resolves names as a pod's resolver does, through the cluster
// DNS server at Server with Search and Ndots. Its zero value has no
// server; make one with the Server's Addr. It is safe for concurrent use.
type Resolver struct {
	// Server is the DNS server's address (Server.Addr).
	Server netip.AddrPort
	// Search is the search path; see SearchPath.
	Search []string
	// Ndots defaults to DefaultNdots.
	Ndots int
	// Timeout bounds each query. Defaults to 2s.
	Timeout time.Duration
}

// Answer is a successful lookup: the name that answered (fully
// qualified, from the search path) and its addresses.
type Answer struct {
	Name  string
	Addrs []netip.Addr
}

// LookupHost resolves host (a name or an IP) to IPv4 addresses, trying
// the search path as resolv.conf says: a name with fewer than Ndots dots
// and no final dot is tried in each search domain first, then as it is.
// An IP is returned as it is. The error is ErrNotFound (wrapped) when
// no candidate exists.
func (r *Resolver) LookupHost(ctx context.Context, host string) (Answer, error) {
	if ip, err := netip.ParseAddr(host); err == nil {
		return Answer{Name: host, Addrs: []netip.Addr{ip}}, nil
	}
	var lastErr error
	for _, name := range r.candidates(host) {
		addrs, err := r.query(ctx, name)
		if err == nil {
			return Answer{Name: name, Addrs: addrs}, nil
		}
		lastErr = err
		if !errors.Is(err, ErrNotFound) {
			break
		}
	}
	return Answer{}, fmt.Errorf("lookup %s: %w", host, lastErr)
}

// candidates are the fully qualified names to try for host, in order.
//
// Upstream: glibc's res_search, which Go's resolver and musl follow.
func (r *Resolver) candidates(host string) []string {
	if strings.HasSuffix(host, ".") {
		return []string{host}
	}
	ndots := r.Ndots
	if ndots == 0 {
		ndots = DefaultNdots
	}
	var out []string
	asIs := miekgdns.Fqdn(host)
	if strings.Count(host, ".") >= ndots {
		out = append(out, asIs)
	}
	for _, domain := range r.Search {
		out = append(out, miekgdns.Fqdn(host+"."+domain))
	}
	if strings.Count(host, ".") < ndots {
		out = append(out, asIs)
	}
	return out
}

// query asks the server for name's A records, following a CNAME chain
// the answer carries.
func (r *Resolver) query(ctx context.Context, name string) ([]netip.Addr, error) {
	if !r.Server.IsValid() {
		return nil, errors.New("no DNS server")
	}
	timeout := r.Timeout
	if timeout == 0 {
		timeout = defaultTimeout
	}
	m := new(miekgdns.Msg)
	m.SetQuestion(name, miekgdns.TypeA)
	c := &miekgdns.Client{Timeout: timeout}
	conn, err := c.DialContext(ctx, r.Server.String())
	if err != nil {
		return nil, fmt.Errorf("query %s: %w", name, err)
	}
	defer conn.Close()
	// The exchange reads until its timeout whatever ctx does: closing the
	// connection when ctx ends stops the read at once, so a query never
	// outlives its caller (a pod's client stopping with its cluster).
	stop := context.AfterFunc(ctx, func() { _ = conn.Close() })
	defer stop()
	resp, _, err := c.ExchangeWithConnContext(ctx, m, conn)
	if err != nil {
		return nil, fmt.Errorf("query %s: %w", name, err)
	}
	switch resp.Rcode {
	case miekgdns.RcodeSuccess:
	case miekgdns.RcodeNameError, miekgdns.RcodeRefused:
		// A name outside the cluster domain cannot be resolved here.
		return nil, ErrNotFound
	default:
		return nil, fmt.Errorf("query %s: %s", name, miekgdns.RcodeToString[resp.Rcode])
	}
	var addrs []netip.Addr
	for _, rr := range resp.Answer {
		if rec, ok := rr.(*miekgdns.A); ok {
			if ip, ok := netip.AddrFromSlice(rec.A); ok {
				addrs = append(addrs, ip.Unmap())
			}
		}
	}
	if len(addrs) == 0 {
		return nil, ErrNotFound
	}
	return addrs, nil
}
