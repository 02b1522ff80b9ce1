package sandbox

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/aayudha/aayu/ghx/sandbox/vsigstore"
)

// Options configure a sandbox server.
type Options struct {
	// StateDir holds the persisted state (state.json and the bare git
	// repository benefits.git). "" keeps everything in memory.
	StateDir string
	// Faults switches on injected failures; the zero value injects none.
	Faults FaultSpec
	// FaultPlan, when set, puts a chosen fault on chosen requests (tests).
	FaultPlan FaultPlan
	// ExtraTokens accepts more token values, each as the account whose
	// login it maps to (tests use a distinctive value to hunt for leaks).
	ExtraTokens map[string]string
	// Logf, when set, receives one line per request: method, path, status,
	// and whether the request counted against the rate limit.
	Logf func(format string, args ...any)
	// Scale seeds this many more issues and pull requests, spread over
	// every inbox kind, after the fixed demo.
	Scale int
	// BotIdentity seeds the demo with a bot identity (seed 001, "How the
	// binary picks an identity"): its base config names agent-bot[bot] in
	// [identity], and agents write as that bot, so the founder's review is
	// the human pass and the Solo-mode bypass is refused. Off, the demo is
	// solo: agents write under the founder's token, every write tagged
	// human-fallback, so the founder authors every agent pull request,
	// GitHub refuses their review, and the recorded bypass is the only pass.
	// With it the App agent-bot is installed on the demo as BotApp
	// installs it, so aayudha-approve.yml mints its token for a reply.
	BotIdentity bool
	// Now is the clock; nil means time.Now. Seeded dates are relative to
	// Now at seeding time, so a fixed clock gives stable data and SHAs.
	Now func() time.Time
	// RateLimit is the primary limit per account per hour (default 5000).
	RateLimit int
	// Device tunes the OAuth device flow; nil means GitHub's values.
	Device *DeviceOptions
	// Wrap, when set, wraps the handler (tests install the conformance
	// validator here).
	Wrap func(http.Handler) http.Handler
	// Runner, when set (with a StateDir), runs the merge gate on every new
	// pull-request head after Start (see runner.go).
	Runner *RunnerOptions
	// BotApp registers the GitHub App agent-bot, installed on the demo
	// repository, with its client ID in the variable AAYUDHA_APP_CLIENT_ID
	// and its key in the secret AAYUDHA_APP_PRIVATE_KEY: what aayu init
	// --identity sets up, so the token broker can run (apps.go).
	BotApp bool
	// InstallationTokenLife is how long an installation token lives; zero
	// is GitHub's hour (tests make an over-long one).
	InstallationTokenLife time.Duration
	// TamperApp, when set, changes each App the manifest flow creates
	// before its code is handed out, as a page that posted another
	// manifest would (tests of aayu init --identity's checks).
	TamperApp func(*CreatedApp)
	// ShareSeed starts the demo, when New seeds it, from a copy of the
	// first demo this process seeded with the same BotIdentity, BotApp and
	// Scale: its dates are relative to that first seeding's clock, as a
	// state folder saved then and loaded now; a seeding more than five
	// minutes old is made again. It applies with Now nil (a
	// Now of the caller's own seeds at its time); without it a copy is
	// made only of a seeding at the same second (a fixed clock). Tests set
	// it: seeding is most of what New costs.
	ShareSeed bool
	// AayuRelease is the release of aayu served as aayudha/aayu's newest
	// (aayurelease.go); nil serves the program the sandbox runs in.
	AayuRelease *AayuRelease
}

// DeviceOptions tune the device flow so tests need not wait.
type DeviceOptions struct {
	Interval          time.Duration // polling interval; GitHub uses 5 s
	Expiry            time.Duration // code lifetime; GitHub uses 15 min
	DisabledClientIDs []string      // client ids whose app has the device flow off
	// ClientIDs are more OAuth Apps the sandbox knows (tests); their
	// tokens hold the scopes the code asked for. It always knows the
	// presence Apps DeviceClientID and OwnClientID (no permissions), the
	// Apps it holds, and DisabledClientIDs; a device code asked for any
	// other client id is refused as GitHub refuses an unknown app.
	ClientIDs []string
}

// Server is one sandbox GitHub. All state sits behind mu; requests are
// served one at a time, which is plenty for a demo and keeps writes simple.
type Server struct {
	opts    Options
	handler http.Handler

	mu      sync.Mutex
	st      *state
	git     *gitStore
	fresh   *repoSlot // acme/fresh; see enter
	cur     string    // "" for the demo, FreshRepoName while serving acme/fresh
	rates   map[string]*rateBucket
	devices map[string]*deviceCode // by device_code
	faults  *faultInjector
	reqSeq  uint64

	httpSrv  *http.Server
	listener net.Listener

	stopRunner func()
	stamp      string          // the reset stamp the state was loaded under (resetstamp.go)
	jobs       jobTokens       // the runner's per-job workflow tokens
	apps       appRegistry     // GitHub Apps, installation tokens, Actions secrets (apps.go)
	users      userTokens      // the device flow's tokens (devicepower.go)
	runnerCtx  context.Context // the runner's, for dispatched runs (dispatch.go)
	runnerURL  string

	sig *vsigstore.Sigstore // the virtual Sigstore the runner's actions/attest signs with
	// demoAttested: this process's Sigstore signed the demo's seeded
	// packs (ensureDemoAttested); a reset seeds runs it has not signed.
	demoAttested bool
	aayu         *aayuRel // aayudha/aayu's release, built at its first read
}

// New builds a server, loading persisted state from opts.StateDir when it
// is there and seeding the demo repository otherwise.
func New(opts Options) (*Server, error) {
	if opts.Now == nil {
		opts.Now = time.Now
	} else {
		// A clock of the test's own dates the demo by it: a seeding made
		// under another clock would not be what it asked for.
		opts.ShareSeed = false
	}
	if opts.RateLimit <= 0 {
		opts.RateLimit = 5000
	}
	dev := DeviceOptions{Interval: 5 * time.Second, Expiry: 15 * time.Minute}
	if opts.Device != nil {
		dev = *opts.Device
	}
	opts.Device = &dev
	s := &Server{
		opts:    opts,
		rates:   map[string]*rateBucket{},
		devices: map[string]*deviceCode{},
		faults:  newFaultInjector(opts.Faults, opts.FaultPlan),
	}
	if err := s.load(); err != nil {
		return nil, err
	}
	sig, err := vsigstore.New(opts.Now)
	if err != nil {
		return nil, err
	}
	s.sig = sig
	if err := s.writeTrustedRoot(); err != nil {
		return nil, fmt.Errorf("writing the sandbox's Sigstore trusted root: %w", err)
	}
	if err := s.loadFresh(); err != nil {
		return nil, err
	}
	s.stamp = readStamp(opts.StateDir)
	if opts.BotApp || opts.BotIdentity {
		// A demo whose [identity] names the App has the App installed, as
		// on GitHub: its client ID and key where aayudha-approve.yml mints
		// its installation token, so a reply on the demo can be applied.
		if err := s.seedBotApp(); err != nil {
			return nil, err
		}
	}
	s.handler = s.routes()
	if opts.Wrap != nil {
		s.handler = opts.Wrap(s.handler)
	}
	s.handler = dropLayer(enterpriseLayout(s.handler))
	return s, nil
}

// Handler serves the REST API, the device-flow pages and the signed
// artifact downloads.
func (s *Server) Handler() http.Handler { return s.handler }

// Start listens on addr ("127.0.0.1:0" picks a free port) and serves in the
// background. It returns the base URL without a trailing slash.
func (s *Server) Start(addr string) (string, error) {
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", fmt.Errorf("the sandbox could not listen on %s: %w", addr, err)
	}
	s.listener = ln
	s.httpSrv = &http.Server{Handler: s.handler, ReadHeaderTimeout: 10 * time.Second}
	s.startRunner("http://" + ln.Addr().String())
	go func() {
		if err := s.httpSrv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.logf("sandbox server stopped: %v", err)
		}
	}()
	return "http://" + ln.Addr().String(), nil
}

// Close stops the listener started by Start and saves the state.
func (s *Server) Close() error {
	var err error
	if s.stopRunner != nil {
		s.stopRunner()
	}
	if s.httpSrv != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if serr := s.httpSrv.Shutdown(ctx); errors.Is(serr, context.DeadlineExceeded) {
			// A client still holding a request (a killed aayu, a dropped
			// fault) must not keep the sandbox from closing or saving: its
			// connections are cut, and the state below is saved all the same.
			_ = s.httpSrv.Close()
		} else {
			err = serr
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if serr := s.save(); serr != nil && err == nil {
		err = serr
	}
	if serr := s.saveFresh(); serr != nil && err == nil {
		err = serr
	}
	return err
}

// Reset throws away every change and seeds the demo again, as a
// repository deleted and created again on GitHub: the same names and
// numbers, but new ids (the repository's, and every issue's, comment's and
// run's, above any the old one used), so a client that kept the old one's
// can tell it is another repository.
func (s *Server) Reset() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	demo, fresh := recreated(s.st, RepoID), (*state)(nil)
	if s.fresh != nil {
		fresh = recreated(s.fresh.st, freshRepoID)
	}
	if s.opts.StateDir != "" {
		for _, name := range []string{resetStamp, stateFile, gitDirName, freshState, freshGitDir} {
			if err := os.RemoveAll(filepath.Join(s.opts.StateDir, name)); err != nil {
				return fmt.Errorf("resetting the sandbox: %w", err)
			}
		}
	}
	s.stamp = "" // removed above: this reset's own saves are not another's
	s.demoAttested = false
	s.rates = map[string]*rateBucket{}
	s.devices = map[string]*deviceCode{}
	if err := s.seedFresh(demo); err != nil {
		return err
	}
	if err := s.seedFreshRepo(fresh); err != nil {
		return err
	}
	return s.writeStamp()
}

// recreated is the empty state a reset seeds one repository into: its next
// id past every id old used (rounded up to a thousand) and a repository id
// past old's (def when old never had one of its own). nil when there
// was no old state: the first ids then.
func recreated(old *state, def int64) *state {
	if old == nil {
		return nil
	}
	repo := old.RepoID
	if repo == 0 {
		repo = def
	}
	return &state{NextID: (old.NextID/1000 + 1) * 1000, RepoID: repo + 100}
}

func (s *Server) now() time.Time { return s.opts.Now().UTC() }

func (s *Server) logf(format string, args ...any) {
	if s.opts.Logf != nil {
		s.opts.Logf(format, args...)
	}
}
