package proof

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// scanCases are documents both walks of scanJSON must judge alike: each
// refusal the token walk makes, keys spelled with escapes and invalid
// UTF-8 (encoding/json decodes both before comparing), objects past the
// linear key comparison, and the artifacts count only at the top level.
func scanCases(t *testing.T) map[string][]byte {
	t.Helper()
	many := func(dup bool) []byte {
		var b strings.Builder
		b.WriteString(`{"artifacts":[{`)
		for i := range 40 {
			fmt.Fprintf(&b, `"k%d":%d,`, i, i)
		}
		if dup {
			b.WriteString(`"k7":1,`)
		}
		b.WriteString(`"last":true}]}`)
		return []byte(b.String())
	}
	cases := map[string][]byte{
		"empty object":               []byte(`{}`),
		"empty array":                []byte(` [ ] `),
		"a number":                   []byte(`5`),
		"a string":                   []byte(`"x"`),
		"top-level duplicate":        []byte(`{"a":1,"b":{"a":2},"a":3}`),
		"nested duplicate":           []byte(`{"a":[{"b":{"c":1,"c":2}}]}`),
		"duplicate in an artifact":   []byte(`{"artifacts":[{"path":"x","size":1},{"path":"y","path":"z"}]}`),
		"duplicate by escape":        []byte(`{"a":1,"\u0061":2}`),
		"escaped quote key":          []byte(`{"a\"b":1,"a\"c":2,"a\u0022b":3}`),
		"invalid UTF-8 keys":         []byte("{\"\xff\":1,\"\xfe\":2}"),
		"same key in two objects":    []byte(`{"x":{"k":1},"y":{"k":2},"k":[{"k":1},{"k":2}]}`),
		"empty key twice":            []byte(`{"":1,"":2}`),
		"too many artifacts":         []byte(`{"artifacts":[{},{},{}]}`),
		"artifacts below the top":    []byte(`{"x":{"artifacts":[1,2,3]}}`),
		"artifacts by escape":        []byte(`{"\u0061rtifacts":[1,2,3]}`),
		"artifacts after a sibling":  []byte(`{"artifacts":[1,2],"other":[1,2,3,4]}`),
		"values of every kind":       []byte(`{"n":-1.5e3,"t":true,"f":false,"z":null,"s":"a,b:c]}","a":[[],{}],"o":{"p":[1,{"q":"r"}]}}`),
		"many keys":                  many(false),
		"many keys with a duplicate": many(true),
		"deep":                       []byte(strings.Repeat("[", maxJSONDepth) + strings.Repeat("]", maxJSONDepth)),
		"too deep":                   []byte(strings.Repeat("[", maxJSONDepth+1) + strings.Repeat("]", maxJSONDepth+1)),
		"too deep in objects":        []byte(strings.Repeat(`{"a":`, maxJSONDepth+1) + "1" + strings.Repeat("}", maxJSONDepth+1)),
	}
	for _, name := range []string{"packs/story131.json", "packs/story134-before02.json"} {
		cases[name] = mustReadTestdata(t, name)
	}
	raw, err := Encode(fixturePack(nil))
	if err != nil {
		t.Fatal(err)
	}
	cases["the fixture pack"] = raw
	return cases
}

// TestScanOfWellFormedJSONRefusesAsTheTokenWalkDoes: the byte walk that
// replaced encoding/json's tokens for well-formed pack.json (and test event
// lines) refuses the same documents with the same words.
func TestScanOfWellFormedJSONRefusesAsTheTokenWalkDoes(t *testing.T) {
	t.Parallel()
	for name, data := range scanCases(t) {
		for _, max := range []int{-1, 2, 10_000} {
			want := scanJSONTokens(data, "pack.json", max)
			got := scanValidJSON(data, "pack.json", max)
			if fmt.Sprint(want) != fmt.Sprint(got) {
				t.Errorf("%s (max %d): the byte walk says %v, the token walk %v", name, max, got, want)
			}
		}
	}
}

// TestScanOfAThousandArtifactsAllocatesNothingPerArtifact: the duplicate
// key scan of a well-formed pack.json allocates a few slices for the whole
// document, not a map and strings per artifact (the token walk made about
// sixty allocations per artifact).
func TestScanOfAThousandArtifactsAllocatesNothingPerArtifact(t *testing.T) {
	p := fixturePack(nil)
	art := p.Artifacts[0]
	p.Artifacts = nil
	for i := range 1000 {
		a := art
		a.Path = fmt.Sprintf("reports/r-%04d.txt", i)
		p.Artifacts = append(p.Artifacts, a)
	}
	raw, err := Encode(p)
	if err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(5, func() {
		if derr := scanJSON(raw, "pack.json", 10_000); derr != nil {
			t.Fatal(derr)
		}
	})
	if allocs > 20 {
		t.Errorf("scanning 1,000 artifacts took %.0f allocations, want at most 20", allocs)
	}
}

// FuzzScanWalksAgree: on any well-formed document the byte walk and the
// token walk give the same answer.
func FuzzScanWalksAgree(f *testing.F) {
	for _, data := range scanCases(&testing.T{}) {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !json.Valid(data) {
			return
		}
		want, got := scanJSONTokens(data, "it", 3), scanValidJSON(data, "it", 3)
		if fmt.Sprint(want) != fmt.Sprint(got) {
			t.Errorf("%q: the byte walk says %v, the token walk %v", data, got, want)
		}
	})
}
