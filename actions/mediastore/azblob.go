package mediastore

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/xml"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"
)

// azureVersion is the Blob service REST API version every request names.
const azureVersion = "2021-12-02"

// azureClient is the driver of azblob:// containers: the Blob service
// REST API (Put Blob, Get Blob, Get Blob Properties, Delete Blob), each
// request signed with the account key (SharedKey, HMAC-SHA256 over the
// string Microsoft's "Authorize with Shared Key" defines) or carrying a
// SAS token. The endpoint is https://ACCOUNT.blob.core.windows.net unless
// the credential names another (a connection string's BlobEndpoint, the
// tests' Azurite at http://127.0.0.1:PORT/ACCOUNT).
type azureClient struct {
	http      *http.Client
	base      *url.URL // the account's endpoint, path included (Azurite's /ACCOUNT)
	container string
	account   string
	key       []byte // the decoded account key; nil with a SAS
	sas       url.Values
	now       func() time.Time
}

func newAzure(container string, c Credential) (*azureClient, error) {
	if c.Account == "" {
		return nil, fmt.Errorf("%w: azblob:// needs the storage account's name and its key or a SAS token", ErrNoCredential)
	}
	a := &azureClient{http: httpClient, container: container, account: c.Account, now: time.Now}
	switch {
	case c.AccountKey != "":
		key, err := base64.StdEncoding.DecodeString(c.AccountKey)
		if err != nil || len(key) == 0 {
			return nil, fmt.Errorf("%w: the azblob:// account key is not base64, as the portal shows it", ErrUnusable)
		}
		a.key = key
	case c.SAS != "":
		q, err := url.ParseQuery(strings.TrimPrefix(c.SAS, "?"))
		if err != nil || q.Get("sig") == "" {
			return nil, fmt.Errorf("%w: the azblob:// SAS token is not a query string with a sig", ErrUnusable)
		}
		a.sas = q
	default:
		return nil, fmt.Errorf("%w: azblob:// needs the storage account's key or a SAS token", ErrNoCredential)
	}
	endpoint := "https://" + url.PathEscape(c.Account) + ".blob.core.windows.net"
	if c.Endpoint != "" {
		endpoint = c.Endpoint
	}
	e, err := checkEndpoint("azblob://", endpoint)
	if err != nil {
		return nil, err
	}
	e.Path = strings.TrimSuffix(e.Path, "/")
	a.base = e
	return a, nil
}

// do sends one request to the container (and blob, if any) with query and
// returns the answer's headers and body (at most limit bytes) when its
// status is 2xx, the server's error otherwise.
func (a *azureClient) do(ctx context.Context, method, blob string, query url.Values, header http.Header, body []byte, limit int64) (http.Header, []byte, error) {
	u := *a.base
	u.Path += "/" + a.container
	if blob != "" {
		u.Path += "/" + blob
	}
	u.RawPath = ""
	q := url.Values{}
	for k, vs := range query {
		q[k] = vs
	}
	for k, vs := range a.sas {
		q[k] = vs
	}
	u.RawQuery = q.Encode()
	req, err := http.NewRequestWithContext(ctx, method, u.String(), bytes.NewReader(body))
	if err != nil {
		return nil, nil, err
	}
	for k, vs := range header {
		req.Header[k] = vs
	}
	req.Header.Set("X-Ms-Date", a.now().UTC().Format(http.TimeFormat))
	req.Header.Set("X-Ms-Version", azureVersion)
	if a.key != nil {
		req.Header.Set("Authorization", "SharedKey "+a.account+":"+a.sign(req, query))
	}
	resp, got, ok, err := send(a.http, req, limit)
	if err != nil {
		return nil, nil, err
	}
	if !ok {
		var e struct {
			Code    string `xml:"Code"`
			Message string `xml:"Message"`
		}
		_ = xml.Unmarshal(got, &e)
		if e.Code == "" {
			e.Code = resp.Header.Get("X-Ms-Error-Code") // a HEAD's answer has no body
		}
		// The message's second line onwards is the request ID and time.
		msg, _, _ := strings.Cut(e.Message, "\n")
		return nil, nil, &httpError{Status: resp.StatusCode, Code: e.Code, Message: strings.TrimSpace(msg)}
	}
	return resp.Header, got, nil
}

// sign is the SharedKey signature of req: the HMAC-SHA256, under the
// account key, of the verb, the standard headers in their fixed order, the
// x-ms- headers sorted, and the canonical resource (the account, the
// path as sent, and each query parameter lower-cased and sorted).
func (a *azureClient) sign(req *http.Request, query url.Values) string {
	length := ""
	if req.ContentLength > 0 {
		length = strconv.FormatInt(req.ContentLength, 10)
	}
	h := req.Header
	var b strings.Builder
	for _, v := range []string{req.Method, h.Get("Content-Encoding"), h.Get("Content-Language"), length, h.Get("Content-Md5"),
		h.Get("Content-Type"), "", h.Get("If-Modified-Since"), h.Get("If-Match"), h.Get("If-None-Match"), h.Get("If-Unmodified-Since"), h.Get("Range")} {
		b.WriteString(v + "\n")
	}
	var ms []string
	for k := range h {
		if lk := strings.ToLower(k); strings.HasPrefix(lk, "x-ms-") {
			ms = append(ms, lk)
		}
	}
	sort.Strings(ms)
	for _, k := range ms {
		b.WriteString(k + ":" + strings.TrimSpace(h.Get(k)) + "\n")
	}
	b.WriteString("/" + a.account + req.URL.EscapedPath())
	names := make([]string, 0, len(query))
	lower := map[string][]string{}
	for k, vs := range query {
		lk := strings.ToLower(k)
		if _, seen := lower[lk]; !seen {
			names = append(names, lk)
		}
		lower[lk] = append(lower[lk], vs...)
	}
	sort.Strings(names)
	for _, k := range names {
		vs := lower[k]
		sort.Strings(vs)
		b.WriteString("\n" + k + ":" + strings.Join(vs, ","))
	}
	m := hmac.New(sha256.New, a.key)
	m.Write([]byte(b.String()))
	return base64.StdEncoding.EncodeToString(m.Sum(nil))
}

// put is Put Blob of a block blob, with If-None-Match: * so it creates
// only.
func (a *azureClient) put(ctx context.Context, key string, body []byte, sha256Hex string) error {
	h := http.Header{}
	h.Set("Content-Type", "application/octet-stream")
	h.Set("Content-Md5", contentMD5(body))
	h.Set("If-None-Match", "*")
	h.Set("X-Ms-Blob-Type", "BlockBlob")
	h.Set("X-Ms-Meta-Sha256", sha256Hex)
	_, _, err := a.do(ctx, http.MethodPut, key, nil, h, body, maxResponse)
	if e, ok := err.(*httpError); ok && (e.Status == http.StatusConflict || e.Status == http.StatusPreconditionFailed) {
		return errExists
	}
	return err
}

func (a *azureClient) get(ctx context.Context, key string) ([]byte, error) {
	_, b, err := a.do(ctx, http.MethodGet, key, nil, nil, nil, maxObject)
	return b, err
}

func (a *azureClient) stat(ctx context.Context, key string) (Attrs, error) {
	h, _, err := a.do(ctx, http.MethodHead, key, nil, nil, nil, 0)
	if err != nil {
		return Attrs{}, err
	}
	n, _ := strconv.ParseInt(h.Get("Content-Length"), 10, 64)
	return Attrs{Size: n, SHA256: h.Get("X-Ms-Meta-Sha256")}, nil
}

func (a *azureClient) del(ctx context.Context, key string) error {
	_, _, err := a.do(ctx, http.MethodDelete, key, nil, nil, nil, maxResponse)
	return err
}

// setRetention cannot: an Azure storage account's lifecycle management
// policy is set through Azure Resource Manager
// (Microsoft.Storage/storageAccounts/managementPolicies) with a Microsoft
// Entra ID credential, which neither an account key nor a SAS token is.
func (a *azureClient) setRetention(_ context.Context, prefix string, days int) error {
	return fmt.Errorf("%w: Azure sets lifecycle rules on the storage account through Azure Resource Manager, which an account key or SAS token cannot reach; add a lifecycle management rule in the portal that deletes blobs under %s/%s %d days after they are created", ErrRetentionNotSet, a.container, prefix, days)
}
