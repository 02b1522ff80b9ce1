package sigstore_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/aayudha/aayu/proof/sigstore"
)

// payloadOf is the sandbox bundle's envelope payload as its JSON spells
// it (base64), to edit the bundle's bytes in place.
func payloadOf(t *testing.T, bundle []byte) string {
	t.Helper()
	var b struct {
		DSSEEnvelope struct {
			Payload string `json:"payload"`
		} `json:"dsseEnvelope"`
	}
	if err := json.Unmarshal(bundle, &b); err != nil || b.DSSEEnvelope.Payload == "" {
		t.Fatalf("no payload in the fixture: %v", err)
	}
	return b.DSSEEnvelope.Payload
}

// A bundle is read around its payload (the base64 cut out and decoded
// once); each way the payload's string can be spelt must get the answer
// reading it whole gives, and never take what sigstore-go refuses: these
// are the spellings that path leaves to the whole read, and those it must
// not take.
func TestABundlesPayloadIsReadAsItsJSONSpellsIt(t *testing.T) {
	t.Parallel()
	own, _ := sandboxFixture(t, nil, `{"a":"b/c?d"}`)
	p := payloadOf(t, own.bundle)
	if !strings.Contains(p, "/") {
		t.Fatalf("the fixture's payload has no / to escape: %s", p)
	}
	tr, err := sigstore.ParseTrustedRoot(own.trusted)
	if err != nil {
		t.Fatal(err)
	}
	want, err := sigstore.Verify(tr, own.bundle)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name    string
		payload string
		takes   bool
		words   string
	}{
		{"escaped solidus", strings.ReplaceAll(p, "/", `\/`), true, ""},
		{"a letter as \\u escape", `\u00` + hexOf(p[0]) + p[1:], true, ""},
		{"a raw line break", p[:8] + "\n" + p[8:], false, "invalid character '\\n' in string literal"},
		{"a raw carriage return", p[:8] + "\r" + p[8:], false, "invalid character '\\r' in string literal"},
		{"a byte no base64 has", p[:8] + "!" + p[9:], false, "illegal base64 data"},
		// encoding/json's base64 skips line breaks; sigstore-go does not.
		{"an escaped line break", p[:8] + `\n` + p[8:], false, "holds a line break"},
		{"an escaped carriage return", p[:8] + `\r` + p[8:], false, "holds a line break"},
		// protojson takes base64 without its padding; encoding/json's
		// reading of bytes, and so this package, does not.
		{"no padding", strings.TrimRight(p, "="), strings.TrimRight(p, "=") == p, "illegal base64 data"},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := bytes.Replace(own.bundle, []byte(`"`+p+`"`), []byte(`"`+c.payload+`"`), 1)
			res, got := sigstore.Verify(tr, b)
			if want := oracle(own.trusted, b); got == nil && want != nil {
				t.Fatalf("this package takes a bundle sigstore-go refuses: %v", want)
			}
			if !c.takes {
				var nb *sigstore.NotABundle
				if got == nil || !errors.As(got, &nb) || !strings.Contains(got.Error(), c.words) {
					t.Fatalf("got %v, want a bundle refused as no bundle, saying %q", got, c.words)
				}
				return
			}
			if got != nil {
				t.Fatalf("refused: %v", got)
			}
			if !bytes.Equal(res.Payload, want.Payload) {
				t.Fatalf("the payload read %q, want %q", res.Payload, want.Payload)
			}
		})
	}
}

func hexOf(c byte) string { return "0123456789abcdef"[c>>4:c>>4+1] + "0123456789abcdef"[c&15:c&15+1] }

// TestABundleThatNamesItsPayloadTwiceIsRefused: the payload cut out is
// the one named, so a second is refused as a repeated key, whichever of
// the two would be signed.
func TestABundleThatNamesItsPayloadTwiceIsRefused(t *testing.T) {
	t.Parallel()
	own, _ := sandboxFixture(t, nil, `{"a":1}`)
	p := payloadOf(t, own.bundle)
	tr, err := sigstore.ParseTrustedRoot(own.trusted)
	if err != nil {
		t.Fatal(err)
	}
	b := bytes.Replace(own.bundle, []byte(`"payload":"`+p+`"`), []byte(`"payload":"`+p+`","payload":"`+p+`"`), 1)
	if _, err := sigstore.Verify(tr, b); err == nil || !strings.Contains(err.Error(), `repeats the key "payload"`) {
		t.Fatalf("got %v, want the repeated payload refused", err)
	}
}

// TestVerifyExpectingReadsTheSummaryVerifyReads: told the predicate it
// expects, the verifier gives the same summary, and says whether the
// predicate was it (the whitespace between tokens aside).
func TestVerifyExpectingReadsTheSummaryVerifyReads(t *testing.T) {
	t.Parallel()
	own, _ := sandboxFixture(t, nil, `{"a":1}`)
	tr, err := sigstore.ParseTrustedRoot(own.trusted)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := sigstore.Verify(tr, own.bundle)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		expected string
		same     bool
	}{{"{\n  \"a\": 1\n}\n", true}, {`{"a":1}`, true}, {`{"a":2}`, false}, {`{"a":1,"b":2}`, false}} {
		res, err := sigstore.VerifyExpecting(tr, own.bundle, []byte(c.expected))
		if err != nil {
			t.Fatal(err)
		}
		st := *res.Statement
		if st.SamePredicate != c.same || (c.same != (st.Rest != nil)) {
			t.Errorf("expecting %s: SamePredicate %v (rest %s), want %v", c.expected, st.SamePredicate, st.Rest, c.same)
		}
		st.SamePredicate, st.Rest = false, nil
		if !reflect.DeepEqual(&st, plain.Statement) {
			t.Errorf("expecting %s: summary %+v, Verify's %+v", c.expected, st, *plain.Statement)
		}
	}
}
