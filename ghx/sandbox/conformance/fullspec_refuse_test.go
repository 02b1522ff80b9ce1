package conformance_test

import (
	"net/http"
	"strings"
	"testing"
)

// TestFullDescriptionRefusesWhatGitHubWouldNotSend shows the kin-openapi
// check against GitHub's full description fails what GitHub would not
// send, so that its passing the sandbox's answers means something.
func TestFullDescriptionRefusesWhatGitHubWouldNotSend(t *testing.T) {
	fs := needFullSpec(t)
	jsonHeader := http.Header{"Content-Type": {"application/json; charset=utf-8"}}
	ref := `{"ref":"refs/heads/main","node_id":"n","url":"https://h/x","object":{"type":"commit","sha":"0123456789012345678901234567890123456789","url":"https://h/y"}}`
	cases := []struct {
		name    string
		x       exchange
		wantErr string // "" when it must pass
	}{
		{"a conforming ref", exchange{Method: "GET", Path: "/repos/acme/benefits/git/ref/heads/story/3-x", Status: 200, Header: jsonHeader, Body: []byte(ref)}, ""},
		{"a generic 401 as basic-error", exchange{Method: "GET", Path: "/repos/acme/benefits/pulls/4/files", Status: 401, Header: jsonHeader, Body: []byte(`{"message":"Bad credentials","documentation_url":"https://docs.github.com/rest"}`)}, ""},
		{"missing required field", exchange{Method: "GET", Path: "/repos/acme/benefits/git/ref/heads/main", Status: 200, Header: jsonHeader, Body: []byte(strings.Replace(ref, `"node_id":"n",`, "", 1))}, "node_id"},
		{"wrong type", exchange{Method: "GET", Path: "/rate_limit", Status: 200, Header: jsonHeader, Body: []byte(`{"rate":{"limit":"many","remaining":1,"reset":1,"used":1},"resources":{"core":{"limit":1,"remaining":1,"reset":1,"used":1},"search":{"limit":1,"remaining":1,"reset":1,"used":1}}}`)}, "limit"},
		{"a relative URL where GitHub's are absolute", exchange{Method: "GET", Path: "/repos/acme/benefits/git/ref/heads/main", Status: 200, Header: jsonHeader, Body: []byte(strings.Replace(ref, `"url":"https://h/x"`, `"url":"/x"`, 1))}, "absolute"},
		{"undescribed status", exchange{Method: "PUT", Path: "/repos/acme/benefits/pulls/4/merge", Status: 418, Header: jsonHeader, Body: []byte(`{}`)}, "status is not supported"},
		{"unknown operation", exchange{Method: "GET", Path: "/repos/acme/benefits/teleport", Status: 200, Header: jsonHeader, Body: []byte(`{}`)}, "no operation"},
		{"a body on 304", exchange{Method: "GET", Path: "/repos/acme/benefits/issues/1", Status: 304, Header: http.Header{}, Body: []byte(`{}`)}, "body"},
		{"a body that is not JSON", exchange{Method: "GET", Path: "/user", Status: 200, Header: jsonHeader, Body: []byte(`<html>`)}, "body"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := fs.validate(c.x)
			switch {
			case c.wantErr == "" && err != nil:
				t.Errorf("validate: %v", err)
			case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
				t.Errorf("validate = %v, want an error mentioning %q", err, c.wantErr)
			}
		})
	}
}
