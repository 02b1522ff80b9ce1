package ghx

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/google/go-github/v66/github"
)

// DefaultAPIURL is GitHub's REST API.
const DefaultAPIURL = "https://api.github.com/"

// ClientOptions configures NewClient. Only Token is usually set by hand;
// the rest have working defaults.
type ClientOptions struct {
	// APIURL is the REST base: api.github.com (default), a GitHub Enterprise
	// Server (https://ghes.example.com/ gets api/v3/ added, as go-github's
	// WithEnterpriseURLs does), or the sandbox (http://127.0.0.1:8765/, a
	// loopback host, taken literally so requests go to /repos/…).
	APIURL string
	// Token is sent as "Authorization: Bearer …" to the API host only.
	Token Token
	// Redact are the other tokens this process holds (the person's, beside
	// a device-flow token): stripped from this client's answers as Token
	// is, since the same server has seen them all.
	Redact []Token
	// CacheDir holds the conditional-request cache; empty turns it off.
	CacheDir string
	// CacheNamespace keeps users apart in one cache folder, e.g. the login.
	// Empty: a short hash of the token (the token itself never reaches the
	// cache).
	CacheNamespace string
	// Logger receives one line per request on the wire; nil logs nothing.
	Logger *slog.Logger
	// UserAgent defaults to "aayu".
	UserAgent string
	Retry     RetryPolicy
	// Now and Sleep replace the clock and waiting, for tests.
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) error
	// Base is the transport that talks to the network; nil means a copy of
	// http.DefaultTransport with a response-header timeout.
	Base http.RoundTripper
	// Limits bound each request's time and body size (transport_limits.go).
	Limits Limits
}

// NewClient builds a go-github client whose transport, outermost first,
// retries, keeps the conditional-request cache, logs, authenticates, and
// strips the token from whatever a server answers (redact.go).
func NewClient(opts ClientOptions) (*github.Client, error) {
	base, err := ParseAPIURL(opts.APIURL)
	if err != nil {
		return nil, err
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	sleep := opts.Sleep
	if sleep == nil {
		sleep = sleepContext
	}
	var rt http.RoundTripper = opts.Base
	if rt == nil {
		transport := http.DefaultTransport.(*http.Transport).Clone()
		transport.ResponseHeaderTimeout = 60 * time.Second
		rt = transport
	}
	rt = &limitTransport{next: rt, limits: opts.Limits.withDefaults()}
	rt = newRedactTransport(rt, append([]Token{opts.Token}, opts.Redact...)...)
	rt = &authTransport{next: rt, token: opts.Token, scheme: base.Scheme, host: base.Host}
	if opts.Logger != nil {
		rt = &logTransport{next: rt, logger: opts.Logger, now: now}
	}
	if opts.CacheDir != "" {
		namespace := opts.CacheNamespace
		if namespace == "" {
			namespace = opts.Token.cacheNamespace()
		}
		rt = &cacheTransport{next: rt, dir: opts.CacheDir, namespace: namespace, apiHost: base.Host}
	}
	rt = &retryTransport{next: rt, policy: opts.Retry.withDefaults(), sleep: sleep, now: now}

	client := github.NewClient(&http.Client{Transport: rt, CheckRedirect: SameHostRedirect})
	client.BaseURL = base
	upload := *base
	if strings.HasSuffix(upload.Path, "/api/v3/") {
		upload.Path = strings.TrimSuffix(upload.Path, "v3/") + "uploads/"
	} else if upload.Host == "api.github.com" {
		upload.Host = "uploads.github.com"
	}
	client.UploadURL = &upload
	client.UserAgent = opts.UserAgent
	if client.UserAgent == "" {
		client.UserAgent = "aayu"
	}
	return client, nil
}

// ParseAPIURL turns --api-url into go-github's BaseURL (always ending in
// '/'). A bare remote host that is neither api.* nor loopback is a GitHub
// Enterprise Server, whose REST API lives under /api/v3/; any other URL is
// taken as given, which is what the sandbox needs.
func ParseAPIURL(raw string) (*url.URL, error) {
	if strings.TrimSpace(raw) == "" {
		raw = DefaultAPIURL
	}
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return nil, fmt.Errorf("the GitHub API URL %q is not a URL: %w", MaskURL(raw), err)
	}
	if (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return nil, fmt.Errorf("the GitHub API URL %q must start with https:// (or http:// for the sandbox) and name a host", MaskURL(raw))
	}
	if u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("the GitHub API URL %q must not carry credentials, a query or a fragment", MaskURL(raw))
	}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	u.RawPath = ""
	if u.Path == "/" && !strings.HasPrefix(u.Host, "api.") && !strings.Contains(u.Host, ".api.") && !isLoopback(u.Hostname()) {
		u.Path = "/api/v3/"
	}
	return u, nil
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// authTransport adds the token to requests for the API host and strips any
// Authorization header from requests elsewhere — the artifact redirect's
// blob host above all, and every redirect that leaves the API host. A
// pre-signed URL carries its own credential, so it never gets the token
// even on the API host (the sandbox serves its blobs there).
type authTransport struct {
	next   http.RoundTripper
	token  Token
	scheme string
	host   string
}

func (t *authTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	toAPI := req.URL.Host == t.host && req.URL.Scheme == t.scheme && !presigned(req.URL)
	switch {
	case toAPI && !t.token.IsZero():
		req = req.Clone(req.Context())
		req.Header.Set("Authorization", "Bearer "+t.token.Reveal())
	case !toAPI && req.Header.Get("Authorization") != "":
		req = req.Clone(req.Context())
		req.Header.Del("Authorization")
	}
	return t.next.RoundTrip(req)
}

// presigned reports a URL that carries a storage signature (Azure SAS, S3,
// GCS, the sandbox's blobs).
func presigned(u *url.URL) bool {
	if u.RawQuery == "" {
		return false
	}
	for key := range u.Query() {
		switch strings.ToLower(key) {
		case "sig", "signature", "x-amz-signature", "x-goog-signature":
			return true
		}
	}
	return false
}
