package basepolicy

import (
	"slices"
	"strings"
	"testing"

	"github.com/aayudha/aayu/proof"
)

// TestFloorsAreTheBasesVerifySettings: the floors a pack is judged by come
// from the base's [verify] table through one mapping: an unset key is
// proof's default, a list set empty requires nothing (not the defaults),
// and a config that could not be read gives no settings of its own.
func TestFloorsAreTheBasesVerifySettings(t *testing.T) {
	ptr := func(f float64) *float64 { return &f }
	for _, tc := range []struct {
		name      string
		config    string
		required  []string // nil: the defaults
		threshold *float64 // nil: proof's default
	}{
		{name: "no config file", required: proof.DefaultRequiredFloors, threshold: ptr(90)},
		{name: "a stricter threshold", config: "[verify]\ncoverage_threshold = 95\n", required: proof.DefaultRequiredFloors, threshold: ptr(95)},
		{name: "a looser threshold", config: "[verify]\ncoverage_threshold = 60.5\n", required: proof.DefaultRequiredFloors, threshold: ptr(60.5)},
		{name: "red on base required", config: "[verify]\nrequired_floors = [\"tests\", \"red-on-base\"]\n", required: []string{"tests", "red-on-base"}, threshold: ptr(90)},
		{name: "nothing required", config: "[verify]\nrequired_floors = []\n", required: []string{}, threshold: ptr(90)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var raw []byte
			if tc.config != "" {
				raw = []byte(tc.config)
			}
			for _, p := range []*Policy{ParseConfig(raw), Parse("tip1", Files{Config: raw})} {
				if refusals := p.Refusals(); len(refusals) != 0 {
					t.Fatalf("refusals: %q", refusals)
				}
				f := p.Floors()
				if !slices.Equal(f.Required, tc.required) || (f.Required == nil) != (tc.required == nil) {
					t.Errorf("Required = %#v, want %#v", f.Required, tc.required)
				}
				if f.CoverageThreshold == nil || *f.CoverageThreshold != *tc.threshold {
					t.Errorf("CoverageThreshold = %v, want %v", f.CoverageThreshold, *tc.threshold)
				}
			}
		})
	}
	unread := ParseConfig([]byte("[verify]\ncoverage_threshold = \"lots\"\n"))
	if unread.ConfigRead() || len(unread.Refusals()) == 0 {
		t.Fatalf("an unreadable config was read: %q", unread.Refusals())
	}
	if f := unread.Floors(); f.Required != nil || f.CoverageThreshold != nil {
		t.Errorf("an unread config gave floor settings of its own: %+v", f)
	}
}

// TestParseJudgesEachFileItFinds: an absent file is the defaults, one that
// cannot be parsed is a refusal in words, and CODEOWNERS is the one the
// reader found, at its path.
func TestParseJudgesEachFileItFinds(t *testing.T) {
	p := Parse("tip1", Files{Config: []byte("[autonomy]\nnever = [\"L04\"]\n"), Layers: []byte("not a layers file"),
		CodeownersPath: "docs/CODEOWNERS", Codeowners: []byte("/src/[a-z/ @ana\n")})
	got := strings.Join(p.Refusals(), "\n")
	for _, want := range []string{"the base branch's LAYERS.md cannot be read", "the base branch's docs/CODEOWNERS has a rule aayu cannot evaluate"} {
		if !strings.Contains(got, want) {
			t.Errorf("refusals lack %q:\n%s", want, got)
		}
	}
	if p.Tip() != "tip1" || !p.ConfigRead() || !slices.Equal(p.Pass().Never, []string{"L04"}) || p.Codeowners() != nil {
		t.Errorf("tip %q, read %v, never %q, codeowners %v", p.Tip(), p.ConfigRead(), p.Pass().Never, p.Codeowners())
	}
	if path, text := p.CodeownersText(); path != "docs/CODEOWNERS" || text == "" {
		t.Errorf("CodeownersText = %q, %q", path, text)
	}
	none := Parse("tip2", Files{})
	if len(none.Refusals()) != 0 || !none.ConfigRead() || none.Layers() != nil || none.Codeowners() != nil {
		t.Errorf("no files: refusals %q", none.Refusals())
	}
}
