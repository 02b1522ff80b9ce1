package attest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	intoto "github.com/in-toto/attestation/go/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/aayudha/aayu/proof"
)

// The Statement through in-toto's own Go types (protobuf messages): what
// an outside tool reads a Statement with, kept here as the oracle
// StatementJSON is held to, and to read a Statement back in the tests.

// Statement is pack.json as an in-toto Statement v1: its subjects are
// pack.json (sha256 of its bytes) and the pull request's head commit
// (gitCommit), its predicate the pack itself. packJSON must be the bytes
// aayu writes (proof.Encode): only then does the Statement give back the
// same bytes (PackFromStatement).
func Statement(packJSON []byte) (*intoto.Statement, error) {
	p, err := proof.Decode(packJSON)
	if err != nil {
		return nil, fmt.Errorf("reading pack.json for its statement: %w", err)
	}
	again, err := proof.Encode(p)
	if err != nil {
		return nil, err
	}
	if !bytes.Equal(again, packJSON) {
		// A Statement carries the pack as a JSON object; bytes aayu did
		// not write could not be given back as they were, so the subject
		// digest and the predicate would disagree.
		return nil, errors.New("pack.json is not in the form aayu writes (indented as proof.Encode writes it), so its statement could not give back the same bytes")
	}
	pred := &structpb.Struct{}
	if err := protojson.Unmarshal(packJSON, pred); err != nil {
		return nil, fmt.Errorf("pack.json as a predicate: %w", err)
	}
	sum := sha256.Sum256(packJSON)
	subjects := []*intoto.ResourceDescriptor{{Name: PackSubjectName, Digest: map[string]string{"sha256": hex.EncodeToString(sum[:])}}}
	if p.PRHeadSHA != "" {
		subjects = append(subjects, &intoto.ResourceDescriptor{Name: headSubjectName(p.Repo), Digest: map[string]string{"gitCommit": p.PRHeadSHA}})
	}
	st := &intoto.Statement{Type: intoto.StatementTypeUri, Subject: subjects, PredicateType: PredicateType, Predicate: pred}
	if err := st.Validate(); err != nil {
		return nil, fmt.Errorf("the pack's statement is not a valid in-toto Statement: %w", err)
	}
	return st, nil
}

// intotoStatementJSON is Statement written as JSON, indented the same
// way on every run (protojson varies its spacing on purpose, so it is
// re-indented).
func intotoStatementJSON(packJSON []byte) ([]byte, error) {
	st, err := Statement(packJSON)
	if err != nil {
		return nil, err
	}
	return MarshalStatement(st)
}

// MarshalStatement writes a Statement as stable, indented JSON.
func MarshalStatement(st *intoto.Statement) ([]byte, error) {
	raw, err := protojson.Marshal(st)
	if err != nil {
		return nil, fmt.Errorf("writing the statement: %w", err)
	}
	var out bytes.Buffer
	if err := json.Indent(&out, raw, "", "  "); err != nil {
		return nil, fmt.Errorf("writing the statement: %w", err)
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// ParseStatement reads an in-toto Statement v1 and checks it is one.
func ParseStatement(b []byte) (*intoto.Statement, error) {
	if len(b) > MaxStatementBytes {
		return nil, fmt.Errorf("the statement is %d bytes, more than %d", len(b), MaxStatementBytes)
	}
	st := &intoto.Statement{}
	if err := protojson.Unmarshal(b, st); err != nil {
		return nil, fmt.Errorf("the statement is not an in-toto Statement: %w", err)
	}
	if err := st.Validate(); err != nil {
		return nil, fmt.Errorf("the statement is not a valid in-toto Statement: %w", err)
	}
	return st, nil
}

// PackFromStatement gives back pack.json from a Statement of aayudha's
// predicate type: the bytes aayu writes for the pack the predicate holds,
// byte for byte the pack.json the Statement was made from.
func PackFromStatement(st *intoto.Statement) ([]byte, *proof.Pack, error) {
	if st.GetPredicateType() != PredicateType {
		return nil, nil, fmt.Errorf("the statement's predicate type is %q, not aayudha's proof pack (%s)", st.GetPredicateType(), PredicateType)
	}
	if st.GetPredicate() == nil {
		return nil, nil, errors.New("the statement has no predicate")
	}
	raw, err := protojson.Marshal(st.GetPredicate())
	if err != nil {
		return nil, nil, fmt.Errorf("reading the statement's predicate: %w", err)
	}
	p, err := proof.Decode(raw)
	if err != nil {
		return nil, nil, fmt.Errorf("the statement's predicate is not a pack: %w", err)
	}
	b, err := proof.Encode(p)
	if err != nil {
		return nil, nil, err
	}
	return b, p, nil
}

// SubjectDigests lists the digests a Statement's subjects give for
// algorithm alg ("sha256", "gitCommit").
func SubjectDigests(st *intoto.Statement, alg string) []string {
	var out []string
	for _, s := range st.GetSubject() {
		if d := s.GetDigest()[alg]; d != "" {
			out = append(out, d)
		}
	}
	return out
}

// TestStatementJSONIsWhatInTotosTypesWrite: StatementJSON, on the standard
// library, writes byte for byte what in-toto's protobuf types write
// through protojson, for the demo pack and for packs whose strings and
// numbers are where two JSON writers differ (HTML characters, DEL, line
// and paragraph separators, control characters, non-ASCII, large and
// small numbers).
func TestStatementJSONIsWhatInTotosTypesWrite(t *testing.T) {
	base := demoPack(t)
	packs := map[string][]byte{"the demo pack": base}
	for name, s := range map[string]string{
		"HTML characters":    "<a href='x'>&amp;</a>",
		"DEL and controls":   "a\x7fb\x01c\x1fd\te\nf\rg\bh\fi",
		"line separators":    "a\u2028b\u2029c",
		"non-ASCII":          "héllo ✓ 日本 \U0001F600",
		"quotes and escapes": `"q" \ \u0041`,
	} {
		p, err := proof.Decode(base)
		if err != nil {
			t.Fatal(err)
		}
		p.Model = s
		p.Host = s
		b, err := proof.Encode(p)
		if err != nil {
			t.Fatal(err)
		}
		packs[name] = b
	}
	var m map[string]any
	if err := json.Unmarshal(base, &m); err != nil {
		t.Fatal(err)
	}
	for name, pack := range packs {
		want, werr := intotoStatementJSON(pack)
		got, gerr := StatementJSON(pack)
		if (werr == nil) != (gerr == nil) || !bytes.Equal(got, want) {
			t.Errorf("%s: StatementJSON (%v) differs from in-toto's (%v):\n got %s\nwant %s", name, gerr, werr, got, want)
		}
	}
	// Numbers: the predicate's numbers are doubles to both writers.
	for _, n := range []string{"0", "1", "-3", "1234567", "12345678901234567890", "1e21", "1.5e-7", "0.000001", "3.25"} {
		var v any
		if err := json.Unmarshal([]byte(n), &v); err != nil {
			t.Fatal(err)
		}
		got, err := appendProtoJSON(nil, v)
		if err != nil {
			t.Fatal(err)
		}
		want, err := protojson.Marshal(structpb.NewNumberValue(v.(float64)))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(bytes.TrimSpace(want)) {
			t.Errorf("the number %s is written %s, protojson writes %s", n, got, want)
		}
	}
}
