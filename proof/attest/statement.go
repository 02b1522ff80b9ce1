package attest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"

	intoto "github.com/in-toto/attestation/go/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/aayudha/aayu/proof"
)

// PredicateType names aayudha's proof pack as an in-toto predicate: the
// predicate is pack.json v1, unchanged. The version follows pack.json's
// schema_version.
const PredicateType = "https://aayudha.dev/proof-pack/v1"

// PackSubjectName is the subject name of pack.json: the file's base name,
// which is also what actions/attest names a subject-path subject.
const PackSubjectName = "pack.json"

// MaxStatementBytes caps a Statement read from outside: pack.json's own cap
// plus room for the envelope around it.
const MaxStatementBytes = proof.DefaultPackJSONBytes + 64<<10

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

// headSubjectName names the head commit's subject as a git URL of the
// repository the pack names, the form in-toto's gitCommit examples use.
func headSubjectName(repo string) string {
	if repo == "" {
		return "pr_head_sha"
	}
	return "git+https://github.com/" + repo
}

// StatementJSON is Statement written as JSON, indented the same way on
// every run (protojson varies its spacing on purpose, so it is re-indented).
func StatementJSON(packJSON []byte) ([]byte, error) {
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
