package sandbox

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strings"
	"time"
)

// weakETag depends on the representation: the body, the Accept header and
// the caller, since bodies such as permissions differ per user.
func weakETag(body []byte, accept, login string) string {
	h := sha256.New()
	h.Write(body)
	h.Write([]byte{0})
	h.Write([]byte(accept))
	h.Write([]byte{0})
	h.Write([]byte(login))
	return `W/"` + hex.EncodeToString(h.Sum(nil)) + `"`
}

// etagMatches compares If-None-Match with weak comparison: W/"x" matches "x".
func etagMatches(ifNoneMatch, etag string) bool {
	if ifNoneMatch == "" {
		return false
	}
	want := strings.TrimPrefix(etag, "W/")
	for _, part := range strings.Split(ifNoneMatch, ",") {
		part = strings.TrimSpace(part)
		if part == "*" || strings.TrimPrefix(part, "W/") == want {
			return true
		}
	}
	return false
}

// notModified applies RFC 9110's order: If-None-Match when present, else
// If-Modified-Since against Last-Modified.
func notModified(r *http.Request, etag, lastModified string) bool {
	if inm := r.Header.Get("If-None-Match"); inm != "" {
		return etagMatches(inm, etag)
	}
	ims := r.Header.Get("If-Modified-Since")
	if ims == "" || lastModified == "" {
		return false
	}
	since, err1 := http.ParseTime(ims)
	mod, err2 := http.ParseTime(lastModified)
	return err1 == nil && err2 == nil && !mod.After(since)
}

func setLastModified(w http.ResponseWriter, t time.Time) {
	w.Header().Set("Last-Modified", t.UTC().Format(http.TimeFormat))
}
