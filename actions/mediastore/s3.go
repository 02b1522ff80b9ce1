package mediastore

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/md5"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/xml"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"
)

// s3Client is the driver of s3:// and r2:// buckets: the S3 REST API
// (PutObject, GetObject, HeadObject, DeleteObject, and the bucket's
// lifecycle configuration), each request signed with AWS Signature
// Version 4 in the Authorization header, the payload hashed and sent in
// one piece. It stands in for minio-go and the AWS SDK, whose package
// inits every start of aayu would pay for requests only a media copy
// makes. The signature is held to AWS's published examples
// (TestSigV4MatchesAWSPublishedExamples); the requests to a real
// S3-speaking server (TestStoreS3).
type s3Client struct {
	http      *http.Client
	scheme    string // "https", or "http" for an endpoint that says so
	host      string // the endpoint's host[:port]
	pathStyle bool   // bucket in the path (any endpoint named) or in the host (AWS)
	bucket    string
	region    string
	id        string
	secret    string
	token     string           // session token, sent when set
	now       func() time.Time // the signing time; time.Now outside tests
}

// newS3 makes the client of an s3:// or r2:// bucket. Amazon S3 itself is
// reached at the region's endpoint, the bucket in the host
// (virtual-hosted style), except a bucket whose name has a dot, which the
// endpoint's TLS certificate does not cover, in the path. Any other
// S3-speaking server (R2, MinIO, a test server) is named by c.Endpoint
// and reached with the bucket in the path, which they all serve.
func newS3(scheme, bucket string, c Credential) (*s3Client, error) {
	if c.AccessKeyID == "" || c.SecretAccessKey == "" {
		return nil, fmt.Errorf("%w: %s:// needs an access key ID and its secret that may write to the bucket", ErrNoCredential, scheme)
	}
	region := c.Region
	if region == "" {
		region = "us-east-1"
		if scheme == "r2" {
			region = "auto" // R2 signs for the region "auto"
		}
	}
	client := &s3Client{http: httpClient, scheme: "https", host: "s3." + region + ".amazonaws.com", bucket: bucket,
		pathStyle: strings.Contains(bucket, "."), region: region, id: c.AccessKeyID, secret: c.SecretAccessKey, token: c.SessionToken, now: time.Now}
	switch {
	case c.Endpoint != "":
		e, err := checkEndpoint(scheme+"://", c.Endpoint)
		if err != nil {
			return nil, err
		}
		client.scheme, client.host, client.pathStyle = e.Scheme, e.Host, true
	case scheme == "r2":
		return nil, fmt.Errorf("%w: an r2:// bucket needs its account's endpoint (https://ACCOUNT.r2.cloudflarestorage.com)", ErrUnusable)
	}
	return client, nil
}

// s3ErrorBody is an S3 error response's XML.
type s3ErrorBody struct {
	Code    string `xml:"Code"`
	Message string `xml:"Message"`
}

// emptySHA256 is the SHA-256 of no bytes, the payload hash of a GET.
const emptySHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

// do sends one signed request to the bucket (and key, if any) with query
// (one sub-resource such as "lifecycle", or "") and returns the answer's
// headers and body (at most limit bytes) when its status is 2xx, the
// server's error otherwise.
func (c *s3Client) do(ctx context.Context, method, key, query string, header http.Header, body []byte, limit int64) (http.Header, []byte, error) {
	bucket := c.bucket
	host, path := c.host, "/"+bucket
	if !c.pathStyle {
		host, path = bucket+"."+c.host, ""
	}
	if key != "" {
		path += "/" + key
	}
	if path == "" {
		path = "/"
	}
	rawQuery := ""
	if query != "" {
		rawQuery = query + "="
	}
	u := &url.URL{Scheme: c.scheme, Host: host, Path: path, RawPath: s3EscapePath(path), RawQuery: rawQuery}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), bytes.NewReader(body))
	if err != nil {
		return nil, nil, err
	}
	for k, vs := range header {
		req.Header[k] = vs
	}
	sum := sha256.Sum256(body)
	c.sign(req, hex.EncodeToString(sum[:]))
	resp, got, ok, err := send(c.http, req, limit)
	if err != nil {
		return nil, nil, err
	}
	if !ok {
		var b s3ErrorBody
		_ = xml.Unmarshal(got, &b) // no XML error body: the status alone says it
		return nil, nil, &httpError{Status: resp.StatusCode, Code: b.Code, Message: b.Message}
	}
	return resp.Header, got, nil
}

// sign adds x-amz-date, x-amz-content-sha256, the session token if any,
// and the Authorization header of Signature Version 4 over every header
// the request carries (and Host), as S3's "Signature Calculations for the
// Authorization Header: Transferring Payload in a Single Chunk" describes.
func (c *s3Client) sign(req *http.Request, payloadHash string) {
	t := c.now().UTC()
	stamp := t.Format("20060102T150405Z")
	req.Header.Set("X-Amz-Date", stamp)
	req.Header.Set("X-Amz-Content-Sha256", payloadHash)
	if c.token != "" {
		req.Header.Set("X-Amz-Security-Token", c.token)
	}
	scope := t.Format("20060102") + "/" + c.region + "/s3/aws4_request"
	signed, canonical := canonicalRequest(req, payloadHash)
	req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential="+c.id+"/"+scope+
		",SignedHeaders="+signed+",Signature="+signature(c.secret, t, c.region, stamp, scope, canonical))
}

// canonicalRequest is SigV4's canonical form of req: method, URI-encoded
// path (S3 encodes it once and does not normalise it), sorted query,
// headers lower-cased, sorted and trimmed, the signed header names, and
// the payload's hash. It returns the signed header names beside it.
func canonicalRequest(req *http.Request, payloadHash string) (signed, canonical string) {
	headers := map[string]string{"host": req.Host}
	if req.Host == "" {
		headers["host"] = req.URL.Host
	}
	for k, vs := range req.Header {
		lk := strings.ToLower(k)
		if lk == "authorization" || lk == "user-agent" {
			continue
		}
		trimmed := make([]string, len(vs))
		for i, v := range vs {
			trimmed[i] = strings.Join(strings.Fields(v), " ")
		}
		headers[lk] = strings.Join(trimmed, ",")
	}
	names := make([]string, 0, len(headers))
	for k := range headers {
		names = append(names, k)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString(req.Method + "\n" + s3EscapePath(req.URL.Path) + "\n" + canonicalQuery(req.URL.Query()) + "\n")
	for _, k := range names {
		b.WriteString(k + ":" + headers[k] + "\n")
	}
	signed = strings.Join(names, ";")
	b.WriteString("\n" + signed + "\n" + payloadHash)
	return signed, b.String()
}

func canonicalQuery(q url.Values) string {
	pairs := make([]string, 0, len(q))
	for k, vs := range q {
		for _, v := range vs {
			pairs = append(pairs, s3Escape(k, true)+"="+s3Escape(v, true))
		}
	}
	sort.Strings(pairs)
	return strings.Join(pairs, "&")
}

// signature is the hex HMAC of the string to sign under the key derived
// from the secret, the day, the region and the service.
func signature(secret string, t time.Time, region, stamp, scope, canonical string) string {
	h := sha256.Sum256([]byte(canonical))
	toSign := "AWS4-HMAC-SHA256\n" + stamp + "\n" + scope + "\n" + hex.EncodeToString(h[:])
	key := hmacSHA256([]byte("AWS4"+secret), t.Format("20060102"))
	for _, part := range []string{region, "s3", "aws4_request"} {
		key = hmacSHA256(key, part)
	}
	return hex.EncodeToString(hmacSHA256(key, toSign))
}

func hmacSHA256(key []byte, data string) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(data))
	return m.Sum(nil)
}

// s3EscapePath URI-encodes a path as SigV4 does, every byte but the
// unreserved ones and '/'.
func s3EscapePath(p string) string { return s3Escape(p, false) }

func s3Escape(s string, slash bool) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'A' <= c && c <= 'Z', 'a' <= c && c <= 'z', '0' <= c && c <= '9', c == '-', c == '_', c == '.', c == '~':
			b.WriteByte(c)
		case c == '/' && !slash:
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// contentMD5 is the Content-MD5 header of body, which S3 checks the body
// against (PutObject) or requires (PutBucketLifecycleConfiguration).
func contentMD5(body []byte) string {
	sum := md5.Sum(body)
	return base64.StdEncoding.EncodeToString(sum[:])
}

// put stores body under key with its SHA-256 as user metadata, only if
// no object is there (If-None-Match: *, S3's conditional write).
func (c *s3Client) put(ctx context.Context, key string, body []byte, sha256Hex string) error {
	h := http.Header{}
	h.Set("Content-Type", "application/octet-stream")
	h.Set("Content-Md5", contentMD5(body))
	h.Set("If-None-Match", "*")
	h.Set("X-Amz-Meta-Sha256", sha256Hex)
	_, _, err := c.do(ctx, http.MethodPut, key, "", h, body, maxResponse)
	if e, ok := err.(*httpError); ok && (e.Status == http.StatusPreconditionFailed || e.Status == http.StatusConflict) {
		return errExists
	}
	return err
}

func (c *s3Client) get(ctx context.Context, key string) ([]byte, error) {
	_, b, err := c.do(ctx, http.MethodGet, key, "", nil, nil, maxObject)
	return b, err
}

func (c *s3Client) stat(ctx context.Context, key string) (Attrs, error) {
	h, _, err := c.do(ctx, http.MethodHead, key, "", nil, nil, 0)
	if err != nil {
		return Attrs{}, err
	}
	n, _ := strconv.ParseInt(h.Get("Content-Length"), 10, 64)
	return Attrs{Size: n, SHA256: h.Get("X-Amz-Meta-Sha256")}, nil
}

func (c *s3Client) del(ctx context.Context, key string) error {
	if _, err := c.stat(ctx, key); err != nil {
		return err // S3 answers 204 for a key that is not there
	}
	_, _, err := c.do(ctx, http.MethodDelete, key, "", nil, nil, maxResponse)
	return err
}

// lifecycleRule is one <Rule> of a bucket's lifecycle configuration: its
// ID, read to know aayu's own, and its whole inner XML, written back as it
// came so the rules of others are kept exactly, whatever they hold.
type lifecycleRule struct {
	ID         string `xml:"ID"`
	Expiration struct {
		Days int `xml:"Days"`
	} `xml:"Expiration"`
	Inner string `xml:",innerxml"`
}

// setRetention replaces aayu's rule in the bucket's lifecycle
// configuration and keeps the others: S3 replaces the whole configuration
// on each write, so it is read first, and read again after, since a
// server that does not keep lifecycle rules may still answer 200.
func (c *s3Client) setRetention(ctx context.Context, prefix string, days int) error {
	rules, err := c.getLifecycle(ctx)
	if err != nil {
		return fmt.Errorf("reading the lifecycle rules: %w", err)
	}
	var kept []lifecycleRule
	for _, r := range rules {
		if r.ID != lifecycleRuleID {
			kept = append(kept, r)
		}
	}
	if err := c.putLifecycle(ctx, lifecycleRuleID, prefix, days, kept); err != nil {
		return err
	}
	after, err := c.getLifecycle(ctx)
	if err != nil {
		return fmt.Errorf("reading the lifecycle rules back: %w", err)
	}
	for _, r := range after {
		if r.ID == lifecycleRuleID && r.Expiration.Days == days {
			return nil
		}
	}
	return fmt.Errorf("%w: the server accepted the rule but does not keep it (it serves no lifecycle rules); set an expiration rule of %d days on the bucket by hand", ErrRetentionNotSet, days)
}

// getLifecycle reads the bucket's lifecycle rules; a bucket with none
// answers NoSuchLifecycleConfiguration, which is no rules.
func (c *s3Client) getLifecycle(ctx context.Context) ([]lifecycleRule, error) {
	_, body, err := c.do(ctx, http.MethodGet, "", "lifecycle", nil, nil, maxResponse)
	if e, ok := err.(*httpError); ok && e.Code == "NoSuchLifecycleConfiguration" {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var cfg struct {
		XMLName xml.Name
		Rules   []lifecycleRule `xml:"Rule"`
	}
	if err := xml.Unmarshal(body, &cfg); err != nil {
		return nil, fmt.Errorf("the lifecycle configuration is not S3's XML: %w", err)
	}
	if cfg.XMLName.Local != "LifecycleConfiguration" {
		return nil, nil // a server that ignores ?lifecycle answers something else: no rules
	}
	return cfg.Rules, nil
}

// putLifecycle writes the bucket's whole lifecycle configuration: aayu's
// rule (objects under prefix expire after days) first, then others as
// they came.
func (c *s3Client) putLifecycle(ctx context.Context, id, prefix string, days int, others []lifecycleRule) error {
	var b bytes.Buffer
	b.WriteString(`<LifecycleConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Rule><ID>`)
	_ = xml.EscapeText(&b, []byte(id))
	b.WriteString(`</ID><Filter><Prefix>`)
	_ = xml.EscapeText(&b, []byte(prefix))
	b.WriteString(`</Prefix></Filter><Status>Enabled</Status><Expiration><Days>` + strconv.Itoa(days) + `</Days></Expiration></Rule>`)
	for _, r := range others {
		b.WriteString("<Rule>" + r.Inner + "</Rule>")
	}
	b.WriteString(`</LifecycleConfiguration>`)
	h := http.Header{}
	h.Set("Content-Type", "application/xml")
	h.Set("Content-Md5", contentMD5(b.Bytes()))
	_, _, err := c.do(ctx, http.MethodPut, "", "lifecycle", h, b.Bytes(), maxResponse)
	return err
}
