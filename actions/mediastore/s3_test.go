package mediastore

import (
	"bytes"
	"context"
	"crypto/md5"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// AWS's published examples of Signature Version 4 for S3, from "Signature
// Calculations for the Authorization Header: Transferring Payload in a
// Single Chunk" (https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html):
// the example key, 24 May 2013, us-east-1, virtual-hosted examplebucket.
const (
	exampleKeyID  = "AKIAIOSFODNN7EXAMPLE"
	exampleSecret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
)

func TestSigV4MatchesAWSPublishedExamples(t *testing.T) {
	t.Parallel()
	when := time.Date(2013, 5, 24, 0, 0, 0, 0, time.UTC)
	c := &s3Client{region: "us-east-1", id: exampleKeyID, secret: exampleSecret, now: func() time.Time { return when }}
	cases := []struct {
		name, method, url string
		header            map[string]string
		body              string
		want              string
	}{
		{"GET Object", "GET", "https://examplebucket.s3.amazonaws.com/test.txt", map[string]string{"Range": "bytes=0-9"}, "",
			"AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41"},
		{"PUT Object", "PUT", "https://examplebucket.s3.amazonaws.com/test$file.text",
			map[string]string{"Date": "Fri, 24 May 2013 00:00:00 GMT", "X-Amz-Storage-Class": "REDUCED_REDUNDANCY"}, "Welcome to Amazon S3.",
			"AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,SignedHeaders=date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class,Signature=98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd"},
		{"GET Bucket Lifecycle", "GET", "https://examplebucket.s3.amazonaws.com/?lifecycle", nil, "",
			"AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,SignedHeaders=host;x-amz-content-sha256;x-amz-date,Signature=fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543"},
		{"Get Bucket (List Objects)", "GET", "https://examplebucket.s3.amazonaws.com/?max-keys=2&prefix=J", nil, "",
			"AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,SignedHeaders=host;x-amz-content-sha256;x-amz-date,Signature=34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7"},
	}
	for _, tc := range cases {
		req, err := http.NewRequest(tc.method, tc.url, strings.NewReader(tc.body))
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range tc.header {
			req.Header.Set(k, v)
		}
		hash := emptySHA256
		if tc.body != "" {
			hash = "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072" // the example's x-amz-content-sha256
		}
		c.sign(req, hash)
		if got := req.Header.Get("Authorization"); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
}

// lifecycleServer answers GetBucketLifecycleConfiguration with cfg (or
// NoSuchLifecycleConfiguration when empty) and keeps what
// PutBucketLifecycleConfiguration sends, refusing a body whose Content-MD5
// is missing or wrong as S3 does ("Content-MD5 header is required for
// all Put Bucket lifecycle requests").
type lifecycleServer struct {
	mu     sync.Mutex
	cfg    string
	signed []string // each request's SignedHeaders
}

func (s *lifecycleServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	auth := r.Header.Get("Authorization")
	if i := strings.Index(auth, "SignedHeaders="); i >= 0 {
		s.signed = append(s.signed, strings.SplitN(auth[i+len("SignedHeaders="):], ",", 2)[0])
	}
	if _, ok := r.URL.Query()["lifecycle"]; !ok || r.URL.Path != "/media" {
		http.Error(w, "<Error><Code>InvalidRequest</Code></Error>", http.StatusBadRequest)
		return
	}
	switch r.Method {
	case http.MethodGet:
		if s.cfg == "" {
			w.WriteHeader(http.StatusNotFound)
			_, _ = io.WriteString(w, "<Error><Code>NoSuchLifecycleConfiguration</Code><Message>The lifecycle configuration does not exist</Message></Error>")
			return
		}
		_, _ = io.WriteString(w, s.cfg)
	case http.MethodPut:
		body, _ := io.ReadAll(r.Body)
		sum := md5.Sum(body)
		if r.Header.Get("Content-MD5") != base64.StdEncoding.EncodeToString(sum[:]) {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = io.WriteString(w, "<Error><Code>InvalidRequest</Code><Message>Missing required header for this request: Content-MD5</Message></Error>")
			return
		}
		s.cfg = string(body)
	}
}

func openTestBucket(t *testing.T, h http.Handler, secret string) *Store {
	t.Helper()
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	b, err := Open("s3://media/acme", Credential{AccessKeyID: "AKIAEXAMPLEPROOFKEY", SecretAccessKey: secret, Endpoint: ts.URL})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestExpireKeepsTheBucketsOtherRules: the lifecycle rule aayu writes
// replaces its own earlier rule and keeps every other rule exactly as the
// bucket held it, with the Content-MD5 S3 requires, signed.
func TestExpireKeepsTheBucketsOtherRules(t *testing.T) {
	t.Parallel()
	other := `<ID>logs</ID><Filter><And><Prefix>logs/</Prefix><Tag><Key>k</Key><Value>v</Value></Tag></And></Filter><Status>Enabled</Status><Transition><Days>10</Days><StorageClass>GLACIER</StorageClass></Transition>`
	srv := &lifecycleServer{cfg: `<?xml version="1.0" encoding="UTF-8"?><LifecycleConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Rule><ID>aayu-proof-media</ID><Filter><Prefix>acme/</Prefix></Filter><Status>Enabled</Status><Expiration><Days>7</Days></Expiration></Rule><Rule>` + other + `</Rule></LifecycleConfiguration>`}
	b := openTestBucket(t, srv, "secret-of-the-bucket")
	if err := b.SetRetention(context.Background(), 30); err != nil {
		t.Fatal(err)
	}
	want := `<LifecycleConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Rule><ID>aayu-proof-media</ID><Filter><Prefix>acme/</Prefix></Filter><Status>Enabled</Status><Expiration><Days>30</Days></Expiration></Rule><Rule>` + other + `</Rule></LifecycleConfiguration>`
	if srv.cfg != want {
		t.Errorf("the bucket's lifecycle is now\n%s\nwant\n%s", srv.cfg, want)
	}
	if len(srv.signed) != 3 || !strings.Contains(srv.signed[1], "content-md5") || !strings.Contains(srv.signed[1], "x-amz-content-sha256") {
		t.Errorf("signed headers %q: the write's Content-MD5 and payload hash are not signed", srv.signed)
	}
}

func TestExpireWritesTheFirstRuleOfABucketWithNone(t *testing.T) {
	t.Parallel()
	srv := &lifecycleServer{}
	b := openTestBucket(t, srv, "secret-of-the-bucket")
	if err := b.SetRetention(context.Background(), 3); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(srv.cfg, `<Rule><ID>aayu-proof-media</ID><Filter><Prefix>acme/</Prefix></Filter><Status>Enabled</Status><Expiration><Days>3</Days></Expiration></Rule></LifecycleConfiguration>`) {
		t.Errorf("the bucket's lifecycle is now %s", srv.cfg)
	}
}

// TestBucketErrorsNameTheServersCodeWithoutTheCredential: what the server
// answers is reported by its code and message, and a credential the server
// echoes is cut out.
func TestBucketErrorsNameTheServersCodeWithoutTheCredential(t *testing.T) {
	t.Parallel()
	const secret = "secret-echoed-back"
	b := openTestBucket(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusForbidden)
		_, _ = io.WriteString(w, "<Error><Code>AccessDenied</Code><Message>no write for "+secret+"</Message></Error>")
	}), secret)
	err := b.Put(context.Background(), "acme/screens/x.png", []byte("x"))
	if err == nil {
		t.Fatal("a refused put reported success")
	}
	// The put's first request is a HEAD, whose answer has no body.
	if !errors.Is(err, ErrCredentialRefused) || !strings.Contains(err.Error(), "403 Forbidden") || strings.Contains(err.Error(), secret) {
		t.Errorf("error %q: want the server's code, never the credential", err)
	}
	if err := b.SetRetention(context.Background(), 3); err == nil || !strings.Contains(err.Error(), "AccessDenied") || strings.Contains(err.Error(), secret) {
		t.Errorf("lifecycle error %v: want the server's code, never the credential", err)
	}
}

// TestPutSendsTheBodyWithItsDigestAndHash: the object's bytes go with
// their Content-MD5 (S3 refuses a body that does not match it), the
// payload hash SigV4 signs, and the pack's SHA-256 as metadata.
func TestPutSendsTheBodyWithItsDigestAndHash(t *testing.T) {
	t.Parallel()
	var got http.Header
	var body []byte
	b := openTestBucket(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodHead {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		got, body = r.Header.Clone(), must(io.ReadAll(r.Body))
		if r.Method != http.MethodPut || r.URL.EscapedPath() != "/media/acme/screens/a%20b.png" {
			w.WriteHeader(http.StatusBadRequest)
		}
	}), "s")
	data := []byte("\x89PNG")
	if err := b.Put(context.Background(), "acme/screens/a b.png", data); err != nil {
		t.Fatal(err)
	}
	sum, sha := md5.Sum(data), sha256.Sum256(data)
	if !bytes.Equal(body, data) || got.Get("Content-MD5") != base64.StdEncoding.EncodeToString(sum[:]) ||
		got.Get("X-Amz-Meta-Sha256") != hex.EncodeToString(sha[:]) || got.Get("If-None-Match") != "*" || got.Get("X-Amz-Content-Sha256") == "" || !strings.HasPrefix(got.Get("Authorization"), "AWS4-HMAC-SHA256 Credential=AKIAEXAMPLEPROOFKEY/") {
		t.Errorf("the put sent body %q with headers %v", body, got)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
