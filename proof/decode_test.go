package proof

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestDecodeAcceptsSeedPack(t *testing.T) {
	p, err := Decode(mustReadTestdata(t, "packs/story131.json"))
	if err != nil {
		t.Fatal(err)
	}
	if p.Story != 131 || p.PR != 148 || p.Authority.RunID != 38231401215 || p.Authority.Kind != AuthorityAuthoritative {
		t.Errorf("decoded pack = %+v", p)
	}
	if len(p.Checks) != 1 || p.Checks[0].Value == nil || *p.Checks[0].Value != 100 || p.Checks[0].Network != NetworkIsolated {
		t.Errorf("checks = %+v", p.Checks)
	}
	if got := p.Artifacts[0]; got.Size != 615 || got.Store != StoreGit || got.Kind != KindAPITrace {
		t.Errorf("artifact = %+v", got)
	}
}

// TestSchemaValidatesSamples decodes every sample pack, and checks that what
// Encode writes decodes back to the same pack.
func TestSchemaValidatesSamples(t *testing.T) {
	names, err := filepath.Glob(filepath.Join("testdata", "packs", "*.json"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no sample packs: %v", err)
	}
	for _, name := range names {
		t.Run(filepath.Base(name), func(t *testing.T) {
			raw, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			p, err := Decode(raw)
			if err != nil {
				t.Fatal(err)
			}
			again, err := Encode(p)
			if err != nil {
				t.Fatal(err)
			}
			q, err := Decode(again)
			if err != nil {
				t.Fatalf("Encode wrote a pack Decode refuses: %v", err)
			}
			if !reflect.DeepEqual(p, q) {
				t.Errorf("round trip changed the pack:\n%+v\n%+v", p, q)
			}
		})
	}
	if _, err := Encode(fixturePack(fixtureFiles())); err != nil {
		t.Fatal(err)
	}
}

func TestPackSchemaIsStrict(t *testing.T) {
	schema := string(packSchemaV1JSON)
	if !strings.Contains(schema, `"https://json-schema.org/draft/2020-12/schema"`) {
		t.Error("schema is not draft 2020-12")
	}
	if n := strings.Count(schema, `"additionalProperties": false`); n != 9 {
		t.Errorf("additionalProperties false appears %d times, want on all 9 objects", n)
	}
}

// seedWith returns the seed pack with one textual replacement, failing the
// test if the text to replace is not there.
func seedWith(t *testing.T, old, replacement string) []byte {
	t.Helper()
	raw := mustReadTestdata(t, "packs/story131.json")
	if !bytes.Contains(raw, []byte(old)) {
		t.Fatalf("seed pack has no %q", old)
	}
	return bytes.Replace(raw, []byte(old), []byte(replacement), 1)
}

func TestDecodeRefuses(t *testing.T) {
	tests := []struct {
		name string
		data func(t *testing.T) []byte
		lim  Limits
		want Code
		says string
	}{
		{name: "empty", data: func(*testing.T) []byte { return nil }, want: CodeMalformed},
		{name: "not JSON", data: func(*testing.T) []byte { return []byte("{\"schema_version\": 1,") }, want: CodeMalformed},
		{name: "not an object", data: func(*testing.T) []byte { return []byte(`[1]`) }, want: CodeMalformed},
		{name: "trailing data", data: func(t *testing.T) []byte {
			return append(mustReadTestdata(t, "packs/story131.json"), []byte(`{"story": 9}`)...)
		}, want: CodeMalformed, says: "after its closing brace"},
		{name: "duplicate top-level key", data: func(t *testing.T) []byte {
			return seedWith(t, `"story": 131,`, `"story": 131, "story": 132,`)
		}, want: CodeDuplicateKey, says: `"story"`},
		{name: "duplicate key in an artifact", data: func(t *testing.T) []byte {
			return seedWith(t, `"size": 615,`, `"size": 615, "size": 1,`)
		}, want: CodeDuplicateKey, says: "artifacts"},
		{name: "duplicate key spelled with an escape", data: func(t *testing.T) []byte {
			return seedWith(t, `"story": 131,`, `"story": 131, "st\u006fry": 132,`)
		}, want: CodeDuplicateKey},
		{name: "newer schema", data: func(t *testing.T) []byte {
			return seedWith(t, `"schema_version": 1`, `"schema_version": 2`)
		}, want: CodeNewerSchema, says: "update aayu to read it: run aayu self-update"},
		{name: "no schema_version", data: func(t *testing.T) []byte {
			return seedWith(t, `"schema_version": 1,`, ``)
		}, want: CodeSchema, says: "no schema_version"},
		{name: "schema_version as text", data: func(t *testing.T) []byte {
			return seedWith(t, `"schema_version": 1`, `"schema_version": "1"`)
		}, want: CodeSchema},
		{name: "schema_version zero", data: func(t *testing.T) []byte {
			return seedWith(t, `"schema_version": 1`, `"schema_version": 0`)
		}, want: CodeSchema},
		{name: "unknown field", data: func(t *testing.T) []byte {
			return seedWith(t, `"story": 131,`, `"story": 131, "verified": true,`)
		}, want: CodeSchema, says: "verified"},
		{name: "field in another case", data: func(t *testing.T) []byte {
			return seedWith(t, `"repo":`, `"Repo":`)
		}, want: CodeSchema},
		{name: "unknown artifact kind", data: func(t *testing.T) []byte {
			return seedWith(t, `"kind": "api-trace"`, `"kind": "video"`)
		}, want: CodeSchema, says: "/artifacts/0/kind"},
		{name: "unknown store", data: func(t *testing.T) []byte {
			return seedWith(t, `"store": "git"`, `"store": "s3"`)
		}, want: CodeSchema},
		{name: "unknown result", data: func(t *testing.T) []byte {
			return seedWith(t, `"result": "pass"`, `"result": "ok"`)
		}, want: CodeSchema},
		{name: "unknown identity", data: func(t *testing.T) []byte {
			return seedWith(t, `"identity": "ci"`, `"identity": "robot"`)
		}, want: CodeSchema},
		{name: "unknown authority", data: func(t *testing.T) []byte {
			return seedWith(t, `"kind": "authoritative"`, `"kind": "final"`)
		}, want: CodeSchema},
		{name: "unknown network", data: func(t *testing.T) []byte {
			return seedWith(t, `"network": "isolated"`, `"network": "offline"`)
		}, want: CodeSchema},
		{name: "value as text", data: func(t *testing.T) []byte {
			return seedWith(t, `"value": 100`, `"value": "100"`)
		}, want: CodeSchema},
		{name: "upper-case sha256", data: func(t *testing.T) []byte {
			return seedWith(t, `"43d40ade`, `"43D40ADE`)
		}, want: CodeSchema},
		{name: "short sha256", data: func(t *testing.T) []byte {
			return seedWith(t, `"sha256": "43d40ade`, `"sha256": "3d40ade`)
		}, want: CodeSchema},
		{name: "negative size", data: func(t *testing.T) []byte {
			return seedWith(t, `"size": 615`, `"size": -1`)
		}, want: CodeSchema},
		{name: "fractional size", data: func(t *testing.T) []byte {
			return seedWith(t, `"size": 615`, `"size": 6.5`)
		}, want: CodeSchema},
		{name: "absolute path", data: func(t *testing.T) []byte {
			return seedWith(t, `"path": "evidence/criterion-1.jsonl"`, `"path": "/evidence/criterion-1.jsonl"`)
		}, want: CodeSchema},
		{name: "backslash path", data: func(t *testing.T) []byte {
			return seedWith(t, `"path": "evidence/criterion-1.jsonl"`, `"path": "evidence\\criterion-1.jsonl"`)
		}, want: CodeSchema},
		{name: "terminal escape in a schema complaint", data: func(t *testing.T) []byte {
			return seedWith(t, `"repo": "rahulnakmol/agentic-ayudha"`, `"repo": "\u001b]0;pwned\u0007 \u202e"`)
		}, want: CodeSchema, says: `\x1b]0;pwned\a \u202e`},
		{name: "null list", data: func(t *testing.T) []byte {
			return seedWith(t, `"footprint": [`, `"footprint": null, "x": [`)
		}, want: CodeSchema},
		{name: "pack.json over the cap", data: func(t *testing.T) []byte {
			return mustReadTestdata(t, "packs/story131.json")
		}, lim: Limits{PackJSONBytes: 100}, want: CodeTooLarge},
		{name: "more artifacts than the cap", data: func(t *testing.T) []byte {
			raw := mustReadTestdata(t, "packs/story131.json")
			return bytes.Replace(raw, []byte(`"artifacts": [`), []byte(`"artifacts": [{}, {}, {},`), 1)
		}, lim: Limits{Artifacts: 3}, want: CodeTooLarge, says: "more than 3 artifacts"},
		{name: "nesting deeper than a pack", data: func(*testing.T) []byte {
			return []byte(`{"schema_version": 1, "x": ` + strings.Repeat("[", 40) + strings.Repeat("]", 40) + `}`)
		}, want: CodeMalformed},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := DecodeLimited(tc.data(t), tc.lim)
			if err == nil {
				t.Fatalf("decoded %+v, want refusal", p)
			}
			var derr *DecodeError
			if !errors.As(err, &derr) {
				t.Fatalf("error %T %v is not a *DecodeError", err, err)
			}
			if derr.Code != tc.want {
				t.Errorf("code = %s (%v), want %s", derr.Code, err, tc.want)
			}
			if strings.IndexFunc(err.Error(), isControlOrBidi) >= 0 {
				t.Errorf("message carries a control character to the terminal: %q", err)
			}
			if tc.says != "" && !strings.Contains(err.Error(), tc.says) {
				t.Errorf("message %q does not say %q", err, tc.says)
			}
			if tc.want == CodeNewerSchema && !errors.Is(err, ErrNewerSchema) {
				t.Errorf("newer-schema refusal does not wrap ErrNewerSchema")
			}
		})
	}
}

func TestCheckPath(t *testing.T) {
	tests := []struct {
		path string
		want Code // "" means accepted
	}{
		{"evidence/criterion-1.jsonl", ""},
		{"a", ""},
		{"...", ""},
		{"..a/b", ""},
		{".hidden/file", ""},
		{"", CodeUncleanPath},
		{".", CodeUncleanPath},
		{"./a", CodeUncleanPath},
		{"a/./b", CodeUncleanPath},
		{"a//b", CodeUncleanPath},
		{"a/", CodeUncleanPath},
		{"a\x00b", CodeUncleanPath},
		{"screens/\x1b]52;c;aGk=\x07.png", CodeUncleanPath},
		{"a\u0085b", CodeUncleanPath},
		{"evil\u202egnp.exe", CodeUncleanPath},
		{"a\x7fb", CodeUncleanPath},
		{"bad\xffutf8", CodeUncleanPath},
		{"screens/écran-1.png", ""},
		{"..", CodeEscapingPath},
		{"../a", CodeEscapingPath},
		{"a/../b", CodeEscapingPath},
		{"a/..", CodeEscapingPath},
		{"/a", CodeAbsolutePath},
		{"C:/a", CodeAbsolutePath},
		{`a\b`, CodeBackslashPath},
		{`..\a`, CodeBackslashPath},
	}
	for _, tc := range tests {
		err := CheckPath(tc.path)
		var got Code
		var pe *PathError
		if errors.As(err, &pe) {
			got = pe.Code
		} else if err != nil {
			t.Errorf("CheckPath(%q) = %T, want *PathError", tc.path, err)
		}
		if got != tc.want {
			t.Errorf("CheckPath(%q) = %q (%v), want %q", tc.path, got, err, tc.want)
		}
	}
}

func TestDecodeBucketNeedsObject(t *testing.T) {
	raw := seedWith(t, `"store": "git"`, `"store": "bucket"`)
	if _, err := Decode(raw); err == nil {
		t.Fatal("a bucket artifact without its object key decoded")
	}
	raw = seedWith(t, `"store": "git"`, `"store": "bucket", "object": "acme/131/screens/1.png"`)
	if _, err := Decode(raw); err != nil {
		t.Fatalf("a bucket artifact with its object key was refused: %v", err)
	}
}
