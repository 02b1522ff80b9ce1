package ghx

import (
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// maskedQueryKeys are query parameters whose values are secrets: OAuth and
// token parameters, device-flow codes, and the signatures and credentials of
// pre-signed blob URLs (Azure SAS, S3, GCS) such as the artifact redirect's.
var maskedQueryKeys = map[string]bool{
	"access_token": true, "token": true, "refresh_token": true,
	"client_secret": true, "code": true, "device_code": true,
	"sig": true, "signature": true, "se": true, "st": true, "skoid": true,
	"sktid": true, "skt": true, "ske": true, "sks": true, "skv": true,
	"x-amz-signature": true, "x-amz-credential": true, "x-amz-security-token": true,
	"x-goog-signature": true, "x-goog-credential": true,
	"key": true, "password": true,
}

// isSecretQueryKey also catches names the list does not know, by what they
// usually contain.
func isSecretQueryKey(key string) bool {
	k := strings.ToLower(key)
	if maskedQueryKeys[k] {
		return true
	}
	for _, word := range []string{"token", "secret", "signature", "credential", "password"} {
		if strings.Contains(k, word) {
			return true
		}
	}
	return false
}

// MaskURL returns u with the values of secret query parameters replaced by
// *** and any user information (user:password@) removed, keeping the order
// and the names of the parameters so a log line still says what was asked.
// A string that does not parse as a URL loses everything after '?'.
func MaskURL(u string) string {
	parsed, err := url.Parse(u)
	if err != nil {
		if before, _, found := strings.Cut(u, "?"); found {
			return before + "?***"
		}
		return u
	}
	parsed.User = nil
	parsed.RawQuery = maskQuery(parsed.RawQuery)
	if parsed.Fragment != "" {
		parsed.Fragment = ""
		parsed.RawFragment = ""
	}
	return parsed.String()
}

func maskQuery(raw string) string {
	if raw == "" {
		return ""
	}
	parts := strings.Split(raw, "&")
	for i, part := range parts {
		name, _, hasValue := strings.Cut(part, "=")
		decoded, err := url.QueryUnescape(name)
		if err != nil {
			decoded = name
		}
		if hasValue && isSecretQueryKey(decoded) {
			parts[i] = name + "=***"
		}
	}
	return strings.Join(parts, "&")
}

// logTransport writes one line per request that reaches the wire: method,
// masked URL, status, whether a conditional request was answered from the
// cache, and how long GitHub took. It never reads request headers, so the
// Authorization header cannot reach the log.
type logTransport struct {
	next   http.RoundTripper
	logger *slog.Logger
	now    func() time.Time
}

func (t *logTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	start := t.now()
	resp, err := t.next.RoundTrip(req)
	elapsed := t.now().Sub(start)
	conditional := req.Header.Get("If-None-Match") != "" || req.Header.Get("If-Modified-Since") != ""
	attrs := []slog.Attr{
		slog.String("method", req.Method),
		slog.String("url", MaskURL(req.URL.String())),
		slog.Duration("duration", elapsed),
	}
	if err != nil {
		attrs = append(attrs, slog.String("error", maskErrorText(err.Error())))
		t.logger.LogAttrs(req.Context(), slog.LevelWarn, "github request failed", attrs...)
		return nil, err
	}
	cache := "none"
	switch {
	case conditional && resp.StatusCode == http.StatusNotModified:
		cache = "hit"
	case conditional:
		cache = "miss"
	}
	attrs = append(attrs, slog.Int("status", resp.StatusCode), slog.String("cache", cache))
	if remaining := resp.Header.Get("X-RateLimit-Remaining"); remaining != "" {
		attrs = append(attrs, slog.String("ratelimit_remaining", remaining))
	}
	t.logger.LogAttrs(req.Context(), slog.LevelInfo, "github request", attrs...)
	return resp, nil
}

// maskErrorText masks URLs inside an error's text: net/http errors quote the
// whole request URL, signature and all.
func maskErrorText(s string) string {
	fields := strings.Fields(s)
	changed := false
	for i, f := range fields {
		trimmed := strings.Trim(f, `"':,`)
		if strings.Contains(trimmed, "://") && strings.Contains(trimmed, "?") {
			fields[i] = strings.Replace(f, trimmed, MaskURL(trimmed), 1)
			changed = true
		}
	}
	if !changed {
		return s
	}
	return strings.Join(fields, " ")
}
