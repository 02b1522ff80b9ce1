package ghx

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"log/slog"
	"strings"
	"testing"
)

func TestTokenNeverPrintsItsValue(t *testing.T) {
	t.Parallel()
	tok := NewToken(testTokenValue, "gh auth token")
	type holder struct {
		Exported Token
		hidden   Token
	}
	h := holder{Exported: tok, hidden: tok}
	ptr := &h

	cases := map[string]string{
		"%v":             fmt.Sprintf("%v", tok),
		"%+v":            fmt.Sprintf("%+v", tok),
		"%#v":            fmt.Sprintf("%#v", tok),
		"%s":             fmt.Sprintf("%s", tok),
		"%q":             fmt.Sprintf("%q", tok),
		"%x":             fmt.Sprintf("%x", tok),
		"%d":             fmt.Sprintf("%d", tok),
		"%10.3s":         fmt.Sprintf("%10.3s", tok),
		"Sprint":         fmt.Sprint(tok),
		"Sprintln":       fmt.Sprintln(tok, &tok),
		"struct %v":      fmt.Sprintf("%v", h),
		"struct %+v":     fmt.Sprintf("%+v", h),
		"struct %#v":     fmt.Sprintf("%#v", h),
		"pointer %+v":    fmt.Sprintf("%+v", ptr),
		"slice %v":       fmt.Sprintf("%v", []Token{tok}),
		"map %v":         fmt.Sprintf("%v", map[string]Token{"t": tok}),
		"any %v":         fmt.Sprintf("%v", []any{tok, &tok}),
		"String()":       tok.String(),
		"GoString()":     tok.GoString(),
		"wrapped error":  fmt.Errorf("calling GitHub with %v: %w", tok, errors.New("401")).Error(),
		"wrapped %w err": fmt.Errorf("outer: %w", fmt.Errorf("token %s refused", tok)).Error(),
	}
	js, err := json.Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	cases["json struct"] = string(js)
	text, _ := tok.MarshalText()
	cases["text"] = string(text)

	var logBuf bytes.Buffer
	log.New(&logBuf, "", 0).Printf("token %v %+v %s", tok, h, tok)
	cases["log"] = logBuf.String()
	var slogBuf bytes.Buffer
	slog.New(slog.NewJSONHandler(&slogBuf, nil)).Info("t", "token", tok, "holder", h)
	slog.New(slog.NewTextHandler(&slogBuf, nil)).Info("t", "token", tok, "holder", h)
	cases["slog"] = slogBuf.String()

	for name, out := range cases {
		assertNoToken(t, name, out)
		if name != "struct %v" && name != "struct %+v" && name != "struct %#v" && name != "pointer %+v" &&
			!strings.Contains(out, "gh auth token") {
			t.Errorf("%s: %q does not name the token's source", name, out)
		}
	}
	if got := tok.String(); got != "[token from gh auth token]" {
		t.Errorf("String() = %q", got)
	}
	if tok.Reveal() != testTokenValue || tok.Source() != "gh auth token" || tok.IsZero() {
		t.Error("Reveal/Source/IsZero do not report the token as given")
	}
}

func TestTokenZero(t *testing.T) {
	t.Parallel()
	for _, tok := range []Token{{}, NewToken("", "AAYU_GITHUB_TOKEN")} {
		if !tok.IsZero() || tok.Reveal() != "" || tok.String() != "[no token]" {
			t.Errorf("zero token misbehaves: %v", tok)
		}
	}
}

func TestFingerprintNamesWithoutRevealing(t *testing.T) {
	t.Parallel()
	a, b := NewToken("ghp_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "test"), NewToken("ghp_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", "test")
	again := NewToken("ghp_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "another source")
	if a.Fingerprint("inbox user") != again.Fingerprint("inbox user") {
		t.Fatal("the same token gives two fingerprints")
	}
	if a.Fingerprint("inbox user") == b.Fingerprint("inbox user") || a.Fingerprint("inbox user") == a.Fingerprint("other") {
		t.Fatal("fingerprints collide across tokens or purposes")
	}
	if strings.Contains(a.Fingerprint("inbox user"), "aaaa") {
		t.Fatal("the fingerprint shows the token")
	}
}
