package sandbox

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"html/template"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

const (
	deviceGrant   = "urn:ietf:params:oauth:grant-type:device_code"
	deviceErrDocs = "https://docs.github.com/developers/apps/authorizing-oauth-apps#error-codes-for-the-device-flow"
)

// deviceCode is one pending device-flow login.
type deviceCode struct {
	DeviceCode string
	UserCode   string
	ClientID   string
	Scope      string // as the request named it (devicepower.go grants it)
	Expires    time.Time
	Interval   time.Duration
	LastPoll   time.Time
	Approved   string // login that approved
	Denied     bool
	Used       bool
}

func (s *Server) routeDevice(m *http.ServeMux) {
	m.HandleFunc("POST /login/device/code", s.deviceCodeRequest)
	m.HandleFunc("POST /login/oauth/access_token", s.deviceTokenPoll)
	m.HandleFunc("GET /login/device", s.devicePage)
	m.HandleFunc("POST /login/device", s.deviceDecide)
}

// oauthReply writes form encoding unless the client asked for JSON, as
// github.com does (cli/oauth sends no Accept and reads either).
func oauthReply(w http.ResponseWriter, r *http.Request, status int, v url.Values) {
	if strings.Contains(r.Header.Get("Accept"), "json") {
		m := map[string]any{}
		for k := range v {
			if n, err := strconv.Atoi(v.Get(k)); err == nil && (k == "interval" || k == "expires_in") {
				m[k] = n
				continue
			}
			m[k] = v.Get(k)
		}
		writeJSON(w, status, m)
		return
	}
	w.Header().Set("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(v.Encode()))
}

func oauthError(code, desc string) url.Values {
	return url.Values{"error": {code}, "error_description": {desc}, "error_uri": {deviceErrDocs}}
}

// formValues reads a form body or a JSON object body.
func formValues(r *http.Request) url.Values {
	if strings.Contains(r.Header.Get("Content-Type"), "json") {
		var m map[string]any
		_ = json.NewDecoder(http.MaxBytesReader(nil, r.Body, 1<<20)).Decode(&m)
		v := url.Values{}
		for k, x := range m {
			if str, ok := x.(string); ok {
				v.Set(k, str)
			}
		}
		return v
	}
	_ = r.ParseForm()
	return r.PostForm
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func newUserCode() string {
	const letters = "BCDFGHJKLMNPQRSTVWXZ23456789"
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	out := make([]byte, 0, 9)
	for i, x := range b {
		if i == 4 {
			out = append(out, '-')
		}
		out = append(out, letters[int(x)%len(letters)])
	}
	return string(out)
}

// OwnClientID is the sandbox's own device client, the default
// `aayu --sandbox` uses when nothing names one: a GitHub App with no
// permissions, like the demo's DeviceClientID (devicepower.go).
const OwnClientID = "aayu-sandbox"

func (s *Server) deviceCodeRequest(w http.ResponseWriter, r *http.Request) {
	v := formValues(r)
	clientID := v.Get("client_id")
	if slices.Contains(s.opts.Device.DisabledClientIDs, clientID) {
		oauthReply(w, r, http.StatusBadRequest, oauthError("device_flow_disabled", "Device Flow must be explicitly enabled for this App"))
		return
	}
	if _, known := s.deviceClientOf(clientID); !known {
		// github.com answers a missing or unknown client_id with 404 and
		// error=Not Found (cli/oauth reads any 404 as ErrUnsupported).
		oauthReply(w, r, http.StatusNotFound, url.Values{"error": {"Not Found"}})
		return
	}
	d := &deviceCode{DeviceCode: randomHex(20), UserCode: newUserCode(), ClientID: clientID, Scope: v.Get("scope"),
		Expires: s.now().Add(s.opts.Device.Expiry), Interval: s.opts.Device.Interval}
	s.devices[d.DeviceCode] = d
	oauthReply(w, r, http.StatusOK, url.Values{
		"device_code": {d.DeviceCode}, "user_code": {d.UserCode},
		"verification_uri": {baseURL(r) + "/login/device"},
		"expires_in":       {strconv.Itoa(int(s.opts.Device.Expiry / time.Second))},
		"interval":         {strconv.Itoa(int(d.Interval / time.Second))},
	})
}

// deviceTokenPoll answers HTTP 200 for every outcome, errors included, as
// github.com does.
func (s *Server) deviceTokenPoll(w http.ResponseWriter, r *http.Request) {
	v := formValues(r)
	reply := func(vals url.Values) { oauthReply(w, r, http.StatusOK, vals) }
	if v.Get("grant_type") != deviceGrant {
		reply(oauthError("unsupported_grant_type", "The grant type is not supported."))
		return
	}
	d := s.devices[v.Get("device_code")]
	now := s.now()
	switch {
	case d == nil || d.Used:
		reply(oauthError("incorrect_device_code", "The device_code provided is not valid."))
		return
	case d.ClientID != v.Get("client_id"):
		reply(oauthError("incorrect_client_credentials", "The client_id and/or client_secret passed are incorrect."))
		return
	case !now.Before(d.Expires):
		reply(oauthError("expired_token", "The device_code has expired."))
		return
	case d.Denied:
		reply(oauthError("access_denied", "The authorization request was denied."))
		return
	case !d.LastPoll.IsZero() && now.Sub(d.LastPoll) < d.Interval:
		d.LastPoll = now
		d.Interval += 5 * time.Second
		vals := oauthError("slow_down", "Too many requests have been made in the same timeframe.")
		vals.Set("interval", strconv.Itoa(int(d.Interval/time.Second)))
		reply(vals)
		return
	}
	d.LastPoll = now
	if d.Approved == "" {
		reply(oauthError("authorization_pending", "The authorization request is still pending."))
		return
	}
	d.Used = true
	// The token is the client's, never the account's own: its power is the
	// App's permissions or the OAuth App's scopes (devicepower.go).
	client, _ := s.deviceClientOf(d.ClientID)
	tok, u := s.mintUserToken(d.Approved, client, d.Scope)
	reply(url.Values{"access_token": {tok}, "token_type": {"bearer"}, "scope": {strings.Join(u.scopes, ",")}})
}

var devicePageTmpl = template.Must(template.New("device").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Sandbox device activation</title></head>
<body>
<h1>Device activation (aayu sandbox)</h1>
{{if .Message}}<p role="status">{{.Message}}</p>{{end}}
<form method="post" action="/login/device">
<p><label>Code <input name="user_code" value="{{.UserCode}}" autocomplete="off" placeholder="XXXX-XXXX"></label></p>
<fieldset><legend>Approve as</legend>
{{range .Accounts}}<p><label><input type="radio" name="login" value="{{.Key}}"{{if eq .Key "founder"}} checked{{end}}> {{.Login}} ({{.Permission}})</label></p>
{{end}}</fieldset>
<p><button name="action" value="approve">Authorize</button> <button name="action" value="cancel">Cancel</button></p>
</form>
<p>With curl: <code>curl -d user_code=XXXX-XXXX -d login=founder -d action=approve {{.Base}}/login/device</code></p>
</body></html>
`))

func (s *Server) renderDevicePage(w http.ResponseWriter, r *http.Request, status int, code, msg string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_ = devicePageTmpl.Execute(w, map[string]any{"UserCode": code, "Message": msg, "Accounts": accounts, "Base": baseURL(r)})
}

func (s *Server) devicePage(w http.ResponseWriter, r *http.Request) {
	s.renderDevicePage(w, r, http.StatusOK, r.URL.Query().Get("user_code"), "")
}

// normalizeUserCode accepts "wdjbmjht", "WDJB MJHT" and "WDJB-MJHT".
func normalizeUserCode(c string) string {
	c = strings.ToUpper(strings.NewReplacer("-", "", " ", "").Replace(strings.TrimSpace(c)))
	if len(c) == 8 {
		return c[:4] + "-" + c[4:]
	}
	return c
}

// deviceDecide approves or cancels a code as a sandbox account.
func (s *Server) deviceDecide(w http.ResponseWriter, r *http.Request) {
	_ = r.ParseForm()
	code := normalizeUserCode(r.PostForm.Get("user_code"))
	var d *deviceCode
	for _, x := range s.devices {
		if x.UserCode == code {
			d = x
		}
	}
	switch {
	case d == nil:
		s.renderDevicePage(w, r, http.StatusNotFound, code, "That code is not valid. Check it and try again.")
		return
	case !s.now().Before(d.Expires):
		s.renderDevicePage(w, r, http.StatusGone, code, "That code has expired. Ask the device for a new one.")
		return
	case d.Used || d.Denied || d.Approved != "":
		s.renderDevicePage(w, r, http.StatusConflict, code, "That code was already used.")
		return
	}
	switch r.PostForm.Get("action") {
	case "cancel":
		d.Denied = true
		s.renderDevicePage(w, r, http.StatusOK, "", "Cancelled. The device was not authorized.")
	case "approve", "":
		a, ok := accountByKey(r.PostForm.Get("login"))
		if !ok {
			s.renderDevicePage(w, r, http.StatusBadRequest, code, "Pick one of the sandbox accounts: founder, writer, reader, agent-bot.")
			return
		}
		d.Approved = a.Login
		s.renderDevicePage(w, r, http.StatusOK, "", "Approved as "+a.Login+". You can return to your device.")
	default:
		s.renderDevicePage(w, r, http.StatusBadRequest, code, "action must be approve or cancel.")
	}
}
