// Package mediatest starts, for tests, a real server of each protocol a
// media bucket speaks: gofakes3 (S3 and R2), fake-gcs-server (Cloud
// Storage's JSON API) and Azurite (Azure Blob, Microsoft's own emulator,
// from npm). gofakes3 and fake-gcs-server check no credential, so each is
// put behind the check its service makes (S3's Signature Version 4,
// recomputed here independently of mediastore's signer; Google's OAuth 2.0
// JWT bearer grant); Azurite checks SharedKey signatures itself. Only
// tests import it.
package mediatest

import (
	"crypto"
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"github.com/aayudha/aayu/internal/syncbuf"
	"github.com/aayudha/aayu/proof"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fsouza/fake-gcs-server/fakestorage"
	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
)

// sigV4Check is S3's check of a request's Signature Version 4: the
// signature recomputed from the headers the request says it signed, under
// the one secret the server knows for the key ID, and the payload's hash
// recomputed from the body. A mismatch is S3's 403 SignatureDoesNotMatch
// (an unknown key ID InvalidAccessKeyId), and the request goes no further.
type sigV4Check struct {
	next       http.Handler
	id, secret string
	region     string
}

func (s *sigV4Check) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	deny := func(code string) {
		w.Header().Set("Content-Type", "application/xml")
		w.WriteHeader(http.StatusForbidden)
		_, _ = fmt.Fprintf(w, "<Error><Code>%s</Code><Message>The request signature we calculated does not match the signature you provided.</Message></Error>", code)
	}
	auth := strings.TrimPrefix(r.Header.Get("Authorization"), "AWS4-HMAC-SHA256 ")
	fields := map[string]string{}
	for _, f := range strings.Split(auth, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(f), "=")
		fields[k] = v
	}
	cred := strings.SplitN(fields["Credential"], "/", 2)
	if len(cred) != 2 || cred[0] != s.id {
		deny("InvalidAccessKeyId")
		return
	}
	body, _ := io.ReadAll(r.Body)
	sum := sha256.Sum256(body)
	stamp := r.Header.Get("X-Amz-Date")
	t, err := time.Parse("20060102T150405Z", stamp)
	scope := t.Format("20060102") + "/" + s.region + "/s3/aws4_request"
	if err != nil || cred[1] != scope || r.Header.Get("X-Amz-Content-Sha256") != hex.EncodeToString(sum[:]) {
		deny("SignatureDoesNotMatch")
		return
	}
	var b strings.Builder
	b.WriteString(r.Method + "\n" + r.URL.EscapedPath() + "\n" + canonicalQuery(r.URL.Query()) + "\n")
	for _, name := range strings.Split(fields["SignedHeaders"], ";") {
		v := r.Host
		if name != "host" {
			v = strings.Join(strings.Fields(strings.Join(r.Header.Values(name), ",")), " ")
		}
		b.WriteString(name + ":" + v + "\n")
	}
	b.WriteString("\n" + fields["SignedHeaders"] + "\n" + r.Header.Get("X-Amz-Content-Sha256"))
	if sigV4(s.secret, t, s.region, stamp, scope, b.String()) != fields["Signature"] {
		deny("SignatureDoesNotMatch")
		return
	}
	r.Body = io.NopCloser(strings.NewReader(string(body)))
	s.next.ServeHTTP(w, r)
}

// canonicalQuery is SigV4's sorted, escaped query.
func canonicalQuery(q url.Values) string {
	esc := func(s string) string { return strings.ReplaceAll(url.QueryEscape(s), "+", "%20") }
	var pairs []string
	for k, vs := range q {
		for _, v := range vs {
			pairs = append(pairs, esc(k)+"="+esc(v))
		}
	}
	sort.Strings(pairs)
	return strings.Join(pairs, "&")
}

// sigV4 is the signature S3 expects of a canonical request.
func sigV4(secret string, t time.Time, region, stamp, scope, canonical string) string {
	mac := func(key []byte, data string) []byte {
		m := hmac.New(sha256.New, key)
		m.Write([]byte(data))
		return m.Sum(nil)
	}
	h := sha256.Sum256([]byte(canonical))
	key := mac([]byte("AWS4"+secret), t.Format("20060102"))
	for _, part := range []string{region, "s3", "aws4_request"} {
		key = mac(key, part)
	}
	return hex.EncodeToString(mac(key, "AWS4-HMAC-SHA256\n"+stamp+"\n"+scope+"\n"+hex.EncodeToString(h[:])))
}

// S3 is gofakes3 over memory (buckets made on first use) behind S3's
// signature check for one key.
type S3 struct {
	URL     string
	Backend *s3mem.Backend
}

// StartS3 serves it on a loopback port until the test ends. region is the
// one the signature must be scoped to ("auto" for R2).
func StartS3(t testing.TB, id, secret, region string) *S3 {
	t.Helper()
	b := s3mem.New()
	ts := httptest.NewServer(&sigV4Check{next: gofakes3.New(b, gofakes3.WithAutoBucket(true)).Server(), id: id, secret: secret, region: region})
	t.Cleanup(ts.Close)
	return &S3{URL: ts.URL, Backend: b}
}

// gcsServer is fake-gcs-server behind Google's OAuth 2.0: a token
// endpoint that grants a token only for a JWT signed RS256 by the service
// account's key (Google's answer to any other: 400 invalid_grant, "Invalid
// JWT Signature."), and the storage API that answers 401 without that
// token. patches keeps each bucket PATCH's body.
type GCS struct {
	URL   string
	Key   *rsa.PrivateKey // the service account's
	email string
	Token string // the one token it grants
	mu    sync.Mutex
	// patches keeps each bucket PATCH's body.
	patches []string
}

// Patches are the bodies of the bucket PATCHes the server took.
func (g *GCS) Patches() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]string(nil), g.patches...)
}

// StartGCS serves it, with bucket made, on a loopback port until the test
// ends.
func StartGCS(t testing.TB, bucket string) *GCS {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	fake, err := fakestorage.NewServerWithOptions(fakestorage.Options{NoListener: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(fake.Stop)
	fake.CreateBucketWithOpts(fakestorage.CreateBucketOpts{Name: bucket})
	g := &GCS{Key: key, email: "aayu-media@acme-proof.iam.gserviceaccount.com", Token: "ya29.granted-" + rand.Text()}
	api := fake.HTTPHandler()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/token" {
			g.grant(w, r)
			return
		}
		if r.Header.Get("Authorization") != "Bearer "+g.Token {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = io.WriteString(w, `{"error":{"code":401,"message":"Invalid Credentials","status":"UNAUTHENTICATED"}}`)
			return
		}
		if r.Method == http.MethodPatch {
			body, _ := io.ReadAll(r.Body)
			g.mu.Lock()
			g.patches = append(g.patches, string(body))
			g.mu.Unlock()
			r.Body = io.NopCloser(strings.NewReader(string(body)))
		}
		api.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	g.URL = ts.URL
	return g
}

// grant is the JWT bearer grant: the assertion's RS256 signature checked
// against the service account's public key, its audience, issuer, scope
// and lifetime.
func (g *GCS) grant(w http.ResponseWriter, r *http.Request) {
	refuse := func(why string) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_ = json.NewEncoder(w).Encode(map[string]string{"error": "invalid_grant", "error_description": why})
	}
	if r.FormValue("grant_type") != "urn:ietf:params:oauth:grant-type:jwt-bearer" {
		refuse("Invalid grant_type")
		return
	}
	parts := strings.Split(r.FormValue("assertion"), ".")
	if len(parts) != 3 {
		refuse("Invalid JWT")
		return
	}
	sig, _ := base64.RawURLEncoding.DecodeString(parts[2])
	sum := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	if rsa.VerifyPKCS1v15(&g.Key.PublicKey, crypto.SHA256, sum[:], sig) != nil {
		refuse("Invalid JWT Signature.")
		return
	}
	var claims struct {
		Iss, Scope, Aud string
		Iat, Exp        int64
	}
	raw, _ := base64.RawURLEncoding.DecodeString(parts[1])
	if json.Unmarshal(raw, &claims) != nil || claims.Iss != g.email || claims.Aud != g.URL+"/token" || claims.Scope != "https://www.googleapis.com/auth/devstorage.full_control" ||
		claims.Exp <= time.Now().Unix() || claims.Exp-claims.Iat > 3600 {
		refuse("Invalid JWT: claims")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"access_token": g.Token, "expires_in": 3599, "token_type": "Bearer"})
}

// KeyJSON is a service account's JSON key for key (g.Key: the right one),
// in the shape the console downloads.
func (g *GCS) KeyJSON(t testing.TB, key *rsa.PrivateKey) []byte {
	t.Helper()
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(map[string]string{"type": "service_account", "project_id": "acme-proof", "private_key_id": "0123abcd",
		"private_key": string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})), "client_email": g.email,
		"token_uri": g.URL + "/token"})
	return b
}

// The Azurite development account: its name and key are Microsoft's
// published ones, the same in every Azurite.
const (
	AzuriteAccount = "devstoreaccount1"
	AzuriteKey     = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
)

// azuriteBin finds azurite-blob: AAYU_AZURITE_BLOB, or where .ci/run
// installs azurite with npm (the user cache's aayu-ci/azurite-VERSION),
// or the PATH.
func azuriteBin() string {
	if p := os.Getenv("AAYU_AZURITE_BLOB"); p != "" {
		return p
	}
	if cache, err := os.UserCacheDir(); err == nil {
		p := filepath.Join(cache, "aayu-ci", "azurite-3.37.0", "node_modules", ".bin", "azurite-blob")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if p, err := exec.LookPath("azurite-blob"); err == nil {
		return p
	}
	return ""
}

// StartAzurite runs azurite-blob on a free loopback port, its blobs in
// memory, and returns the account's endpoint. Without azurite (or node)
// the test fails under CI=true or when AAYU_AZURITE_BLOB (which .ci/run
// sets) names it, and is skipped out loud elsewhere.
func StartAzurite(t testing.TB) string {
	t.Helper()
	bin := azuriteBin()
	_, nodeErr := exec.LookPath("node")
	if _, err := os.Stat(bin); bin == "" || err != nil || nodeErr != nil {
		msg := "azurite-blob or node is missing: .ci/run installs azurite 3.37.0 with npm into the user cache (or set AAYU_AZURITE_BLOB); the azblob:// store is NOT tested"
		if os.Getenv("CI") == "true" || os.Getenv("AAYU_AZURITE_BLOB") != "" {
			t.Fatal(msg)
		}
		t.Skip("SKIPPED: " + msg)
	}
	// The port is free when asked and taken when azurite binds it, so
	// another test's server can take it in between: azurite then exits on
	// EADDRINUSE, or the port answers as another server. Either is tried
	// again on another port.
	var why []string
	for range 5 {
		endpoint, err := startAzuriteOnce(t, bin)
		if err == nil {
			return endpoint
		}
		why = append(why, err.Error())
	}
	t.Fatalf("azurite-blob did not start: %s", strings.Join(why, "; "))
	return ""
}

// startAzuriteOnce runs azurite-blob on a port free when asked and returns
// its endpoint once the port answers as Azurite (its Server header), or
// an error with azurite stopped.
func startAzuriteOnce(t testing.TB, bin string) (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := fmt.Sprint(ln.Addr().(*net.TCPAddr).Port)
	_ = ln.Close()
	var out syncbuf.Buffer
	cmd := exec.Command(bin, "--blobHost", "127.0.0.1", "--blobPort", port,
		"--inMemoryPersistence", "--skipApiVersionCheck", "--silent")
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	stop := func() { _ = cmd.Process.Kill(); <-done }
	endpoint := "http://127.0.0.1:" + port + "/" + AzuriteAccount
	client := &http.Client{Timeout: 5 * time.Second}
	deadline := time.Now().Add(60 * time.Second)
	for {
		if resp, err := client.Get(endpoint + "?comp=list"); err == nil {
			resp.Body.Close()
			if !strings.HasPrefix(resp.Header.Get("Server"), "Azurite-Blob/") {
				stop()
				return "", fmt.Errorf("port %s answers as another server (Server: %q)", port, resp.Header.Get("Server"))
			}
			t.Cleanup(stop)
			return endpoint, nil
		}
		select {
		case <-done:
			return "", fmt.Errorf("azurite-blob stopped before serving on %s: %s", port, out.String())
		default:
		}
		if time.Now().After(deadline) {
			stop()
			t.Fatalf("azurite-blob did not listen on %s within a minute: %s", port, out.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// AzuriteContainer makes a container in the Azurite at endpoint (Create
// Container, signed with the development account's key by a SharedKey
// signer of its own), as a person makes theirs in the portal.
func AzuriteContainer(t testing.TB, endpoint, name string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPut, endpoint+"/"+name+"?restype=container", nil)
	if err != nil {
		t.Fatal(err)
	}
	date := time.Now().UTC().Format(http.TimeFormat)
	req.Header.Set("X-Ms-Date", date)
	req.Header.Set("X-Ms-Version", "2021-12-02")
	toSign := "PUT\n\n\n\n\n\n\n\n\n\n\n\nx-ms-date:" + date + "\nx-ms-version:2021-12-02\n/" + AzuriteAccount + req.URL.EscapedPath() + "\nrestype:container"
	key, _ := base64.StdEncoding.DecodeString(AzuriteKey)
	m := hmac.New(sha256.New, key)
	m.Write([]byte(toSign))
	req.Header.Set("Authorization", "SharedKey "+AzuriteAccount+":"+base64.StdEncoding.EncodeToString(m.Sum(nil)))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("creating the container %s: %d %s", name, resp.StatusCode, body)
	}
}

// Kind is one kind of [proof] media bucket on its test server: its URL,
// the variables of a credential it takes and of one it refuses (as
// mediastore.CredentialFromEnv reads them), and the secrets no refusal or
// note may print.
type Kind struct {
	URL       string
	Good, Bad map[string]string
	Secrets   []string
}

// Kinds starts, for each of s3, r2, gs and azblob, its server with a
// bucket proof-media when called (under the test that calls it).
func Kinds() map[string]func(t *testing.T) Kind {
	return map[string]func(t *testing.T) Kind{
		"s3": func(t *testing.T) Kind {
			srv := StartS3(t, "AKIAPROOFMEDIA", "s3-secret-never-printed", "us-east-1")
			env := func(secret string) map[string]string {
				return map[string]string{"AWS_ACCESS_KEY_ID": "AKIAPROOFMEDIA", "AWS_SECRET_ACCESS_KEY": secret, "AWS_ENDPOINT_URL_S3": srv.URL}
			}
			return Kind{"s3://proof-media/acme", env("s3-secret-never-printed"), env("s3-wrong-never-printed"), []string{"s3-secret-never-printed", "s3-wrong-never-printed"}}
		},
		"r2": func(t *testing.T) Kind {
			srv := StartS3(t, "r2-key-id", "r2-secret-never-printed", "auto")
			env := func(secret string) map[string]string {
				return map[string]string{"AWS_ACCESS_KEY_ID": "r2-key-id", "AWS_SECRET_ACCESS_KEY": secret, "AWS_ENDPOINT_URL_S3": srv.URL}
			}
			return Kind{"r2://proof-media/acme", env("r2-secret-never-printed"), env("r2-wrong-never-printed"), []string{"r2-secret-never-printed", "r2-wrong-never-printed"}}
		},
		"gs": func(t *testing.T) Kind {
			srv := StartGCS(t, "proof-media")
			other, err := rsa.GenerateKey(rand.Reader, 2048)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			goodFile, badFile := filepath.Join(dir, "good.json"), filepath.Join(dir, "bad.json")
			badKey := srv.KeyJSON(t, other)
			if os.WriteFile(goodFile, srv.KeyJSON(t, srv.Key), 0o600) != nil || os.WriteFile(badFile, badKey, 0o600) != nil {
				t.Fatal("writing the key files")
			}
			env := func(file string) map[string]string {
				return map[string]string{"GOOGLE_APPLICATION_CREDENTIALS": file, "STORAGE_EMULATOR_HOST": srv.URL}
			}
			return Kind{"gs://proof-media/acme", env(goodFile), env(badFile), []string{string(badKey), srv.Token, "PRIVATE KEY"}}
		},
		"azblob": func(t *testing.T) Kind {
			endpoint := StartAzurite(t)
			AzuriteContainer(t, endpoint, "proof-media")
			const wrong = "d3Jvbmcga2V5IG5ldmVyIHByaW50ZWQ="
			env := func(key string) map[string]string {
				return map[string]string{"AZURE_STORAGE_CONNECTION_STRING": "DefaultEndpointsProtocol=http;AccountName=" + AzuriteAccount +
					";AccountKey=" + key + ";BlobEndpoint=" + endpoint + ";"}
			}
			return Kind{"azblob://proof-media/acme", env(AzuriteKey), env(wrong), []string{AzuriteKey, wrong}}
		},
	}
}

// NamesInBucket reports whether pack.json (packJSON) records the artifact
// path as stored in the bucket under key: what ship and proof push must
// land on the ledger once they copied it.
func NamesInBucket(packJSON []byte, path, key string) (bool, error) {
	landed, err := proof.Decode(packJSON)
	if err != nil {
		return false, err
	}
	for _, a := range landed.Artifacts {
		if a.Path == path {
			return a.Store == proof.StoreBucket && a.Object == key, nil
		}
	}
	return false, nil
}
