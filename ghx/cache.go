package ghx

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// CacheHeader marks a response the cache served: "hit" when GitHub answered
// 304 and the stored body was returned as a 200.
const CacheHeader = "X-Aayu-Cache"

// maxCachedBody caps what one cache entry may hold; larger bodies pass
// through uncached.
const maxCachedBody = 8 << 20

// storedResponseHeaders are the only response headers an entry keeps. No
// request header is ever stored, so the Authorization header cannot reach
// the disk.
var storedResponseHeaders = []string{
	"Content-Type", "ETag", "Last-Modified", "Link", "Cache-Control", "Vary",
	"X-GitHub-Media-Type",
}

// cacheTransport makes every GET to the API host a conditional request when
// an earlier answer is on disk, and turns GitHub's 304 (which costs no rate
// limit) back into the stored 200 for go-github.
type cacheTransport struct {
	next      http.RoundTripper
	dir       string
	namespace string
	apiHost   string
}

// cacheEntry is the metadata line at the top of an entry file; the body
// follows it. BodySHA256 lets a damaged file be recognised and ignored.
type cacheEntry struct {
	Version    int         `json:"v"`
	Status     int         `json:"status"`
	Header     http.Header `json:"header"`
	BodySHA256 string      `json:"body_sha256"`
	BodyLength int         `json:"body_length"`
	body       []byte
}

func (t *cacheTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if !t.cacheable(req) {
		return t.next.RoundTrip(req)
	}
	path := t.entryPath(req)
	entry := readCacheEntry(path)

	out := req
	if entry != nil {
		out = req.Clone(req.Context())
		if etag := entry.Header.Get("ETag"); etag != "" {
			out.Header.Set("If-None-Match", etag)
		}
		if modified := entry.Header.Get("Last-Modified"); modified != "" {
			out.Header.Set("If-Modified-Since", modified)
		}
	}
	resp, err := t.next.RoundTrip(out)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode == http.StatusNotModified && entry != nil {
		return serveCached(resp, entry), nil
	}
	if resp.StatusCode != http.StatusOK || !storable(resp) {
		return resp, nil
	}
	return t.store(path, resp)
}

// cacheable: only unconditional GETs to the API host without a Range or a
// signature; a caller that sets its own validators handles the 304 itself.
func (t *cacheTransport) cacheable(req *http.Request) bool {
	return req.Method == http.MethodGet && req.URL.Host == t.apiHost && !presigned(req.URL) &&
		req.Header.Get("If-None-Match") == "" && req.Header.Get("If-Modified-Since") == "" &&
		req.Header.Get("Range") == ""
}

// entryPath names an entry by SHA-256 of the user namespace, the Accept
// header (GitHub's representation depends on it) and the URL: nothing in
// the name is, or leads back to, the token.
func (t *cacheTransport) entryPath(req *http.Request) string {
	h := sha256.New()
	for _, part := range []string{t.namespace, req.Header.Get("Accept"), req.URL.String()} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	return filepath.Join(t.dir, hex.EncodeToString(h.Sum(nil)))
}

func storable(resp *http.Response) bool {
	if resp.Header.Get("ETag") == "" && resp.Header.Get("Last-Modified") == "" {
		return false
	}
	return !strings.Contains(strings.ToLower(resp.Header.Get("Cache-Control")), "no-store")
}

// store reads the body (a read failure is returned so the retry layer can
// re-issue the GET), writes the entry, and hands back a response whose body
// is the bytes read. A cache that cannot be written never fails a request.
func (t *cacheTransport) store(path string, resp *http.Response) (*http.Response, error) {
	body, complete, err := readCapped(resp.Body, maxCachedBody)
	if err != nil {
		resp.Body.Close()
		return nil, err
	}
	if !complete {
		resp.Body = joinBody(body, resp.Body)
		return resp, nil
	}
	resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(body))
	resp.ContentLength = int64(len(body))
	resp.Header.Del("Content-Length")

	entry := cacheEntry{Version: 1, Status: resp.StatusCode, Header: http.Header{}, body: body}
	for _, name := range storedResponseHeaders {
		if values := resp.Header.Values(name); len(values) > 0 {
			entry.Header[http.CanonicalHeaderKey(name)] = append([]string(nil), values...)
		}
	}
	_ = writeCacheEntry(path, &entry)
	return resp, nil
}

// serveCached answers with the stored body as a 200, carrying the 304's
// fresh headers (rate limit, ETag, Date) over the stored ones, and marks it.
func serveCached(notModified *http.Response, entry *cacheEntry) *http.Response {
	_, _ = io.Copy(io.Discard, io.LimitReader(notModified.Body, 64<<10))
	notModified.Body.Close()
	header := entry.Header.Clone()
	for name, values := range notModified.Header {
		header[name] = append([]string(nil), values...)
	}
	for _, name := range []string{"Content-Type", "Link"} {
		if notModified.Header.Get(name) == "" && entry.Header.Get(name) != "" {
			header[name] = entry.Header.Values(name)
		}
	}
	header.Set("Content-Length", strconv.Itoa(len(entry.body)))
	header.Set(CacheHeader, "hit")
	return &http.Response{
		Status:        "200 OK",
		StatusCode:    http.StatusOK,
		Proto:         notModified.Proto,
		ProtoMajor:    notModified.ProtoMajor,
		ProtoMinor:    notModified.ProtoMinor,
		Header:        header,
		Body:          io.NopCloser(bytes.NewReader(entry.body)),
		ContentLength: int64(len(entry.body)),
		Request:       notModified.Request,
		TLS:           notModified.TLS,
	}
}

// readCacheEntry returns nil for a missing, unreadable or damaged entry: a
// bad cache is a miss, never an error.
func readCacheEntry(path string) *cacheEntry {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	meta, body, found := bytes.Cut(raw, []byte{'\n'})
	if !found {
		return nil
	}
	var entry cacheEntry
	if err := json.Unmarshal(meta, &entry); err != nil || entry.Version != 1 {
		return nil
	}
	sum := sha256.Sum256(body)
	if entry.BodyLength != len(body) || entry.BodySHA256 != hex.EncodeToString(sum[:]) {
		return nil
	}
	if entry.Header.Get("ETag") == "" && entry.Header.Get("Last-Modified") == "" {
		return nil
	}
	entry.body = body
	return &entry
}

// writeCacheEntry writes atomically: a temporary file in the same folder,
// then a rename, so a reader sees the old entry or the new one whole. It
// does not fsync: an entry a crash leaves torn fails its own length and
// SHA-256 (readCacheEntry) and is a miss, so durability would buy nothing
// for the cost of a disk flush on every response read.
func writeCacheEntry(path string, entry *cacheEntry) error {
	sum := sha256.Sum256(entry.body)
	entry.BodySHA256 = hex.EncodeToString(sum[:])
	entry.BodyLength = len(entry.body)
	meta, err := json.Marshal(entry)
	if err != nil {
		return err
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".entry-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	w := bufio.NewWriter(tmp)
	w.Write(meta)
	w.WriteByte('\n')
	w.Write(entry.body)
	if err := errors.Join(w.Flush(), tmp.Close()); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// readCapped reads up to limit bytes. complete is false when the body is
// longer; the bytes read so far are returned either way.
func readCapped(body io.Reader, limit int64) (data []byte, complete bool, err error) {
	data, err = io.ReadAll(io.LimitReader(body, limit+1))
	if err != nil {
		return nil, false, err
	}
	if int64(len(data)) > limit {
		return data, false, nil
	}
	return data, true, nil
}

// joinBody puts back the prefix already read in front of the rest.
func joinBody(prefix []byte, rest io.ReadCloser) io.ReadCloser {
	return struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(prefix), rest), rest}
}
