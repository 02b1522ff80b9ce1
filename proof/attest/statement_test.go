package attest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aayudha/aayu/proof"
)

// demoPack is a pack.json aayu wrote (proof.Encode's form).
func demoPack(t testing.TB) []byte {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "testdata", "packs", "story131.json"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := proof.Decode(raw)
	if err != nil {
		t.Fatal(err)
	}
	b, err := proof.Encode(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestStatementSubjectsArePackAndHead(t *testing.T) {
	packJSON := demoPack(t)
	st, err := Statement(packJSON)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(packJSON)
	if got := SubjectDigests(st, "sha256"); len(got) != 1 || got[0] != hex.EncodeToString(sum[:]) {
		t.Fatalf("sha256 subjects %v, want pack.json's digest", got)
	}
	if st.GetSubject()[0].GetName() != "pack.json" {
		t.Fatalf("first subject named %q", st.GetSubject()[0].GetName())
	}
	if got := SubjectDigests(st, "gitCommit"); len(got) != 1 || got[0] != "b046d1a1d113339eb80e130c9dc0008fa223e76f" {
		t.Fatalf("gitCommit subjects %v, want the pack's head", got)
	}
	if st.GetPredicateType() != PredicateType || st.GetType() != "https://in-toto.io/Statement/v1" {
		t.Fatalf("type %q predicate type %q", st.GetType(), st.GetPredicateType())
	}
}

func TestStatementRoundTripIsByteIdentical(t *testing.T) {
	packJSON := demoPack(t)
	out, err := StatementJSON(packJSON)
	if err != nil {
		t.Fatal(err)
	}
	again, err := StatementJSON(packJSON)
	if err != nil || !bytes.Equal(out, again) {
		t.Fatalf("two runs printed different statements (err %v)", err)
	}
	st, err := ParseStatement(out)
	if err != nil {
		t.Fatal(err)
	}
	back, _, err := PackFromStatement(st)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(back, packJSON) {
		t.Fatalf("the round trip changed pack.json:\n%s\nwant\n%s", back, packJSON)
	}
}

func TestStatementRefusesBytesAayuDidNotWrite(t *testing.T) {
	packJSON := demoPack(t)
	compact := bytes.ReplaceAll(packJSON, []byte("\n  "), []byte("\n "))
	if _, err := Statement(compact); err == nil || !strings.Contains(err.Error(), "not in the form aayu writes") {
		t.Fatalf("got %v, want a refusal of bytes that would not round-trip", err)
	}
}

func TestPackFromStatementRefusesAnotherPredicateType(t *testing.T) {
	st, err := Statement(demoPack(t))
	if err != nil {
		t.Fatal(err)
	}
	st.PredicateType = "https://slsa.dev/provenance/v1"
	if _, _, err := PackFromStatement(st); err == nil || !strings.Contains(err.Error(), "not aayudha's proof pack") {
		t.Fatalf("got %v", err)
	}
}

// FuzzStatementRoundTrip: every pack.json aayu writes comes back from its
// Statement byte for byte.
func FuzzStatementRoundTrip(f *testing.F) {
	f.Add(demoPack(f))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := proof.Decode(data)
		if err != nil {
			return
		}
		packJSON, err := proof.Encode(p)
		if err != nil {
			return
		}
		out, err := StatementJSON(packJSON)
		if err != nil {
			t.Fatalf("a pack aayu writes has no statement: %v", err)
		}
		st, err := ParseStatement(out)
		if err != nil {
			t.Fatal(err)
		}
		back, _, err := PackFromStatement(st)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(back, packJSON) {
			t.Fatalf("round trip changed pack.json")
		}
	})
}
