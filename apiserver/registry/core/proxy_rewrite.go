package core

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"path"
	"slices"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// maxRewriteBytes bounds the HTML page the proxy holds in memory to
// rewrite its links, both as sent and once decompressed: a page is a few
// KiB; a larger answer passes unchanged rather than be held whole.
const maxRewriteBytes = 8 << 20

// linkAttrs are the attributes of each tag that hold a URL.
//
// Upstream: k8s.io/apimachinery/pkg/util/proxy (atomsToAttrs).
var linkAttrs = map[atom.Atom][]string{
	atom.A:          {"href"},
	atom.Applet:     {"codebase"},
	atom.Area:       {"href"},
	atom.Audio:      {"src"},
	atom.Base:       {"href"},
	atom.Blockquote: {"cite"},
	atom.Body:       {"background"},
	atom.Button:     {"formaction"},
	atom.Command:    {"icon"},
	atom.Del:        {"cite"},
	atom.Embed:      {"src"},
	atom.Form:       {"action"},
	atom.Frame:      {"longdesc", "src"},
	atom.Head:       {"profile"},
	atom.Html:       {"manifest"},
	atom.Iframe:     {"longdesc", "src"},
	atom.Img:        {"longdesc", "src", "usemap"},
	atom.Input:      {"src", "usemap", "formaction"},
	atom.Ins:        {"cite"},
	atom.Link:       {"href"},
	atom.Object:     {"classid", "codebase", "data", "usemap"},
	atom.Q:          {"cite"},
	atom.Script:     {"src"},
	atom.Source:     {"src"},
	atom.Video:      {"poster", "src"},
}

// rewritingTransport relays one proxy request to the pod's server and
// keeps the client under the proxy path, as kube-apiserver's proxy does
// for pods/proxy and services/proxy: a page served at /x that links to
// /y means .../proxy/y, not the API server's /y. It
//
//   - tells the server where it is mounted (X-Forwarded-Uri);
//   - rewrites a redirect's Location and the links of a text/html answer
//     (href, src and the other URL attributes of linkAttrs) that point
//     at the server itself (an absolute path, or the server's or the
//     API server's host) to go through pathPrepend; relative links and
//     links to other hosts stay as they are;
//   - drops the server's CORS headers, which would otherwise speak for
//     the API server's origin.
//
// Upstream: k8s.io/apimachinery/pkg/util/proxy (Transport,
// corsRemovingTransport), with the empty scheme and host that
// kube-apiserver gives it.
type rewritingTransport struct {
	// pathPrepend is the proxy path the server is mounted at:
	// /api/v1/namespaces/{ns}/pods/{name}/proxy.
	pathPrepend string
	// clientHost is the Host the client asked the API server for.
	clientHost string
	next       http.RoundTripper
}

// RoundTrip implements http.RoundTripper.
func (t *rewritingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	uri := path.Join(t.pathPrepend, req.URL.EscapedPath())
	if strings.HasSuffix(req.URL.Path, "/") {
		uri += "/" // path.Join drops it
	}
	// RoundTrip must not modify the request it was given.
	req = req.Clone(req.Context())
	req.Header.Set("X-Forwarded-Uri", uri)
	resp, err := t.next.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	for _, h := range []string{"Access-Control-Allow-Credentials", "Access-Control-Allow-Headers",
		"Access-Control-Allow-Methods", "Access-Control-Allow-Origin"} {
		resp.Header.Del(h)
	}
	if loc := resp.Header.Get("Location"); loc != "" {
		// Upstream answers an unparsable Location with a 500; passing it on
		// is no worse, and bad input never yields a 500.
		if u, err := url.Parse(loc); err == nil {
			resp.Header.Set("Location", t.rewriteURL(u, req.URL))
		}
		return resp, nil
	}
	// A HEAD answer or a 204 or 304 has no page, only the headers of one.
	noBody := req.Method == http.MethodHead || resp.StatusCode == http.StatusNoContent || resp.StatusCode == http.StatusNotModified
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt != "text/html" || noBody {
		return resp, nil
	}
	return t.rewriteResponse(req, resp)
}

// rewriteURL returns u, found in the answer to a request for source, as
// the client must follow it.
//
// Upstream: k8s.io/apimachinery/pkg/util/proxy (Transport.rewriteURL).
func (t *rewritingTransport) rewriteURL(u, source *url.URL) string {
	otherHost := u.Host != "" && u.Host != source.Host && u.Host != t.clientHost
	if otherHost || !strings.HasPrefix(u.Path, "/") {
		return u.String()
	}
	if u.Host != t.clientHost {
		// The pod's own address means nothing to the client: the link
		// becomes a path on the API server.
		u.Scheme, u.Host = "", ""
	}
	if strings.HasPrefix(u.Path, t.pathPrepend) {
		return u.String() // under the proxy path already
	}
	trailing := strings.HasSuffix(u.Path, "/")
	u.Path = path.Join(t.pathPrepend, u.Path)
	if trailing {
		u.Path += "/" // path.Join drops it
	}
	u.RawPath = ""
	return u.String()
}

// rewriteResponse rewrites the links of resp's HTML body. A body in an
// encoding other than gzip or deflate, or larger than maxRewriteBytes,
// passes unchanged.
func (t *rewritingTransport) rewriteResponse(req *http.Request, resp *http.Response) (*http.Response, error) {
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxRewriteBytes+1))
	if err != nil {
		resp.Body.Close()
		return nil, fmt.Errorf("read the answer: %w", err)
	}
	if len(raw) > maxRewriteBytes {
		resp.Body = readCloser{io.MultiReader(bytes.NewReader(raw), resp.Body), resp.Body}
		return resp, nil
	}
	resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(raw))
	page, err := decode(resp.Header.Get("Content-Encoding"), raw)
	if err != nil {
		// Not something to rewrite (an unknown encoding, a page that
		// grows too large): the client gets the server's bytes.
		return resp, nil
	}
	var out bytes.Buffer
	if err := rewriteHTML(bytes.NewReader(page), &out, func(u *url.URL) string { return t.rewriteURL(u, req.URL) }); err != nil {
		return resp, nil
	}
	body, err := encode(resp.Header.Get("Content-Encoding"), out.Bytes())
	if err != nil {
		return nil, fmt.Errorf("encode the rewritten page: %w", err)
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	resp.Header.Del("Content-Length")
	resp.ContentLength = int64(len(body))
	return resp, nil
}

// rewriteHTML copies the page from r to w with each URL attribute of
// linkAttrs replaced by rewrite's answer; an attribute that is not a URL
// is left alone. It assumes UTF-8, as upstream does.
//
// Upstream: k8s.io/apimachinery/pkg/util/proxy (rewriteHTML).
func rewriteHTML(r io.Reader, w io.Writer, rewrite func(*url.URL) string) error {
	z := html.NewTokenizer(r)
	for {
		var err error
		switch z.Next() {
		case html.ErrorToken:
			if errors.Is(z.Err(), io.EOF) {
				return nil
			}
			return z.Err()
		case html.StartTagToken, html.SelfClosingTagToken:
			tok := z.Token()
			attrs := linkAttrs[tok.DataAtom]
			for i, a := range tok.Attr {
				if !slices.Contains(attrs, a.Key) {
					continue
				}
				if u, err := url.Parse(a.Val); err == nil {
					tok.Attr[i].Val = rewrite(u)
				}
			}
			_, err = io.WriteString(w, tok.String())
		default:
			_, err = w.Write(z.Raw())
		}
		if err != nil {
			return err
		}
	}
}

// errUnknownEncoding is decode's answer for a Content-Encoding it does
// not read.
var errUnknownEncoding = errors.New("unknown content encoding")

// decode returns data decoded from encoding ("" for none), at most
// maxRewriteBytes of it.
func decode(encoding string, data []byte) ([]byte, error) {
	var r io.Reader
	switch encoding {
	case "":
		return data, nil
	case "gzip":
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			return nil, err
		}
		r = zr
	case "deflate":
		r = flate.NewReader(bytes.NewReader(data))
	default:
		return nil, errUnknownEncoding
	}
	out, err := io.ReadAll(io.LimitReader(r, maxRewriteBytes+1))
	if err != nil {
		return nil, err
	}
	if len(out) > maxRewriteBytes {
		return nil, fmt.Errorf("page larger than %d bytes", maxRewriteBytes)
	}
	return out, nil
}

// encode returns data encoded as encoding, one decode read.
func encode(encoding string, data []byte) ([]byte, error) {
	var buf bytes.Buffer
	var w io.WriteCloser
	switch encoding {
	case "":
		return data, nil
	case "gzip":
		w = gzip.NewWriter(&buf)
	default: // deflate: decode read nothing else
		fw, err := flate.NewWriter(&buf, flate.BestCompression)
		if err != nil {
			return nil, err
		}
		w = fw
	}
	if _, err := w.Write(data); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// readCloser reads from one reader and closes another.
type readCloser struct {
	io.Reader
	io.Closer
}
