package attest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"

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

// headSubjectName names the head commit's subject as a git URL of the
// repository the pack names, the form in-toto's gitCommit examples use.
func headSubjectName(repo string) string {
	if repo == "" {
		return "pr_head_sha"
	}
	return "git+https://github.com/" + repo
}

// StatementJSON is pack.json as an in-toto Statement v1, written as JSON
// indented the same way on every run: its subjects are pack.json (sha256
// of its bytes) and the pull request's head commit (gitCommit), its
// predicate the pack itself. packJSON must be the bytes aayu writes
// (proof.Encode): only then does the Statement give back the same bytes.
//
// It writes what in-toto's own Go types write through protojson (the
// predicate as a protobuf Struct: keys sorted, numbers as doubles), byte
// for byte (TestStatementJSONIsWhatInTotosTypesWrite), on the standard
// library: in-toto's types are protobuf messages, and protobuf's package
// inits ran at every start of aayu.
func StatementJSON(packJSON []byte) ([]byte, error) {
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
	dec := json.NewDecoder(bytes.NewReader(packJSON))
	var pred any
	if err := dec.Decode(&pred); err != nil {
		return nil, fmt.Errorf("pack.json as a predicate: %w", err)
	}
	if _, ok := pred.(map[string]any); !ok {
		return nil, errors.New("pack.json as a predicate: it is not a JSON object")
	}
	sum := sha256.Sum256(packJSON)
	// A subject's fields in the order protojson writes a
	// ResourceDescriptor's: name, then digest.
	subject := func(out []byte, name, alg, digest string) ([]byte, error) {
		out = append(out, `{"name":`...)
		out, err := appendProtoString(out, name)
		if err != nil {
			return nil, err
		}
		out = append(out, `,"digest":{"`+alg+`":`...)
		out, err = appendProtoString(out, digest)
		return append(out, "}}"...), err
	}
	var raw []byte
	raw = append(raw, `{"_type":`...)
	raw, _ = appendProtoString(raw, statementTypeURI)
	raw = append(raw, `,"subject":[`...)
	if raw, err = subject(raw, PackSubjectName, "sha256", hex.EncodeToString(sum[:])); err != nil {
		return nil, err
	}
	if p.PRHeadSHA != "" {
		// in-toto's rule for a gitCommit digest: hex of a SHA-1 (20 bytes).
		if b, err := hex.DecodeString(p.PRHeadSHA); err != nil || len(b) != 20 {
			return nil, fmt.Errorf("the pack's statement is not a valid in-toto Statement: its head %q is not a gitCommit digest", p.PRHeadSHA)
		}
		raw = append(raw, ',')
		if raw, err = subject(raw, headSubjectName(p.Repo), "gitCommit", p.PRHeadSHA); err != nil {
			return nil, err
		}
	}
	raw = append(raw, `],"predicateType":`...)
	raw, _ = appendProtoString(raw, PredicateType)
	raw = append(raw, `,"predicate":`...)
	if raw, err = appendProtoJSON(raw, pred); err != nil {
		return nil, fmt.Errorf("writing the statement: %w", err)
	}
	raw = append(raw, '}')
	var out bytes.Buffer
	if err := json.Indent(&out, raw, "", "  "); err != nil {
		return nil, fmt.Errorf("writing the statement: %w", err)
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// appendProtoJSON writes v (what encoding/json decodes into any) as
// protojson writes a google.protobuf.Value: object keys sorted, numbers
// as encoding/json writes a float64, strings escaped as protojson escapes
// them (control characters, nothing else).
func appendProtoJSON(out []byte, v any) ([]byte, error) {
	var err error
	switch v := v.(type) {
	case nil:
		return append(out, "null"...), nil
	case bool:
		return strconv.AppendBool(out, v), nil
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, errors.New("a number JSON cannot hold")
		}
		f := byte('f')
		if a := math.Abs(v); a != 0 && (a < 1e-6 || a >= 1e21) {
			f = 'e'
		}
		out = strconv.AppendFloat(out, v, f, -1, 64)
		if f == 'e' {
			// e-07 is written e-7, as encoding/json and protojson do.
			if n := len(out); n >= 4 && out[n-4] == 'e' && out[n-3] == '-' && out[n-2] == '0' {
				out[n-2] = out[n-1]
				out = out[:n-1]
			}
		}
		return out, nil
	case string:
		return appendProtoString(out, v)
	case []any:
		out = append(out, '[')
		for i, e := range v {
			if i > 0 {
				out = append(out, ',')
			}
			if out, err = appendProtoJSON(out, e); err != nil {
				return nil, err
			}
		}
		return append(out, ']'), nil
	case map[string]any:
		out = append(out, '{')
		for i, k := range slices.Sorted(maps.Keys(v)) {
			if i > 0 {
				out = append(out, ',')
			}
			if out, err = appendProtoString(out, k); err != nil {
				return nil, err
			}
			out = append(out, ':')
			if out, err = appendProtoJSON(out, v[k]); err != nil {
				return nil, err
			}
		}
		return append(out, '}'), nil
	}
	return nil, fmt.Errorf("a %T in a JSON value", v)
}

func appendProtoString(out []byte, s string) ([]byte, error) {
	if !utf8.ValidString(s) {
		return nil, errors.New("a string that is not valid UTF-8")
	}
	out = append(out, '"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			out = append(out, '\\', byte(r))
		case r == '\b':
			out = append(out, `\b`...)
		case r == '\f':
			out = append(out, `\f`...)
		case r == '\n':
			out = append(out, `\n`...)
		case r == '\r':
			out = append(out, `\r`...)
		case r == '\t':
			out = append(out, `\t`...)
		case r < ' ':
			out = append(out, `\u00`...)
			out = append(out, "0123456789abcdef"[r>>4], "0123456789abcdef"[r&0xf])
		default:
			out = utf8.AppendRune(out, r)
		}
	}
	return append(out, '"'), nil
}
