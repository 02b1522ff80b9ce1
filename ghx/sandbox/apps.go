package sandbox

import (
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/aayudha/aayu/ghx/appjwt"
)

// GitHub Apps in the sandbox (seed 001, "The token broker"): an App has a
// private key, a JWT signed with it authenticates as the App (RS256, at
// most ten minutes), and the App mints installation tokens for the
// repository it is installed on. Apps, their tokens and the repository's
// secrets live as long as the process: they are credentials, and the state
// folder holds none.

// The App Options.BotApp seeds: agent-bot, whose installation tokens act
// as agent-bot[bot] (BotLogin).
const (
	BotAppSlug           = "agent-bot"
	BotAppID             = 9001
	BotAppClientID       = "Iv23liSandboxAgentBot"
	botAppInstallationID = 9101
	// AppClientIDVariable and AppKeySecret are where the broker reads the
	// App (aayu init --identity sets them).
	AppClientIDVariable = "AAYUDHA_APP_CLIENT_ID"
	AppKeySecret        = "AAYUDHA_APP_PRIVATE_KEY"
	// TokenExpirationHeader says when the installation token a request was
	// made with expires, as GitHub does.
	TokenExpirationHeader = "GitHub-Authentication-Token-Expiration"
	// installTokenLife is an installation token's life on GitHub.
	installTokenLife = time.Hour
	// maxJWTLife is the longest span GitHub accepts between iat and exp.
	maxJWTLife = 10 * time.Minute
)

// appRec is one GitHub App.
type appRec struct {
	ID             int64
	Slug, Name     string
	ClientID       string
	Owner          string
	key            func() (*rsa.PrivateKey, error) // the App's private key (seedBotApp's is made on first use)
	Permissions    map[string]string
	Events         []string
	HookURL        string
	InstallationID int64 // 0 until installed on the repository
	Public         bool  // the manifest's public: anyone may read it and authorize it
}

// installToken is one installation token.
type installToken struct {
	app     *appRec
	perms   map[string]string // what the token was minted with (at most the App's)
	expires time.Time
	revoked bool
}

// appRegistry holds the Apps, their tokens and the Actions secrets; its
// lock is its own, since authentication runs before the server's.
type appRegistry struct {
	mu      sync.Mutex
	apps    []*appRec
	tokens  map[string]*installToken
	secrets map[string]string // name → value, as the runner hands it to a job
	// botKey is agent-bot's key (seedBotApp), its PEM the AppKeySecret
	// secret's value unless a put replaced it; nil without the App.
	botKey  func() (*rsa.PrivateKey, error)
	codes   map[string]*manifestCode
	boxPub  *[32]byte // the repository's Actions secrets key pair (manifest.go)
	boxPriv *[32]byte
}

// seedBotApp registers agent-bot, installed on the demo repository, with
// its client ID in the repository variable and its key in the secret the
// broker reads. Call with s.mu held.
//
// The key is made on first use (a job reading the secret, or a JWT to
// check): a 2048-bit RSA key costs about a tenth of a second of CPU, ten
// times that under -race, and most sandboxes with the App never mint a
// token.
func (s *Server) seedBotApp() error {
	key := sync.OnceValues(func() (*rsa.PrivateKey, error) {
		k, err := rsa.GenerateKey(rand.Reader, 2048)
		if err != nil {
			return nil, fmt.Errorf("making the sandbox App's key: %w", err)
		}
		return k, nil
	})
	app := &appRec{ID: BotAppID, Slug: BotAppSlug, Name: "aayudha agent", ClientID: BotAppClientID, Owner: RepoOwner, key: key,
		Permissions:    maps.Clone(botAppPermissions),
		InstallationID: botAppInstallationID}
	s.apps.mu.Lock()
	s.apps.apps = append(s.apps.apps, app)
	s.apps.botKey = key
	s.apps.mu.Unlock()
	if s.variable(AppClientIDVariable) == nil {
		now := s.now()
		s.st.Variables = append(s.st.Variables, &variableRec{Name: AppClientIDVariable, Value: BotAppClientID, CreatedAt: now, UpdatedAt: now})
	}
	return nil
}

// AppKeyPEM is a private key as GitHub hands an App's key out.
func AppKeyPEM(key *rsa.PrivateKey) string {
	return string(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)}))
}

// Secret returns an Actions secret's value as a job would see it (tests).
func (s *Server) Secret(name string) (string, bool) {
	s.apps.mu.Lock()
	defer s.apps.mu.Unlock()
	if v, ok := s.apps.secrets[name]; ok || name != AppKeySecret || s.apps.botKey == nil {
		return v, ok
	}
	key, err := s.apps.botKey()
	if err != nil {
		return "", false
	}
	return AppKeyPEM(key), true
}

// InstallationTokensMinted counts the installation tokens minted (tests).
func (s *Server) InstallationTokensMinted() int {
	s.apps.mu.Lock()
	defer s.apps.mu.Unlock()
	return len(s.apps.tokens)
}

// appCaller answers for a JWT or an installation token: known is false
// for any other token; ok is false for a bad signature, an expired JWT or
// token, or a revoked token.
func (s *Server) appCaller(tok string) (c caller, known, ok bool) {
	s.apps.mu.Lock()
	defer s.apps.mu.Unlock()
	if it := s.apps.tokens[tok]; it != nil {
		if it.revoked || !s.now().Before(it.expires) {
			return caller{}, true, false
		}
		a, found := accountByLogin(it.app.Slug + "[bot]")
		if !found {
			a = Account{Login: it.app.Slug + "[bot]", ID: 2000 + it.app.ID, Name: it.app.Name, Type: "Bot", Permission: "write"}
		}
		return caller{Account: a, install: it}, true, true
	}
	if strings.Count(tok, ".") != 2 || !strings.HasPrefix(tok, "eyJ") {
		return caller{}, false, false
	}
	app, err := s.verifyJWTLocked(tok)
	if err != nil {
		return caller{}, true, false
	}
	return caller{Account: Account{Login: app.Slug, Type: "Bot"}, app: app}, true, true
}

// verifyJWTLocked checks an App JWT as GitHub does: RS256, signed by the
// key of the App its iss names (client ID or App ID), iat not in the
// future beyond a minute, exp after now, at most ten minutes after iat.
func (s *Server) verifyJWTLocked(tok string) (*appRec, error) {
	parts := strings.Split(tok, ".")
	dec := base64.RawURLEncoding
	hb, err1 := dec.DecodeString(parts[0])
	pb, err2 := dec.DecodeString(parts[1])
	sig, err3 := dec.DecodeString(parts[2])
	if err := errors.Join(err1, err2, err3); err != nil {
		return nil, err
	}
	var head struct {
		Alg string `json:"alg"`
	}
	var claims struct {
		Iss any   `json:"iss"`
		Iat int64 `json:"iat"`
		Exp int64 `json:"exp"`
	}
	if json.Unmarshal(hb, &head) != nil || json.Unmarshal(pb, &claims) != nil || head.Alg != "RS256" {
		return nil, errors.New("not an RS256 JWT")
	}
	iss := fmt.Sprint(claims.Iss)
	if f, ok := claims.Iss.(float64); ok {
		iss = strconv.FormatInt(int64(f), 10)
	}
	var app *appRec
	for _, a := range s.apps.apps {
		if a.ClientID == iss || strconv.FormatInt(a.ID, 10) == iss {
			app = a
		}
	}
	now := s.now().Unix()
	switch {
	case app == nil:
		return nil, errors.New("no such App")
	case claims.Exp <= now, claims.Iat > now+60, claims.Exp-claims.Iat > int64(maxJWTLife/time.Second):
		return nil, errors.New("the JWT's times are not accepted")
	}
	sum := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	key, err := app.key()
	if err != nil {
		return nil, err
	}
	if err := rsa.VerifyPKCS1v15(&key.PublicKey, crypto.SHA256, sum[:], sig); err != nil {
		return nil, err
	}
	return app, nil
}

// SignAppJWT signs the JWT an App authenticates with (appjwt.Sign, the
// client's own signer). The runner's emulation of
// actions/create-github-app-token and tests use it.
func SignAppJWT(keyPEM, clientID string, now time.Time) (string, error) {
	return appjwt.Sign(keyPEM, clientID, now)
}

func (s *Server) routeApps(m *http.ServeMux) {
	m.HandleFunc("GET /app", s.getApp)
	m.HandleFunc("GET /repos/{owner}/{repo}/installation", s.getRepoInstallation)
	m.HandleFunc("POST /app/installations/{id}/access_tokens", s.createInstallationToken)
	m.HandleFunc("GET /installation/repositories", s.listInstallationRepos)
}

// appOnlyPath says whether a JWT may reach the path: GitHub answers any
// other endpoint with 401 for an App's JWT.
func appOnlyPath(r *http.Request) bool {
	p := r.URL.Path
	return p == "/app" || strings.HasPrefix(p, "/app/") || strings.HasSuffix(p, "/installation")
}

func (s *Server) appJSON(app *appRec) map[string]any {
	events := app.Events
	if events == nil {
		events = []string{}
	}
	perms := app.Permissions
	if perms == nil {
		perms = map[string]string{} // GitHub shows an App with no permissions as {}
	}
	return map[string]any{"id": app.ID, "slug": app.Slug, "name": app.Name, "client_id": app.ClientID,
		"owner": map[string]any{"login": app.Owner, "type": "Organization"}, "permissions": perms, "events": events}
}

func (s *Server) requireJWT(w http.ResponseWriter, r *http.Request) *appRec {
	c := callerOf(r)
	if c.app == nil {
		writeErrorDoc(w, http.StatusUnauthorized, "A JSON web token could not be decoded", "https://docs.github.com/rest")
		return nil
	}
	return c.app
}

func (s *Server) getApp(w http.ResponseWriter, r *http.Request) {
	if app := s.requireJWT(w, r); app != nil {
		writeJSON(w, http.StatusOK, s.appJSON(app))
	}
}

func (s *Server) getRepoInstallation(w http.ResponseWriter, r *http.Request) {
	app := s.requireJWT(w, r)
	if app == nil || !repoOK(w, r) {
		return
	}
	s.apps.mu.Lock()
	id := app.InstallationID
	s.apps.mu.Unlock()
	if id == 0 {
		notFound(w)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"id": id, "app_id": app.ID, "app_slug": app.Slug, "client_id": app.ClientID,
		"account": map[string]any{"login": RepoOwner}, "repository_selection": "selected", "permissions": app.Permissions, "events": []string{}})
}

// createInstallationToken mints a token for the installation, with at most
// the App's permissions (GitHub answers 422 for more).
func (s *Server) createInstallationToken(w http.ResponseWriter, r *http.Request) {
	app := s.requireJWT(w, r)
	if app == nil {
		return
	}
	id, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if id == 0 || id != app.InstallationID {
		notFound(w)
		return
	}
	var req struct {
		Repositories []string          `json:"repositories"`
		Permissions  map[string]string `json:"permissions"`
	}
	if r.ContentLength != 0 && !decodeBody(w, r, &req) {
		return
	}
	for _, name := range req.Repositories {
		if name != RepoName && name != FreshRepoName {
			writeErrorDoc(w, http.StatusUnprocessableEntity, "There is at least one repository that does not exist or is not accessible to the parent installation.", "https://docs.github.com/rest/apps/apps#create-an-installation-access-token-for-an-app")
			return
		}
	}
	perms := app.Permissions
	if len(req.Permissions) > 0 {
		for k, v := range req.Permissions {
			have := app.Permissions[k]
			if have == "" || (v == "write" && have != "write") {
				writeErrorDoc(w, http.StatusUnprocessableEntity, "The permissions requested are not granted to this installation.", "https://docs.github.com/rest/apps/apps#create-an-installation-access-token-for-an-app")
				return
			}
		}
		perms = req.Permissions
	}
	life := installTokenLife
	if s.opts.InstallationTokenLife > 0 {
		life = s.opts.InstallationTokenLife
	}
	expires := s.now().Add(life).UTC().Truncate(time.Second)
	s.apps.mu.Lock()
	if s.apps.tokens == nil {
		s.apps.tokens = map[string]*installToken{}
	}
	token := newServerToken()
	s.apps.tokens[token] = &installToken{app: app, perms: perms, expires: expires}
	s.apps.mu.Unlock()
	writeJSON(w, http.StatusCreated, map[string]any{"token": token, "expires_at": ts(expires), "permissions": perms, "repository_selection": "selected"})
}

func (s *Server) listInstallationRepos(w http.ResponseWriter, r *http.Request) {
	if callerOf(r).install == nil {
		writeError(w, http.StatusForbidden, "You must authenticate with an installation access token in order to list repositories for an installation.")
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"total_count": 1, "repository_selection": "selected",
		"repositories": []any{s.repoJSON(baseURL(r), caller{anonymous: true}, false)}})
}

// revokeInstallToken ends a token, as the action's post step does unless
// told to skip it.
func (s *Server) revokeInstallToken(tok string) {
	s.apps.mu.Lock()
	defer s.apps.mu.Unlock()
	if it := s.apps.tokens[tok]; it != nil {
		it.revoked = true
	}
}
