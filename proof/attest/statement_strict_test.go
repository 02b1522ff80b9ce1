package attest

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/aayudha/aayu/ghx/sandbox/vsigstore"
)

// signStatement signs the Statement actions/attest makes of the demo pack
// after edit changed its bytes, with the merge gate's identity: what a
// Statement that protojson would not read looks like once signed.
func signStatement(t *testing.T, edit func([]byte) []byte) signed {
	t.Helper()
	s := sign(t, nil, nil)
	st, err := vsigstore.ActionsStatement("pack.json", s.pack, PredicateType, s.pack)
	if err != nil {
		t.Fatal(err)
	}
	ss, err := vsigstore.New(time.Now)
	if err != nil {
		t.Fatal(err)
	}
	b, err := ss.Attest(edit(st), gateClaims())
	if err != nil {
		t.Fatal(err)
	}
	s.ss, s.bundle = ss, b
	return s
}

// The Statement's predicate is read from the verified payload, not from
// sigstore-go's protobuf of it (verify.WithoutStatementPredicate), so the
// strictness that parse had is kept on the payload: each of these is
// refused, and the unedited Statement is taken.
func TestVerifyTakesTheStatementActionsAttestWrites(t *testing.T) {
	s := signStatement(t, func(b []byte) []byte { return b })
	if _, err := Verify(s.ss.TrustedRoot(), s.bundle, s.expects); err != nil {
		t.Fatalf("the Statement as actions/attest writes it is refused: %v", err)
	}
}

func TestVerifyRefusesAStatementWithARepeatedKey(t *testing.T) {
	// The first predicateType names another predicate; Go's decoder would
	// keep the second, another reader the first.
	refused(t, signStatement(t, func(b []byte) []byte {
		return bytes.Replace(b, []byte(`"predicateType":`), []byte(`"predicateType":"https://slsa.dev/provenance/v1","predicateType":`), 1)
	}), `not a well-formed in-toto Statement: the Statement repeats the key "predicateType"`)
}

func TestVerifyRefusesAStatementWithAFieldAStatementDoesNotHave(t *testing.T) {
	refused(t, signStatement(t, func(b []byte) []byte {
		return bytes.Replace(b, []byte(`"predicateType":`), []byte(`"predicateTypes":["x"],"predicateType":`), 1)
	}), `not a well-formed in-toto Statement: json: unknown field "predicateTypes"`)
}

func TestVerifyRefusesAStatementThatIsNotStatementV1(t *testing.T) {
	refused(t, signStatement(t, func(b []byte) []byte {
		return bytes.Replace(b, []byte(`"https://in-toto.io/Statement/v1"`), []byte(`"https://in-toto.io/Statement/v0.1"`), 1)
	}), `its _type is "https://in-toto.io/Statement/v0.1", not https://in-toto.io/Statement/v1`)
}

func TestVerifyRefusesAStatementThatIsNotUTF8(t *testing.T) {
	refused(t, signStatement(t, func(b []byte) []byte {
		return bytes.Replace(b, []byte(`"name":"pack.json"`), []byte("\"name\":\"pack\xff.json\""), 1)
	}), "not a well-formed in-toto Statement: it is not valid UTF-8")
}

func TestVerifyRefusesAPredicateThatIsNotAnObject(t *testing.T) {
	refused(t, signStatement(t, func(b []byte) []byte {
		i := bytes.Index(b, []byte(`"predicate":`))
		return append(b[:i:i], []byte(`"predicate":[1]}`)...)
	}), "not a well-formed in-toto Statement: json: cannot unmarshal array into Go struct field statementShape.predicate of type proof.Pack")
}

// TestVerifyRefusesAPredicateWithAFieldAPackDoesNotHave: the predicate is
// read as strictly as pack.json itself, so a field pack.json could not
// carry is refused, not dropped on the way to the comparison.
func TestVerifyRefusesAPredicateWithAFieldAPackDoesNotHave(t *testing.T) {
	refused(t, signStatement(t, func(b []byte) []byte {
		return bytes.Replace(b, []byte(`"predicate":{`), []byte(`"predicate":{"approved_by":"mallory",`), 1)
	}), `not a well-formed in-toto Statement: json: unknown field "approved_by"`)
}

// TestVerifyRefusesAStatementWhoseSubjectIsAnotherPackJSON: the predicate
// is this pack.json, but the subject the signature speaks for names
// another file's digest. checkStatement holds the subjects to pack.json's
// digest (sigstore-go is asked for the signature, not the subjects), so
// this is refused in words, before the predicate is compared.
func TestVerifyRefusesAStatementWhoseSubjectIsAnotherPackJSON(t *testing.T) {
	s := sign(t, nil, nil)
	other := strings.Repeat("0", 64)
	refused(t, signStatement(t, func(b []byte) []byte {
		return bytes.Replace(b, []byte(s.sum), []byte(other), 1)
	}), "signs another pack.json (sha256 "+other[:7])
}

// TestVerifyRefusesAStatementThatNamesItsPredicateTwice: one of the two is
// this pack.json; Go's decoder would keep the second, another reader the
// first, so the Statement is refused whichever this pack is.
func TestVerifyRefusesAStatementThatNamesItsPredicateTwice(t *testing.T) {
	for _, pack := range []string{"first", "second"} {
		t.Run(pack, func(t *testing.T) {
			refused(t, signStatement(t, func(b []byte) []byte {
				i := bytes.Index(b, []byte(`"predicate":`))
				other := `"predicate":{"schema_version":1},`
				if pack == "first" {
					return append(b[:len(b)-1:len(b)-1], []byte(`,"predicate":{"schema_version":1}}`)...)
				}
				return append(append(b[:i:i], other...), b[i:]...)
			}), `the Statement repeats the key "predicate"`)
		})
	}
}
