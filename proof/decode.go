package proof

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// DecodeError is why pack.json was refused. Code tells callers and tests the
// class of refusal; Msg is a sentence a person reads.
type DecodeError struct {
	Code Code
	Msg  string
	Err  error // the underlying error, when there is one
}

// Error is Msg with any control character made visible: parts of it may be
// quoted from the hostile document.
func (e *DecodeError) Error() string { return escapeControls(e.Msg) }
func (e *DecodeError) Unwrap() error { return e.Err }

// Problem turns the refusal into a report line.
func (e *DecodeError) Problem() Problem {
	return Problem{Code: e.Code, Path: packFile, Message: e.Error()}
}

// ErrNewerSchema is wrapped by the DecodeError for a pack written by a newer
// aayu than this one.
var ErrNewerSchema = errors.New("pack schema newer than this aayu")

// Decode reads pack.json with the default limits. See DecodeLimited.
func Decode(data []byte) (*Pack, error) { return DecodeLimited(data, Limits{}) }

// DecodeLimited reads pack.json the careful way: it caps the size, refuses
// duplicate keys and trailing data, reads schema_version first, refuses a
// newer version with a hint to update, validates the document against that
// version's schema, and only then decodes it into a Pack. Every error is a
// *DecodeError.
func DecodeLimited(data []byte, lim Limits) (*Pack, error) {
	if derr := checkPackJSON(data, lim); derr != nil {
		return nil, derr
	}
	p, derr := decodeStrict(data)
	if derr != nil {
		return nil, derr
	}
	return p, nil
}

// checkPackJSON is everything DecodeLimited checks before the strict decode,
// in its order: the size cap, the duplicate-key scan, schema_version and the
// schema. A pack.json it accepts is refused after it only when decodeStrict
// refuses it.
func checkPackJSON(data []byte, lim Limits) *DecodeError {
	lim = lim.withDefaults()
	if int64(len(data)) > lim.PackJSONBytes {
		return &DecodeError{Code: CodeTooLarge, Msg: fmt.Sprintf(
			"pack.json is %d bytes; aayu reads at most %d.", len(data), lim.PackJSONBytes)}
	}
	if derr := scanPackJSON(data, lim.Artifacts); derr != nil {
		return derr
	}
	version, derr := readSchemaVersion(data)
	if derr != nil {
		return derr
	}
	if version > SchemaVersion {
		return &DecodeError{Code: CodeNewerSchema, Err: ErrNewerSchema, Msg: fmt.Sprintf(
			"pack.json is schema version %d and this aayu reads up to version %d; update aayu to read it: run aayu self-update, which installs aayu's newest release once its build attestation verifies.",
			version, SchemaVersion)}
	}
	validate, err := schemaFor(version)
	if err != nil {
		return &DecodeError{Code: CodeSchema, Err: err, Msg: fmt.Sprintf(
			"pack.json says schema version %d, which no aayu ever wrote.", version)}
	}
	if broken := validate(data); len(broken) > 0 {
		return &DecodeError{Code: CodeSchema, Err: errSchema, Msg: describeSchemaError(version, broken)}
	}
	return nil
}

// errSchema is wrapped by the DecodeError for a pack.json that breaks its
// schema.
var errSchema = errors.New("pack.json does not match its schema")

// decodeStrict decodes pack.json into a Pack, refusing any field the Pack
// type does not have. Alone it is not the careful decode: only after
// checkPackJSON accepts the same bytes is its Pack DecodeLimited's.
func decodeStrict(data []byte) (*Pack, *DecodeError) {
	var p Pack
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return nil, &DecodeError{Code: CodeMalformed, Err: err, Msg: "pack.json matches the schema but does not fit aayu's types: " + err.Error() + "."}
	}
	return &p, nil
}

// readSchemaVersion reads only schema_version, so a newer pack is named as
// newer rather than as a schema violation. data is well-formed JSON (the
// scan has passed). An object's top-level keys are walked over its bytes
// and matched as encoding/json matches a field (bytes.EqualFold, the last
// match kept), so the version read is the one json.Unmarshal would read
// (readSchemaVersionDecoded, which anything else goes through;
// TestReadSchemaVersionMatchesUnmarshal).
func readSchemaVersion(data []byte) (int, *DecodeError) {
	w := &schemaWalk{data: data}
	i := w.ws(0)
	if i >= len(data) || data[i] != '{' {
		return readSchemaVersionDecoded(data)
	}
	var schema []byte
	if !w.members(i, func(key []byte, vs, ve int) {
		if !plainKey(key) {
			key = []byte(decodeRawKey(key))
		}
		if bytes.EqualFold(key, []byte("schema_version")) {
			schema = data[vs:ve]
		}
	}) {
		return readSchemaVersionDecoded(data)
	}
	return schemaVersionOf(schema)
}

// readSchemaVersionDecoded is readSchemaVersion through json.Unmarshal.
func readSchemaVersionDecoded(data []byte) (int, *DecodeError) {
	var head struct {
		Schema json.RawMessage `json:"schema_version"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return 0, &DecodeError{Code: CodeMalformed, Err: err, Msg: "pack.json is not a JSON object: " + err.Error() + "."}
	}
	return schemaVersionOf(head.Schema)
}

// schemaVersionOf reads the schema_version value found (nil: none).
func schemaVersionOf(schema json.RawMessage) (int, *DecodeError) {
	if schema == nil {
		return 0, &DecodeError{Code: CodeSchema, Msg: "pack.json has no schema_version, so aayu cannot tell how to read it."}
	}
	var v int
	if err := json.Unmarshal(schema, &v); err != nil || v < 1 {
		return 0, &DecodeError{Code: CodeSchema, Msg: fmt.Sprintf(
			"pack.json's schema_version is %s; it must be a whole number from 1.", schema)}
	}
	return v, nil
}

// describeSchemaError lists the first few places the document breaks the
// schema, each with its JSON pointer.
func describeSchemaError(version int, broken []string) string {
	seen := map[string]bool{}
	var lines []string
	for _, b := range broken {
		line := escapeControls(b)
		if !seen[line] {
			seen[line] = true
			lines = append(lines, line)
		}
	}
	sort.Strings(lines)
	const most = 5
	more := ""
	if len(lines) > most {
		more = fmt.Sprintf(" (and %d more)", len(lines)-most)
		lines = lines[:most]
	}
	return fmt.Sprintf("pack.json does not match schema version %d: %s%s.", version, strings.Join(lines, "; "), more)
}

// Encode writes pack.json the way aayu always writes it: indented, with empty
// lists as [] rather than null, so the output validates against the schema.
func Encode(p *Pack) ([]byte, error) {
	out := *p
	out.Criteria = append(make([]Criterion, 0, len(p.Criteria)), p.Criteria...)
	for i := range out.Criteria {
		if out.Criteria[i].Evidence == nil {
			out.Criteria[i].Evidence = []string{}
		}
	}
	if out.Artifacts == nil {
		out.Artifacts = []Artifact{}
	}
	if out.Checks == nil {
		out.Checks = []Check{}
	}
	data, err := json.MarshalIndent(&out, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encoding pack.json for story %d: %w", p.Story, err)
	}
	return append(data, '\n'), nil
}
