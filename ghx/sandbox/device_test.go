package sandbox_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/cli/oauth/api"
	"github.com/cli/oauth/device"

	"github.com/aayudha/aayu/ghx/sandbox"
)

func approve(t *testing.T, base, code, login, action string) int {
	t.Helper()
	resp, err := http.PostForm(base+"/login/device", url.Values{"user_code": {code}, "login": {login}, "action": {action}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestDeviceFlowWithCliOAuth runs cli/oauth's own client against the
// sandbox: request a code, approve it as a sandbox account, read /user.
func TestDeviceFlowWithCliOAuth(t *testing.T) {
	t.Parallel()
	cases := []struct {
		login, action, wantLogin string
		wantCode                 string
	}{
		{"founder", "approve", "founder", ""},
		{"agent-bot", "approve", sandbox.BotLogin, ""},
		{"writer", "cancel", "", "access_denied"},
	}
	for _, c := range cases {
		t.Run(c.login+" "+c.action, func(t *testing.T) {
			_, _, base := startValidated(t, sandbox.Options{ShareSeed: true, Now: time.Now, Device: &sandbox.DeviceOptions{Interval: 0, Expiry: time.Minute, ClientIDs: []string{"sandbox-client"}}})
			code, err := device.RequestCode(http.DefaultClient, base+"/login/device/code", "sandbox-client", nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(code.UserCode) != 9 || code.UserCode[4] != '-' || code.VerificationURI != base+"/login/device" {
				t.Fatalf("code: %+v", code)
			}
			if st := approve(t, base, strings.ToLower(strings.ReplaceAll(code.UserCode, "-", "")), c.login, c.action); st != 200 {
				t.Fatalf("approval page: %d", st)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			tok, err := device.Wait(ctx, http.DefaultClient, base+"/login/oauth/access_token", device.WaitOptions{ClientID: "sandbox-client", DeviceCode: code})
			if c.wantCode != "" {
				var ae *api.Error
				if !errors.As(err, &ae) || ae.Code != c.wantCode {
					t.Fatalf("wait: %v, want %s", err, c.wantCode)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			gh := client(t, base, tok.Token)
			me, _, err := gh.Users.Get(ctx, "")
			if err != nil || me.GetLogin() != c.wantLogin {
				t.Errorf("/user with the device token: %v %v", me.GetLogin(), err)
			}
		})
	}
}

func poll(t *testing.T, base, deviceCode string) url.Values {
	t.Helper()
	resp, err := http.PostForm(base+"/login/oauth/access_token", url.Values{"client_id": {"c"}, "device_code": {deviceCode},
		"grant_type": {"urn:ietf:params:oauth:grant-type:device_code"}})
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("poll answered %d, GitHub answers 200", resp.StatusCode)
	}
	v, _ := url.ParseQuery(string(b))
	return v
}

// TestDevicePollErrors covers slow_down (+5 s), expiry, one use, and the
// disabled app.
func TestDevicePollErrors(t *testing.T) {
	t.Parallel()
	now := demoNow
	clock := func() time.Time { return now }
	_, _, base := startValidated(t, sandbox.Options{ShareSeed: true, Now: clock, Device: &sandbox.DeviceOptions{Interval: 5 * time.Second, Expiry: time.Minute, DisabledClientIDs: []string{"off"}, ClientIDs: []string{"c"}}})
	code, err := device.RequestCode(http.DefaultClient, base+"/login/device/code", "c", nil)
	if err != nil {
		t.Fatal(err)
	}
	if v := poll(t, base, code.DeviceCode); v.Get("error") != "authorization_pending" {
		t.Errorf("first poll: %v", v)
	}
	now = now.Add(time.Second)
	if v := poll(t, base, code.DeviceCode); v.Get("error") != "slow_down" || v.Get("interval") != "10" {
		t.Errorf("too soon: %v, want slow_down with interval 10", v)
	}
	now = now.Add(11 * time.Second)
	approve(t, base, code.UserCode, "founder", "approve")
	if v := poll(t, base, code.DeviceCode); !strings.HasPrefix(v.Get("access_token"), "gho_") {
		t.Errorf("after approval: %v", v)
	}
	now = now.Add(11 * time.Second)
	if v := poll(t, base, code.DeviceCode); v.Get("error") != "incorrect_device_code" {
		t.Errorf("a used code: %v", v)
	}
	expiring, _ := device.RequestCode(http.DefaultClient, base+"/login/device/code", "c", nil)
	now = now.Add(2 * time.Minute)
	if v := poll(t, base, expiring.DeviceCode); v.Get("error") != "expired_token" {
		t.Errorf("an expired code: %v", v)
	}
	if st := approve(t, base, expiring.UserCode, "founder", "approve"); st != http.StatusGone {
		t.Errorf("approving an expired code: %d", st)
	}
	if _, err := device.RequestCode(http.DefaultClient, base+"/login/device/code", "off", nil); !errors.Is(err, device.ErrUnsupported) {
		t.Errorf("disabled app: %v, want device.ErrUnsupported", err)
	}
}

// TestDeviceCodeForUnknownClientRefused: a device code asked for a client
// id no OAuth App has is GitHub's 404 error=Not Found, which cli/oauth
// reads as ErrUnsupported; no code is handed out.
func TestDeviceCodeForUnknownClientRefused(t *testing.T) {
	t.Parallel()
	s, _, base := startValidated(t, sandbox.Options{ShareSeed: true, Device: &sandbox.DeviceOptions{Interval: 0, Expiry: time.Minute}})
	resp, err := http.PostForm(base+"/login/device/code", url.Values{"client_id": {"Ov23liNoSuchApp"}})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if v, _ := url.ParseQuery(string(b)); resp.StatusCode != http.StatusNotFound || v.Get("error") != "Not Found" || v.Get("device_code") != "" {
		t.Errorf("an unknown client id: %d %s", resp.StatusCode, b)
	}
	if _, err := device.RequestCode(http.DefaultClient, base+"/login/device/code", "Ov23liNoSuchApp", nil); !errors.Is(err, device.ErrUnsupported) {
		t.Errorf("cli/oauth on an unknown client id: %v, want device.ErrUnsupported", err)
	}
	if _, err := device.RequestCode(http.DefaultClient, base+"/login/device/code", sandbox.DeviceClientID, nil); err != nil {
		t.Errorf("the demo's App: %v", err)
	}
	_ = s
}
