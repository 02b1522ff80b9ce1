package sandbox

import (
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"time"

	"golang.org/x/crypto/nacl/box"
)

// GitHub's App-manifest flow and Actions secrets, as aayu init --identity
// uses them: a page posts a manifest to …/settings/apps/new, GitHub (the
// signed-in founder here) creates the App and redirects to the manifest's
// redirect_url with a one-time code, and POST /app-manifests/{code}/
// conversions trades the code, once, for the App's key. Secrets arrive
// sealed to the repository's public key and are opened here to check them.

// CreatedApp is an App the manifest flow made; Options.TamperApp may change
// it before the code is handed out, as a page that posted another manifest
// would.
type CreatedApp struct {
	Owner       string
	Permissions map[string]string
	Events      []string
	HookURL     string
}

// manifestCode is a pending conversion.
type manifestCode struct {
	app     *appRec
	expires time.Time
	used    bool
}

func (s *Server) routeManifest(api, web *http.ServeMux) {
	web.HandleFunc("POST /settings/apps/new", s.manifestPage)
	web.HandleFunc("POST /organizations/{org}/settings/apps/new", s.manifestPage)
	api.HandleFunc("POST /app-manifests/{code}/conversions", s.convertManifest)
	api.HandleFunc("GET /app/hook/config", s.getHookConfig)
	api.HandleFunc("GET /repos/{owner}/{repo}/actions/secrets/public-key", s.secretsPublicKey)
	api.HandleFunc("PUT /repos/{owner}/{repo}/actions/secrets/{name}", s.putSecret)
}

// manifestPage is GitHub's "Create GitHub App" page after the person
// presses Create: the App exists, and the browser goes to redirect_url with
// the code and the state it was given.
func (s *Server) manifestPage(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		http.Error(w, "bad form", http.StatusBadRequest)
		return
	}
	var m struct {
		Name           string            `json:"name"`
		RedirectURL    string            `json:"redirect_url"`
		HookAttributes map[string]any    `json:"hook_attributes"`
		Permissions    map[string]string `json:"default_permissions"`
		Events         []string          `json:"default_events"`
		Public         bool              `json:"public"`
	}
	if err := json.Unmarshal([]byte(r.PostForm.Get("manifest")), &m); err != nil || m.Name == "" || m.RedirectURL == "" {
		http.Error(w, "Invalid GitHub App configuration", http.StatusUnprocessableEntity)
		return
	}
	owner := r.PathValue("org")
	if owner == "" {
		owner = "founder" // the signed-in person's own account
	}
	created := CreatedApp{Owner: owner, Permissions: m.Permissions, Events: m.Events}
	if u, ok := m.HookAttributes["url"].(string); ok && m.HookAttributes["active"] != false {
		created.HookURL = u
	}
	if s.opts.TamperApp != nil {
		s.opts.TamperApp(&created)
	}
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		http.Error(w, "key", http.StatusInternalServerError)
		return
	}
	slug := appSlug(m.Name)
	s.apps.mu.Lock()
	app := &appRec{ID: int64(9100 + len(s.apps.apps)), Slug: slug, Name: m.Name, ClientID: "Iv23liSandbox" + hex.EncodeToString(key.N.Bytes()[:4]),
		Owner: created.Owner, key: func() (*rsa.PrivateKey, error) { return key, nil }, Permissions: created.Permissions, Events: created.Events, HookURL: created.HookURL, Public: m.Public}
	s.apps.apps = append(s.apps.apps, app)
	b := make([]byte, 10)
	_, _ = rand.Read(b)
	code := hex.EncodeToString(b)
	if s.apps.codes == nil {
		s.apps.codes = map[string]*manifestCode{}
	}
	s.apps.codes[code] = &manifestCode{app: app, expires: s.now().Add(time.Hour)}
	s.apps.mu.Unlock()
	to, err := url.Parse(m.RedirectURL)
	if err != nil {
		http.Error(w, "bad redirect_url", http.StatusUnprocessableEntity)
		return
	}
	q := to.Query()
	q.Set("code", code)
	if st := r.URL.Query().Get("state"); st != "" {
		q.Set("state", st)
	}
	to.RawQuery = q.Encode()
	http.Redirect(w, r, to.String(), http.StatusFound)
}

// appSlug is an App's slug as GitHub makes it from the name: lower case,
// each run of other characters one dash, none at either end.
func appSlug(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
			continue
		}
		dash = true
	}
	return b.String()
}

// convertManifest trades a code for the App's configuration and key, once.
func (s *Server) convertManifest(w http.ResponseWriter, r *http.Request) {
	s.apps.mu.Lock()
	mc := s.apps.codes[r.PathValue("code")]
	ok := mc != nil && !mc.used && s.now().Before(mc.expires)
	if ok {
		mc.used = true
	}
	s.apps.mu.Unlock()
	if !ok {
		notFound(w)
		return
	}
	app := mc.app
	out := s.appJSON(app)
	out["owner"] = map[string]any{"login": app.Owner, "type": "Organization"}
	key, err := app.key()
	if err != nil {
		http.Error(w, "key", http.StatusInternalServerError)
		return
	}
	out["pem"] = AppKeyPEM(key)
	out["webhook_secret"] = nil
	out["client_secret"] = "sandbox-client-secret-" + app.Slug
	out["html_url"] = baseURL(r) + "/apps/" + app.Slug
	writeJSON(w, http.StatusCreated, out)
}

// getHookConfig is the App's webhook configuration (JWT).
func (s *Server) getHookConfig(w http.ResponseWriter, r *http.Request) {
	app := s.requireJWT(w, r)
	if app == nil {
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"url": app.HookURL, "content_type": "json", "insecure_ssl": "0"})
}

// secretsKey is the repository's sealed-box key pair, made on first use.
func (s *Server) secretsKey() (pub, priv *[32]byte) {
	s.apps.mu.Lock()
	defer s.apps.mu.Unlock()
	if s.apps.boxPub == nil {
		s.apps.boxPub, s.apps.boxPriv, _ = box.GenerateKey(rand.Reader)
	}
	return s.apps.boxPub, s.apps.boxPriv
}

const secretsKeyID = "568250167242549743"

func (s *Server) secretsPublicKey(w http.ResponseWriter, r *http.Request) {
	if !repoOK(w, r) || !s.canSetVariables(w, r) {
		return
	}
	pub, _ := s.secretsKey()
	writeJSON(w, http.StatusOK, map[string]any{"key_id": secretsKeyID, "key": base64.StdEncoding.EncodeToString(pub[:])})
}

// putSecret opens the sealed value with the repository's key, as GitHub
// does, and refuses one that does not open (422).
func (s *Server) putSecret(w http.ResponseWriter, r *http.Request) {
	if !repoOK(w, r) || !s.canSetVariables(w, r) {
		return
	}
	var in struct {
		EncryptedValue string `json:"encrypted_value"`
		KeyID          string `json:"key_id"`
	}
	if !decodeBody(w, r, &in) {
		return
	}
	name := strings.ToUpper(r.PathValue("name"))
	sealed, err := base64.StdEncoding.DecodeString(in.EncryptedValue)
	pub, priv := s.secretsKey()
	var plain []byte
	opened := false
	if err == nil && in.KeyID == secretsKeyID {
		plain, opened = box.OpenAnonymous(nil, sealed, pub, priv)
	}
	if !variableName().MatchString(name) || strings.HasPrefix(name, "GITHUB_") || !opened {
		writeValidation(w, fieldError{Resource: "Secret", Field: "encrypted_value", Code: "invalid"})
		return
	}
	s.apps.mu.Lock()
	if s.apps.secrets == nil {
		s.apps.secrets = map[string]string{}
	}
	_, existed := s.apps.secrets[name]
	s.apps.secrets[name] = string(plain)
	s.apps.mu.Unlock()
	if existed {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]any{})
}

// AppBySlug reports an App the sandbox knows and its client ID (tests).
func (s *Server) AppBySlug(slug string) (clientID string, ok bool) {
	s.apps.mu.Lock()
	defer s.apps.mu.Unlock()
	for _, a := range s.apps.apps {
		if a.Slug == slug {
			return a.ClientID, true
		}
	}
	return "", false
}
