package sandbox

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

const exposeHeaders = "ETag, Link, Location, Retry-After, X-GitHub-OTP, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Used, X-RateLimit-Resource, X-RateLimit-Reset, X-OAuth-Scopes, X-Accepted-OAuth-Scopes, X-Poll-Interval, X-GitHub-Media-Type, X-GitHub-SSO, X-GitHub-Request-Id, Deprecation, Sunset"

// routes builds the API mux and the web mux (device flow pages, signed
// blob downloads) and picks between them by path.
func (s *Server) routes() http.Handler {
	api := http.NewServeMux()
	s.routeRepo(api)
	s.routeIssues(api)
	s.routePulls(api)
	s.routeGit(api)
	s.routeActions(api)
	s.routeVariables(api)
	s.routeRules(api)
	s.routeTeams(api)
	s.routeApps(api)
	s.routeAttestations(api)
	s.routeReleases(api)
	api.HandleFunc("GET /apps/{slug}", s.getAppBySlug)
	s.routeCheckWrites(api)
	api.HandleFunc("GET /rate_limit", s.handleRateLimit)
	api.HandleFunc("GET /user", s.handleUser)

	web := http.NewServeMux()
	s.routeDevice(web)
	web.HandleFunc("GET /_blob/artifacts/{id}", s.handleBlob)
	s.routeManifest(api, web)
	s.routeAayuRelease(api, web)
	reviewer := s.routeReviewer()

	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// GitHub's Date is GitHub's clock, the one its updated_at values
		// count; net/http would send the machine's, which differs from a
		// sandbox run on a fixed or shifted clock.
		w.Header().Set("Date", s.now().Format(http.TimeFormat))
		if isGitPath(r.URL.Path) {
			s.serveGit(w, r)
			return
		}
		if strings.HasPrefix(r.URL.Path, "/login/") || strings.HasPrefix(r.URL.Path, "/_blob/") || strings.HasSuffix(r.URL.Path, "/settings/apps/new") {
			s.serveWeb(w, r, web)
			return
		}
		if strings.HasPrefix(r.URL.Path, ReviewerPath+"/") {
			// Not under the sandbox's lock: a model takes its time.
			reviewer.ServeHTTP(w, r)
			return
		}
		if r.URL.Path == "/graphql" {
			s.serveGraphQL(w, r) // graphql.go: its own limit and validation
			return
		}
		s.serveAPI(w, r, api)
	})
}

func (s *Server) serveWeb(w http.ResponseWriter, r *http.Request, web *http.ServeMux) {
	bw := newBufWriter()
	s.mu.Lock()
	web.ServeHTTP(bw, r)
	s.mu.Unlock()
	for k, v := range bw.h {
		w.Header()[k] = v
	}
	w.WriteHeader(bw.status)
	_, _ = w.Write(bw.body.Bytes())
	s.logf("%s %s %d not counted", r.Method, r.URL.Path, bw.status)
}

// waitOrGone holds a request for d, as a slow network would, and says
// whether its client is still there: one that gave up (its context done)
// is answered with nothing and holds no goroutine for the rest of d.
func waitOrGone(r *http.Request, d time.Duration) bool {
	// The body is taken in first, as a slow network delivers it before the
	// answer is late: only a request read to its end lets net/http notice
	// the client going away and end r's context.
	if r.Body != nil && r.Body != http.NoBody {
		b, err := io.ReadAll(r.Body)
		if err != nil {
			return false
		}
		r.Body = io.NopCloser(bytes.NewReader(b))
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
		return false
	}
}

// serveAPI runs one REST request through faults, authentication, the rate
// limit, the handler, and conditional-request handling, then writes it.
func (s *Server) serveAPI(w http.ResponseWriter, r *http.Request, api *http.ServeMux) {
	if d := s.opts.Faults.Latency; d > 0 && !waitOrGone(r, d) {
		return
	}
	if d := s.opts.Faults.WriteLatency; d > 0 && r.Method != http.MethodGet && r.Method != http.MethodHead && !waitOrGone(r, d) {
		return
	}
	fault, variant := s.faults.draw(r)
	c, authOK := s.authenticate(r)
	if !authOK {
		c = caller{anonymous: true} // a bad token counts against the anonymous limit
	}

	s.mu.Lock()
	s.reloadIfReset()
	leave := s.enter(r)
	s.reqSeq++
	seq := s.reqSeq
	bw := newBufWriter()
	counted := false
	b := s.bucket(c)
	switch {
	case !authOK:
		writeError(bw, http.StatusUnauthorized, "Bad credentials")
	case fault == faultServerError:
		writeServerError(bw, variant)
	case fault == faultSecondary:
		writeSecondaryLimit(bw, variant)
	case r.URL.Path != "/rate_limit" && b.remaining() == 0:
		writeRateLimited(bw, c)
	default:
		counted = s.dispatch(bw, withCaller(r, c), api, c)
		s.renameBody(bw)
	}
	if counted {
		b.used++
	}
	b.setHeaders(bw.h)
	if bw.status >= 200 && bw.status < 300 && r.Method != http.MethodGet && r.Method != http.MethodHead {
		if err := s.save(); err != nil {
			s.logf("sandbox: %v", err)
		}
	}
	leave()
	s.mu.Unlock()

	h := w.Header()
	for k, v := range bw.h {
		h[k] = v
	}
	h.Set("X-GitHub-Request-Id", fmt.Sprintf("5A4D:%04X:%06X:%06X:%08X", seq%0xffff, seq*7919%0xffffff, seq*104729%0xffffff, s.now().Unix()&0xffffffff))
	h.Set("X-GitHub-Api-Version-Selected", "2022-11-28")
	h.Set("X-GitHub-Media-Type", "github.v3; format=json")
	h.Set("Access-Control-Expose-Headers", exposeHeaders)
	h.Set("Access-Control-Allow-Origin", "*")
	if c.install != nil {
		h.Set(TokenExpirationHeader, c.install.expires.UTC().Format("2006-01-02 15:04:05 UTC"))
	}
	if sc, person := c.scopes(); person {
		// A person's token: its scopes (workflowpush.go); an App's token
		// (a job's, an installation's, the agent bot's) reports none.
		h.Set("X-OAuth-Scopes", strings.Join(sc, ", "))
		h.Set("X-Accepted-OAuth-Scopes", "repo")
	}
	if c.user != nil {
		h.Set("X-OAuth-Scopes", c.user.scopeHeader()) // what the device flow granted, not the account's own token's
	}
	if bw.status == 0 {
		bw.status = http.StatusOK
	}
	countWord := "not counted"
	if counted {
		countWord = "counted"
	}
	s.logf("%s %s %d %s", r.Method, r.URL.Path, bw.status, countWord)

	if fault == faultDrop {
		// The outermost layer cuts the connection (see dropLayer), so a
		// validator wrapped around the API still sees GitHub's response.
		h.Set(dropHeader, "1")
	}
	w.WriteHeader(bw.status)
	if bw.status != http.StatusNotModified {
		_, _ = w.Write(bw.body.Bytes())
	}
}

// dispatch routes to a handler and applies ETag/304. It reports whether the
// request counts against the primary limit: /rate_limit never does, nor a
// 304 made with a token.
func (s *Server) dispatch(bw *bufWriter, r *http.Request, api *http.ServeMux, c caller) bool {
	if _, pattern := api.Handler(r); pattern == "" {
		notFound(bw)
		return true
	}
	if c.anonymous && r.Method != http.MethodGet && r.Method != http.MethodHead && !strings.HasPrefix(r.URL.Path, "/app-manifests/") {
		writeError(bw, http.StatusUnauthorized, "Requires authentication")
		return true
	}
	if c.app != nil && !appOnlyPath(r) {
		writeErrorDoc(bw, http.StatusUnauthorized, "A JSON web token could not be decoded", "https://docs.github.com/rest")
		return true
	}
	if c.job != nil && s.refuseJob(bw, r, c.job) {
		return true
	}
	if c.install != nil && s.refuseInstall(bw, r, c.install) {
		return true
	}
	if c.user != nil && s.refuseUser(bw, r, c.user) {
		return true
	}
	api.ServeHTTP(bw, r)
	if bw.status == 0 {
		bw.status = http.StatusOK
	}
	if r.Method == http.MethodGet && bw.status == http.StatusOK {
		etag := weakETag(bw.body.Bytes(), r.Header.Get("Accept"), c.Login)
		bw.h.Set("ETag", etag)
		bw.h.Set("Cache-Control", "private, max-age=60, s-maxage=60")
		bw.h.Set("Vary", "Accept, Authorization, Cookie, X-GitHub-OTP")
		if notModified(r, etag, bw.h.Get("Last-Modified")) {
			bw.status = http.StatusNotModified
			bw.body.Reset()
			bw.h.Del("Content-Type")
			bw.h.Del("Link")
			if !c.anonymous {
				return false
			}
		}
	}
	return r.URL.Path != "/rate_limit"
}

// enterpriseLayout also serves GitHub Enterprise Server's layout on the
// same host: REST under /api/v3/ and GraphQL at /api/graphql, which is
// where a client pointed at a host other than github.com asks (gh with
// GH_HOST, go-github's WithEnterpriseURLs). The prefix comes off before
// anything else sees the request, so the handlers, the conformance
// validator (Options.Wrap) and the log all see github.com's paths, and the
// URLs in bodies and Link headers stay in that layout, which is served too.
func enterpriseLayout(next http.Handler) http.Handler {
	rest := http.StripPrefix("/api/v3", next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/api/graphql":
			r2 := r.Clone(r.Context())
			r2.URL.Path, r2.URL.RawPath = "/graphql", ""
			next.ServeHTTP(w, r2)
		case strings.HasPrefix(r.URL.Path, "/api/v3/"):
			rest.ServeHTTP(w, r)
		default:
			next.ServeHTTP(w, r)
		}
	})
}

const dropHeader = "X-Sandbox-Drop-Connection"

// dropLayer is the outermost handler: a response marked for the drop fault
// is cut off mid-body on the wire.
func dropLayer(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		bw := newBufWriter()
		next.ServeHTTP(bw, r)
		if bw.status == 0 {
			bw.status = http.StatusOK
		}
		if bw.h.Get(dropHeader) != "" {
			bw.h.Del(dropHeader)
			dropMidBody(w, bw)
			return
		}
		for k, v := range bw.h {
			w.Header()[k] = v
		}
		w.WriteHeader(bw.status)
		_, _ = w.Write(bw.body.Bytes())
	})
}

// dropMidBody writes the status line, the headers with the full length, and
// half the body, then closes the connection, as a network failure would.
func dropMidBody(w http.ResponseWriter, bw *bufWriter) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		w.WriteHeader(bw.status)
		_, _ = w.Write(bw.body.Bytes()[:bw.body.Len()/2])
		return
	}
	conn, rw, err := hj.Hijack()
	if err != nil {
		return
	}
	defer conn.Close()
	writeRawHead(rw, bw)
	body := bw.body.Bytes()
	_, _ = rw.Write(body[:len(body)/2])
	_ = rw.Flush()
}

func writeRawHead(rw *bufio.ReadWriter, bw *bufWriter) {
	fmt.Fprintf(rw, "HTTP/1.1 %d %s\r\n", bw.status, http.StatusText(bw.status))
	bw.h.Set("Content-Length", strconv.Itoa(bw.body.Len()))
	_ = bw.h.Write(rw)
	fmt.Fprint(rw, "\r\n")
}
