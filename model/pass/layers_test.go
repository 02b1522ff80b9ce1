package pass

import (
	"reflect"
	"strings"
	"testing"
)

const layersMD = "# Layers\n\n| Layer | Name | Globs |\n|---|---|---|\n" +
	"| L01 | docs | docs/**, *.md |\n" +
	"| L04 | policy | `internal/policy/**`, internal/config/defaults.toml |\n" +
	"| L07 | gates | .github/workflows/** |\n" +
	"| L09 | identity | internal/identity/ |\n"

func TestParseLayers(t *testing.T) {
	layers, err := ParseLayers(layersMD)
	if err != nil {
		t.Fatal(err)
	}
	if len(layers) != 4 || layers[1].ID != "L04" || layers[1].Name != "policy" ||
		!reflect.DeepEqual(layers[1].Globs, []string{"internal/policy/**", "internal/config/defaults.toml"}) {
		t.Fatalf("parsed %+v", layers)
	}
	bad := []struct{ name, md, words string }{
		{"no rows", "# Layers\n", "no layer rows"},
		{"duplicate", "| L01 | a | x/** |\n| L01 | b | y/** |\n", "listed again"},
		{"no globs", "| L02 | a |  |\n", "no globs"},
		{"range", "| L02 | a | x/[ab]/** |\n", "not supported"},
		{"** inside an element", "| L02 | a | x/a**/b |\n", "whole element"},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseLayers(c.md)
			if err == nil || !strings.Contains(err.Error(), c.words) {
				t.Fatalf("err = %v, want it to mention %q", err, c.words)
			}
		})
	}
}

func TestFootprint(t *testing.T) {
	layers, err := ParseLayers(layersMD)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		changed []ChangedFile
		want    []string
	}{
		{"nothing", nil, []string{}},
		{"policy file deep", []ChangedFile{{Path: "internal/policy/a/b/rule.go"}}, []string{"L04"}},
		{"** matches zero elements", []ChangedFile{{Path: "docs/index.html"}}, []string{"L01"}},
		{"top-level md only", []ChangedFile{{Path: "README.md"}, {Path: "src/x.md"}}, []string{"L01"}},
		{"exact file", []ChangedFile{{Path: "internal/config/defaults.toml"}}, []string{"L04"}},
		{"trailing slash is a directory", []ChangedFile{{Path: "internal/identity/review.go"}}, []string{"L09"}},
		{"rename out of a layer keeps it", []ChangedFile{{Path: "internal/other/rule.go", PreviousPath: "internal/policy/rule.go"}}, []string{"L04"}},
		{"several", []ChangedFile{{Path: ".github/workflows/gate.yml"}, {Path: "internal/policy/x.go"}}, []string{"L04", "L07"}},
		{"no layer", []ChangedFile{{Path: "cmd/main.go"}}, []string{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Footprint(c.changed, layers)
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("Footprint = %v, want %v", got, c.want)
			}
		})
	}
}

// TestLayerBuiltByHandMatchesItsGlobs: a Layer made in code rather than
// parsed from LAYERS.md compiles its globs when asked, so a footprint (and
// autonomy's never layers) cannot come out empty for it; a bad glob among
// them matches nothing rather than everything.
func TestLayerBuiltByHandMatchesItsGlobs(t *testing.T) {
	l := Layer{ID: "L04", Name: "policy", Globs: []string{"bad[glob", ".aayudha/**", "LAYERS.md"}}
	for p, want := range map[string]bool{
		".aayudha/config.toml": true,
		"LAYERS.md":            true,
		"docs/LAYERS.md":       false,
		"main.go":              false,
		"bad[glob":             false,
	} {
		if got := l.Matches(p); got != want {
			t.Errorf("Matches(%q) = %v, want %v", p, got, want)
		}
	}
	if got := Footprint([]ChangedFile{{Path: "main.go"}, {Path: ".aayudha/config.toml"}}, []Layer{l}); len(got) != 1 || got[0] != "L04" {
		t.Errorf("Footprint = %v, want [L04]", got)
	}
}
