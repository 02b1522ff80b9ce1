package mediastore

import (
	"bytes"
	"context"
	"crypto"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// gcsScope is the OAuth 2.0 scope the token asks for: objects and the
// bucket's lifecycle (storage.buckets.update needs full control).
const gcsScope = "https://www.googleapis.com/auth/devstorage.full_control"

// gcsClient is the driver of gs:// buckets: Cloud Storage's JSON API
// (objects insert, get, delete; buckets get and patch for the lifecycle),
// with an OAuth 2.0 access token, either given or got for a service
// account's JSON key through the JWT bearer grant (RFC 7523), signed
// RS256 with crypto/rsa, as Google's "Using OAuth 2.0 for Server to Server
// Applications" describes. The endpoint is https://storage.googleapis.com
// unless the credential names another (STORAGE_EMULATOR_HOST, the tests'
// fake-gcs-server).
type gcsClient struct {
	http     *http.Client
	endpoint string // scheme://host, no slash at the end
	bucket   string
	key      *serviceAccount // nil with a given token
	rsaKey   *rsa.PrivateKey
	now      func() time.Time

	mu      sync.Mutex
	token   string
	expires time.Time
}

// serviceAccount is the part of a service account's JSON key the grant
// needs.
type serviceAccount struct {
	Type         string `json:"type"`
	ClientEmail  string `json:"client_email"`
	PrivateKey   string `json:"private_key"`
	PrivateKeyID string `json:"private_key_id"`
	TokenURI     string `json:"token_uri"`
}

func parseServiceAccount(b []byte) (*serviceAccount, error) {
	var k serviceAccount
	if err := json.Unmarshal(b, &k); err != nil {
		return nil, fmt.Errorf("%w: the gs:// credential is not a service account's JSON key", ErrUnusable)
	}
	if k.Type != "service_account" || k.ClientEmail == "" || k.PrivateKey == "" {
		return nil, fmt.Errorf("%w: the gs:// credential is not a service account's JSON key (its type must be service_account, with client_email and private_key)", ErrUnusable)
	}
	if k.TokenURI == "" {
		k.TokenURI = "https://oauth2.googleapis.com/token"
	}
	return &k, nil
}

func newGCS(bucket string, c Credential) (*gcsClient, error) {
	g := &gcsClient{http: httpClient, endpoint: "https://storage.googleapis.com", bucket: bucket, now: time.Now, token: c.AccessToken}
	if c.Endpoint != "" {
		e, err := checkEndpoint("gs://", c.Endpoint)
		if err != nil {
			return nil, err
		}
		g.endpoint = e.Scheme + "://" + e.Host
	}
	switch {
	case len(c.ServiceAccountJSON) > 0:
		k, err := parseServiceAccount(c.ServiceAccountJSON)
		if err != nil {
			return nil, err
		}
		if _, err := checkEndpoint("token", k.TokenURI); err != nil {
			return nil, fmt.Errorf("%w: the service account key's token_uri is not an http or https URL", ErrUnusable)
		}
		block, _ := pem.Decode([]byte(k.PrivateKey))
		if block == nil {
			return nil, fmt.Errorf("%w: the service account key's private_key is not PEM", ErrUnusable)
		}
		parsed, err := x509.ParsePKCS8PrivateKey(block.Bytes)
		if err != nil {
			parsed, err = x509.ParsePKCS1PrivateKey(block.Bytes)
		}
		rk, ok := parsed.(*rsa.PrivateKey)
		if err != nil || !ok {
			return nil, fmt.Errorf("%w: the service account key's private_key is not an RSA key", ErrUnusable)
		}
		g.key, g.rsaKey, g.token = k, rk, ""
	case c.AccessToken != "":
		g.expires = time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC) // the caller renews it
	default:
		return nil, fmt.Errorf("%w: gs:// needs a service account's JSON key or an OAuth 2.0 access token", ErrNoCredential)
	}
	return g, nil
}

// accessToken is the bearer token, got anew through the JWT bearer grant
// a minute before the last one expires.
func (g *gcsClient) accessToken(ctx context.Context) (string, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.token != "" && g.now().Add(time.Minute).Before(g.expires) {
		return g.token, nil
	}
	now := g.now()
	enc := base64.RawURLEncoding
	header, _ := json.Marshal(map[string]string{"alg": "RS256", "typ": "JWT", "kid": g.key.PrivateKeyID})
	claims, _ := json.Marshal(map[string]any{"iss": g.key.ClientEmail, "scope": gcsScope, "aud": g.key.TokenURI,
		"iat": now.Unix(), "exp": now.Add(time.Hour).Unix()})
	unsigned := enc.EncodeToString(header) + "." + enc.EncodeToString(claims)
	sum := sha256.Sum256([]byte(unsigned))
	sig, err := rsa.SignPKCS1v15(nil, g.rsaKey, crypto.SHA256, sum[:])
	if err != nil {
		return "", fmt.Errorf("signing the token request: %w", err)
	}
	form := url.Values{"grant_type": {"urn:ietf:params:oauth:grant-type:jwt-bearer"}, "assertion": {unsigned + "." + enc.EncodeToString(sig)}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, g.key.TokenURI, strings.NewReader(form.Encode()))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := g.http.Do(req)
	if err != nil {
		return "", fmt.Errorf("asking for an access token: %w", err)
	}
	defer func() { _ = resp.Body.Close() }()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, maxResponse))
	var tok struct {
		AccessToken string `json:"access_token"`
		ExpiresIn   int64  `json:"expires_in"`
		Error       string `json:"error"`
		Description string `json:"error_description"`
	}
	_ = json.Unmarshal(body, &tok) // not JSON: the status alone says it
	if resp.StatusCode/100 != 2 || tok.AccessToken == "" {
		status := resp.StatusCode
		if status == http.StatusBadRequest && tok.Error == "invalid_grant" {
			status = http.StatusUnauthorized // the grant's refusal is the credential's
		}
		return "", fmt.Errorf("asking for an access token for %s: %w", clip(g.key.ClientEmail), &httpError{Status: status, Code: tok.Error, Message: tok.Description})
	}
	g.token, g.expires = tok.AccessToken, now.Add(time.Duration(tok.ExpiresIn)*time.Second)
	return g.token, nil
}

// do sends one request with the bearer token and returns the answer's
// body (at most limit bytes) when its status is 2xx, the server's error
// otherwise.
func (g *gcsClient) do(ctx context.Context, method, rawURL, contentType string, body []byte, limit int64) ([]byte, error) {
	token, err := g.accessToken(ctx)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, method, rawURL, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, got, ok, err := send(g.http, req, limit)
	if err != nil {
		return nil, err
	}
	if !ok {
		var e struct {
			Error struct {
				Message string `json:"message"`
				Status  string `json:"status"`
			} `json:"error"`
		}
		_ = json.Unmarshal(got, &e)
		return nil, &httpError{Status: resp.StatusCode, Code: e.Error.Status, Message: e.Error.Message}
	}
	return got, nil
}

func (g *gcsClient) objectURL(key string) string {
	return g.endpoint + "/storage/v1/b/" + url.PathEscape(g.bucket) + "/o/" + url.PathEscape(key)
}

// put is a multipart upload (the object's metadata, then its bytes) with
// ifGenerationMatch=0, Cloud Storage's create-only precondition.
func (g *gcsClient) put(ctx context.Context, key string, body []byte, sha256Hex string) error {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	meta, _ := json.Marshal(map[string]any{"name": key, "contentType": "application/octet-stream", "metadata": map[string]string{"sha256": sha256Hex}})
	part, _ := mw.CreatePart(textproto.MIMEHeader{"Content-Type": {"application/json; charset=UTF-8"}})
	_, _ = part.Write(meta)
	part, _ = mw.CreatePart(textproto.MIMEHeader{"Content-Type": {"application/octet-stream"}})
	_, _ = part.Write(body)
	_ = mw.Close()
	u := g.endpoint + "/upload/storage/v1/b/" + url.PathEscape(g.bucket) + "/o?uploadType=multipart&ifGenerationMatch=0&name=" + url.QueryEscape(key)
	_, err := g.do(ctx, http.MethodPost, u, "multipart/related; boundary="+mw.Boundary(), buf.Bytes(), maxResponse)
	if e, ok := err.(*httpError); ok && e.Status == http.StatusPreconditionFailed {
		return errExists
	}
	return err
}

func (g *gcsClient) get(ctx context.Context, key string) ([]byte, error) {
	return g.do(ctx, http.MethodGet, g.objectURL(key)+"?alt=media", "", nil, maxObject)
}

func (g *gcsClient) stat(ctx context.Context, key string) (Attrs, error) {
	b, err := g.do(ctx, http.MethodGet, g.objectURL(key), "", nil, maxResponse)
	if err != nil {
		return Attrs{}, err
	}
	var o struct {
		Size     string            `json:"size"`
		Metadata map[string]string `json:"metadata"`
	}
	if err := json.Unmarshal(b, &o); err != nil {
		return Attrs{}, fmt.Errorf("the object's metadata is not Cloud Storage's JSON: %w", err)
	}
	n, _ := strconv.ParseInt(o.Size, 10, 64)
	return Attrs{Size: n, SHA256: o.Metadata["sha256"]}, nil
}

func (g *gcsClient) del(ctx context.Context, key string) error {
	_, err := g.do(ctx, http.MethodDelete, g.objectURL(key), "", nil, maxResponse)
	return err
}

// gcsLifecycle is a bucket's lifecycle: each rule kept as it came, aayu's
// recognised by its condition's prefix and the Delete action.
type gcsLifecycle struct {
	Lifecycle *struct {
		Rule []json.RawMessage `json:"rule"`
	} `json:"lifecycle"`
}

type gcsRule struct {
	Action struct {
		Type string `json:"type"`
	} `json:"action"`
	Condition struct {
		Age           int      `json:"age"`
		MatchesPrefix []string `json:"matchesPrefix"`
	} `json:"condition"`
}

// isAayuRule says whether a rule is aayu's own for prefix: Cloud Storage
// rules have no ID, so it is a Delete of exactly the prefix.
func isAayuRule(raw json.RawMessage, prefix string) (gcsRule, bool) {
	var r gcsRule
	if json.Unmarshal(raw, &r) != nil || r.Action.Type != "Delete" || len(r.Condition.MatchesPrefix) != 1 || r.Condition.MatchesPrefix[0] != prefix {
		return r, false
	}
	return r, true
}

// setRetention patches the bucket's lifecycle (buckets.patch replaces the
// whole lifecycle, so the rules there are read first and kept) and reads
// the answer back, since a server may accept a lifecycle it does not keep.
func (g *gcsClient) setRetention(ctx context.Context, prefix string, days int) error {
	bucketURL := g.endpoint + "/storage/v1/b/" + url.PathEscape(g.bucket)
	b, err := g.do(ctx, http.MethodGet, bucketURL, "", nil, maxResponse)
	if err != nil {
		return fmt.Errorf("reading the bucket's lifecycle: %w", err)
	}
	var have gcsLifecycle
	_ = json.Unmarshal(b, &have)
	mine, _ := json.Marshal(map[string]any{"action": map[string]string{"type": "Delete"},
		"condition": map[string]any{"age": days, "matchesPrefix": []string{prefix}}})
	rules := []json.RawMessage{mine}
	if have.Lifecycle != nil {
		for _, r := range have.Lifecycle.Rule {
			if _, ours := isAayuRule(r, prefix); !ours {
				rules = append(rules, r)
			}
		}
	}
	patch, _ := json.Marshal(map[string]any{"lifecycle": map[string]any{"rule": rules}})
	b, err = g.do(ctx, http.MethodPatch, bucketURL, "application/json", patch, maxResponse)
	if err != nil {
		return err
	}
	var after gcsLifecycle
	_ = json.Unmarshal(b, &after)
	if after.Lifecycle != nil {
		for _, r := range after.Lifecycle.Rule {
			if got, ours := isAayuRule(r, prefix); ours && got.Condition.Age == days {
				return nil
			}
		}
	}
	return fmt.Errorf("%w: the server accepted the rule but does not keep it (the bucket it answered has no such rule); add a Delete rule of age %d for the prefix by hand", ErrRetentionNotSet, days)
}
