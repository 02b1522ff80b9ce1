package proof

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// The pack schema is checked in aayu by hand (validatePackV1), so neither
// a JSON Schema library nor its meta-schemas are in the binary. These tests
// hold the hand-written check to a JSON Schema validator of the embedded
// schema/pack.v1.json (santhosh-tekuri/jsonschema, draft 2020-12, formats
// asserted, as aayu used before): they must accept and refuse the same
// documents, and name the same places.

var oracleSchemaV1 = sync.OnceValues(func() (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(packSchemaV1JSON))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	if err := c.AddResource("pack.v1.json", doc); err != nil {
		return nil, err
	}
	return c.Compile("pack.v1.json")
})

// oracleLocations is where the JSON Schema validator finds data breaking
// the schema (its leaf errors' instance locations), or nil when it meets
// it; ok is false when data is not JSON it reads.
func oracleLocations(t testing.TB, data []byte) (locs []string, ok bool) {
	t.Helper()
	schema, err := oracleSchemaV1()
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil, false
	}
	err = schema.Validate(doc)
	if err == nil {
		return nil, true
	}
	verr, isV := err.(*jsonschema.ValidationError)
	if !isV {
		t.Fatalf("the oracle failed: %v", err)
	}
	seen := map[string]bool{}
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		for _, c := range e.Causes {
			walk(c)
		}
		if len(e.Causes) == 0 {
			loc := "/" + strings.Join(e.InstanceLocation, "/")
			if !seen[loc] {
				seen[loc] = true
				locs = append(locs, loc)
			}
		}
	}
	walk(verr)
	return locs, true
}

func handLocations(data []byte) []string {
	seen := map[string]bool{}
	var locs []string
	for _, b := range validatePackV1(data) {
		loc, _, _ := strings.Cut(b, ": ")
		if !seen[loc] {
			seen[loc] = true
			locs = append(locs, loc)
		}
	}
	return locs
}

// agreeWithOracle fails when the hand check and the JSON Schema validator
// disagree on data: one accepts what the other refuses, or they name
// different places.
func agreeWithOracle(t testing.TB, data []byte) {
	t.Helper()
	if scanPackJSON(data, -1) != nil {
		return // refused before the schema is consulted
	}
	want, ok := oracleLocations(t, data)
	if !ok {
		return
	}
	got := handLocations(data)
	if (len(want) == 0) != (len(got) == 0) {
		t.Fatalf("the JSON Schema validator finds %q, the hand check %q (%s)\n%s", want, validatePackV1(data), describeDiffLen(want, got), clipForLog(data))
	}
	if strings.Join(sortedCopy(want), " ") != strings.Join(sortedCopy(got), " ") {
		t.Fatalf("the JSON Schema validator finds breaks at %q, the hand check at %q: %q\n%s", want, got, validatePackV1(data), clipForLog(data))
	}
}

func describeDiffLen(want, got []string) string {
	if len(want) == 0 {
		return "the validator accepts, the hand check refuses"
	}
	return "the validator refuses, the hand check accepts"
}

func sortedCopy(ss []string) []string {
	out := append([]string(nil), ss...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

func clipForLog(data []byte) string {
	if len(data) > 2000 {
		return string(data[:2000]) + "…"
	}
	return string(data)
}

// schemaMutations are ways of breaking (or nearly breaking) each kind of
// value the schema constrains, as text to put in a value's place.
var schemaMutations = []string{
	`null`, `true`, `false`, `0`, `1`, `-1`, `1.0`, `1.5`, `1e2`, `1E0`, `-0`, `0.0`, `2147483647`, `2147483648`,
	`100000`, `100001`, `9007199254740991`, `9007199254740992`, `1e400`, `-1e-400`, `123456789012345678901234567890`,
	`""`, `"a"`, `"x/y"`, `"/x"`, `"\\x"`, `"a\\\\b"`, `"a\\/b"`, `"\u00e9"`, `"\ud83d\ude00"`, `"\u001b[2J"`, `"a\nb"`,
	`"L01"`, `"L1"`, `"l01"`, `"1/2"`, `"12345/1"`, `"/1"`, `"git"`, `"bucket"`, `"none"`, `"lfs"`, `"s3"`,
	`"pass"`, `"ok"`, `"isolated"`, `"not isolated"`, `"advisory"`, `"ci"`, `"report"`, `"api-trace"`,
	`"acme/benefits"`, `"-acme/x"`, `"acme/"`, `"a/b/c"`, `"acme/be.ne_fi-ts"`, `"\u0061cme/x"`,
	`"2026-10-12T09:48:42Z"`, `"2026-10-12t09:48:42z"`, `"2026-10-12T09:48:42.5+02:00"`, `"2026-10-12T23:59:60Z"`,
	`"2026-10-12T22:59:60-01:00"`, `"2026-10-12T12:59:60Z"`, `"2026-02-30T09:48:42Z"`, `"2026-10-12T24:00:00Z"`,
	`"2026-10-12T09:48:42"`, `"2026-10-12 09:48:42Z"`, `"2026-10-12T09:48:42.Z"`, `"2026-10-12T+9:+8:+7Z"`,
	`"2026-10-12T09:48:42+2:00"`, `"2026-10-12T09:48:42+24:00"`,
	`"` + strings.Repeat("a", 64) + `"`, `"` + strings.Repeat("0", 64) + `"`, `"` + strings.Repeat("0", 40) + `"`,
	`"` + strings.Repeat("0", 63) + `"`, `"` + strings.Repeat("A", 64) + `"`, `"` + strings.Repeat("\u00e9", 200) + `"`,
	`"` + strings.Repeat("x", 201) + `"`, `"` + strings.Repeat("x", 1025) + `"`,
	`[]`, `[1]`, `["a"]`, `[{}]`, `["L01","L02"]`, `["evidence/a.jsonl"]`, `["/a"]`,
	`{}`, `{"kind":"advisory"}`, `{"kind":"advisory","x":1}`, `{"floor":"tests","result":"pass"}`,
	`{"id":1,"evidence":[]}`, `{"tokens_in":0,"tokens_out":0,"usd":0}`, `{"purged_at":"2026-10-12T09:48:42Z","reason":"r"}`,
	`{"name":"n","detail":"d"}`, `{"issue":"i"}`, `{"p\u0061th":"a"}`,
}

// forEachValue calls fn with data where the value at each place (every
// member of every object and item of every array, found by the walker)
// is replaced by repl.
func forEachValue(data []byte, fn func(start, end int)) {
	w := &schemaWalk{data: data}
	var visit func(i int)
	visit = func(i int) {
		e := w.end(i)
		if e < 0 {
			return
		}
		fn(i, e)
		switch data[i] {
		case '{':
			w.members(i, func(_ []byte, vs, _ int) { visit(vs) })
		case '[':
			w.items(i, func(_, vs, _ int) { visit(vs) })
		}
	}
	visit(w.ws(0))
}

// TestSchemaV1AgreesWithJSONSchema: on the seed packs and on every
// mutation of every value in them (and of every key: renamed, dropped),
// the hand check and the JSON Schema validator agree.
func TestSchemaV1AgreesWithJSONSchema(t *testing.T) {
	t.Parallel()
	seeds := [][]byte{mustReadTestdata(t, "packs/story131.json"), mustReadTestdata(t, "packs/story134-before02.json")}
	bucket := bytes.Replace(seeds[0], []byte(`"store": "git"`), []byte(`"store": "bucket", "object": "o"`), 1)
	seeds = append(seeds, bucket,
		bytes.Replace(seeds[0], []byte(`"created_at"`), []byte(`"warnings": [{"name": "w", "detail": ""}], "checkpoint": "1/2", "base_sha": "`+strings.Repeat("a", 40)+`", "created_at"`), 1))
	cases := 0
	for _, seed := range seeds {
		agreeWithOracle(t, seed)
		if len(validatePackV1(seed)) != 0 {
			t.Fatalf("a seed breaks the schema: %q", validatePackV1(seed))
		}
		forEachValue(seed, func(s, e int) {
			for _, m := range schemaMutations {
				mutated := append(append(append([]byte{}, seed[:s]...), m...), seed[e:]...)
				agreeWithOracle(t, mutated)
				cases++
			}
		})
		// Each key dropped (with its value) and renamed.
		for _, key := range []string{"schema_version", "repo", "story", "pr", "pr_head_sha", "seat", "host", "identity", "authority",
			"completion_goal_hash", "criteria", "artifacts", "checks", "cost", "links", "created_at", "kind", "path", "sha256",
			"size", "store", "id", "evidence", "floor", "result", "value", "threshold", "network", "tokens_in", "usd", "issue", "footprint"} {
			quoted := []byte(`"` + key + `":`)
			agreeWithOracle(t, bytes.Replace(seed, quoted, []byte(`"`+key+`_x":`), 1))
			agreeWithOracle(t, bytes.Replace(seed, quoted, []byte(`"`+strings.ToUpper(key[:1])+key[1:]+`":`), 1))
			cases += 2
		}
	}
	for _, doc := range []string{`1`, `"x"`, `[]`, `null`, `{}`, `{"schema_version":1}`} {
		agreeWithOracle(t, []byte(doc))
	}
	t.Logf("%d documents agreed", cases)
}

// FuzzSchemaV1AgreesWithJSONSchema: under fuzzing too.
func FuzzSchemaV1AgreesWithJSONSchema(f *testing.F) {
	f.Add(mustReadTestdata(f, "packs/story131.json"))
	f.Add(mustReadTestdata(f, "packs/story134-before02.json"))
	f.Add([]byte(`{"schema_version":1,"artifacts":[{"path":"a","kind":"report","sha256":"` + strings.Repeat("a", 64) + `","size":1,"store":"bucket"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		agreeWithOracle(t, data)
	})
}

// TestSchemaV1NamesWhatIsWrong: the refusal's words name the place and,
// for a value, the value, with control characters made visible.
func TestSchemaV1NamesWhatIsWrong(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ old, new, says string }{
		{`"kind": "api-trace"`, `"kind": "video"`, `/artifacts/0/kind: "video" is not one of`},
		{`"story": 131,`, `"story": 131, "verified": true,`, `/: has the property "verified"`},
		{`"size": 615`, `"size": 6.5`, `/artifacts/0/size: 6.5 is not a whole number`},
		{`"repo": "rahulnakmol/agentic-ayudha"`, `"repo": "\u001b]0;pwned\u0007"`, `/repo: "\x1b]0;pwned\a" does not match OWNER/NAME`},
	} {
		_, err := Decode(seedWith(t, c.old, c.new))
		if err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: err = %v, want it to say %q", c.new, err, c.says)
		}
	}
}

// BenchmarkSchemaV1 is the hand check against the JSON Schema validator
// (its generic document and its validation) on the same pack, side by side.
func BenchmarkSchemaV1(b *testing.B) {
	raw := mustReadTestdata(b, "packs/story131.json")
	var arts []string
	for i := range 1000 {
		arts = append(arts, fmt.Sprintf(`{"path": "evidence/batch-%02d/trace-%04d.jsonl", "kind": "report", "sha256": "%064x", "size": %d, "store": "git"}`, i%25, i, i, i*977))
	}
	raw = bytes.Replace(raw, []byte(`"artifacts": [`), []byte(`"artifacts": [`+strings.Join(arts, ", ")+`, `), 1)
	if broken := validatePackV1(raw); len(broken) > 0 {
		b.Fatal(broken)
	}
	b.Run("hand", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(raw)))
		for b.Loop() {
			if len(validatePackV1(raw)) > 0 {
				b.Fatal("refused")
			}
		}
	})
	b.Run("jsonschema", func(b *testing.B) {
		schema, err := oracleSchemaV1()
		if err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		b.SetBytes(int64(len(raw)))
		for b.Loop() {
			doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
			if err != nil {
				b.Fatal(err)
			}
			if err := schema.Validate(doc); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestReadSchemaVersionMatchesUnmarshal: the version read over the bytes is
// the one json.Unmarshal reads, whatever the key's case, escapes or
// repeats, and for documents that are no object.
func TestReadSchemaVersionMatchesUnmarshal(t *testing.T) {
	t.Parallel()
	var docs []string
	for _, key := range []string{"schema_version", "Schema_Version", "SCHEMA_VERSION", "schema_versi\\u006fn", "\\u0073chema_version",
		"\u017fchema_version", "schema_versi\u0130n", "schema_version ", "schemaversion", "\u212aschema_version", "schema_\u212aersion"} {
		for _, val := range []string{`1`, `2`, `0`, `-1`, `1.0`, `"1"`, `null`, `true`, `[]`, `{}`, `99999999999999999999`} {
			docs = append(docs, `{"`+key+`": `+val+`, "story": 1}`)
			docs = append(docs, `{"schema_version": 1, "`+key+`": `+val+`}`)
			docs = append(docs, `{"a": {"schema_version": 3}, "`+key+`": `+val+`}`)
		}
	}
	docs = append(docs, `{}`, `{"a": {"schema_version": 1}}`, `[{"schema_version": 1}]`, `null`, `1`, `"x"`, `[]`, ` {"schema_version" : 1 } `)
	for _, doc := range docs {
		if scanPackJSON([]byte(doc), -1) != nil {
			continue
		}
		v1, e1 := readSchemaVersion([]byte(doc))
		v2, e2 := readSchemaVersionDecoded([]byte(doc))
		if v1 != v2 || (e1 == nil) != (e2 == nil) || e1 != nil && (e1.Code != e2.Code || e1.Msg != e2.Msg) {
			t.Errorf("%s: over the bytes %d, %v; through json.Unmarshal %d, %v", doc, v1, e1, v2, e2)
		}
	}
}
