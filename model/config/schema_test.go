package config

import (
	"errors"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestLoadRefusesTypeConfusedPolicyNamingFileAndKey(t *testing.T) {
	cases := []struct {
		name string
		src  Sources
		say  []string
	}{
		{"never as a string", Sources{Repo: []byte("[autonomy]\nnever = \"L04\"\n"), RepoName: "the base branch's .aayudha/config.toml"},
			[]string{"the base branch's .aayudha/config.toml", "autonomy.never", "must be a list of strings", `the string "L04"`}},
		{"always_person as a string", Sources{Repo: []byte("[autonomy]\nalways_person = \".aayudha/config.toml\"\n")},
			[]string{string(LayerRepo), "autonomy.always_person", "a list of strings"}},
		{"streak as a string", Sources{User: []byte("[autonomy]\nstreak = \"0\"\n"), UserPath: "/home/x/.config/aayu/config.toml"},
			[]string{"/home/x/.config/aayu/config.toml", "autonomy.streak", "a whole number"}},
		{"a list item that is a number", Sources{Repo: []byte("[approvals]\napprovers = [\"a\", 3]\n")},
			[]string{"approvals.approvers", "item 2 is the number 3"}},
		{"proof as a string", Sources{Repo: []byte("[autonomy]\nproof = \"yes\"\n")}, []string{"autonomy.proof", "true or false"}},
		{"a date that is not one", Sources{Repo: []byte("[verify]\nred_on_base_blocking_from = \"soon\"\n")},
			[]string{"verify.red_on_base_blocking_from", "a date such as 2026-11-13"}},
		{"unknown key in a file", Sources{Repo: []byte("[autonomy]\nnevr = [\"L04\"]\n")}, []string{"autonomy.nevr", "is not a setting", "never"}},
		{"mis-cased section in a file", Sources{Repo: []byte("[Autonomy]\nnever = []\n")}, []string{"Autonomy.never", "lower case: autonomy.never"}},
		{"a key outside any section", Sources{Repo: []byte("never = [\"L04\"]\n")}, []string{"never", "is not a setting"}},
		{"unknown section", Sources{Repo: []byte("[github]\ntoken = \"x\"\n")}, []string{"github.token", "the sections are"}},
		{"mis-cased --set", Sources{Set: []string{"AUTONOMY.APPROVER=writer"}}, []string{"--set AUTONOMY.APPROVER", "lower case: autonomy.approver"}},
		{"unknown --set", Sources{Set: []string{"autonomy.aprover=writer"}}, []string{"--set autonomy.aprover", "is not a setting"}},
		{"double underscore variable", Sources{Environ: []string{"AAYU_AUTONOMY__STREAK=0"}}, []string{"AAYU_AUTONOMY__STREAK", "autonomy._streak", "is not a setting"}},
		{"variable of the wrong kind", Sources{Environ: []string{"AAYU_AUTONOMY_STREAK=many"}}, []string{"AAYU_AUTONOMY_STREAK", "a whole number", `"many"`}},
		{"--set of the wrong kind", Sources{Set: []string{"ui.motion=sometimes"}}, []string{"--set ui.motion", "true or false"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Load(c.src)
			if err == nil {
				t.Fatal("Load took it")
			}
			for _, s := range c.say {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("the error does not say %q: %v", s, err)
				}
			}
		})
	}
}

func TestSetListOfOneIsNeverEmpty(t *testing.T) {
	for _, set := range []string{"approvals.approvers=agent-bot", `approvals.approvers="agent-bot"`, `approvals.approvers=["agent-bot"]`, "approvals.approvers= agent-bot "} {
		cfg, err := Load(Sources{Set: []string{set}})
		if err != nil {
			t.Fatalf("%s: %v", set, err)
		}
		if got := cfg.Strings("approvals.approvers"); !reflect.DeepEqual(got, []string{"agent-bot"}) {
			t.Errorf("--set %s gave %q, want [agent-bot]", set, got)
		}
	}
	cfg, err := Load(Sources{Environ: []string{"AAYU_AUTONOMY_NEVER=L04, L07"}, Set: []string{"identity.device_client_id=Iv1.abc", "verify.required_floors=coverage,tests"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.Strings("autonomy.never"); !reflect.DeepEqual(got, []string{"L04", "L07"}) {
		t.Errorf("AAYU_AUTONOMY_NEVER=L04, L07 gave %q", got)
	}
	if got := cfg.String("identity.device_client_id"); got != "Iv1.abc" {
		t.Errorf("identity.device_client_id = %q", got)
	}
	if got := cfg.Strings("verify.required_floors"); !reflect.DeepEqual(got, []string{"coverage", "tests"}) {
		t.Errorf("verify.required_floors = %q", got)
	}
	// A variable's boolean may be written 1 or 0, as shells do.
	cfg, err = Load(Sources{Environ: []string{"AAYU_UI_PLAIN=1", "AAYU_UI_MOTION=0"}})
	if err != nil || !cfg.Bool("ui.plain") || cfg.Bool("ui.motion") {
		t.Errorf("AAYU_UI_PLAIN=1, AAYU_UI_MOTION=0: plain %v, motion %v, err %v", cfg.Bool("ui.plain"), cfg.Bool("ui.motion"), err)
	}
}

func TestEveryDefaultIsDeclaredWithItsKind(t *testing.T) {
	for key, v := range Defaults() {
		kind, ok := Schema[key]
		if !ok {
			t.Errorf("default %s is not in Schema", key)
			continue
		}
		if _, err := normalize("defaults", key, kind, toTOMLShape(v)); err != nil {
			t.Errorf("default %s: %v", key, err)
		}
	}
}

// toTOMLShape turns a Go default into what the TOML parser would give.
func toTOMLShape(v any) any {
	if n, ok := v.(int); ok {
		return int64(n)
	}
	return v
}

func TestUnquotedDateAndNumbersAreRead(t *testing.T) {
	cfg, err := Load(Sources{Repo: []byte("[verify]\nred_on_base_blocking_from = 2027-01-02\ncoverage_threshold = 87.5\n[identity]\napp_id = 42\n")})
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.String("verify.red_on_base_blocking_from"); got != "2027-01-02" {
		t.Errorf("date = %q", got)
	}
	if got := cfg.String("verify.coverage_threshold"); got != "87.5" {
		t.Errorf("coverage_threshold = %q", got)
	}
	if got := cfg.Int("identity.app_id"); got != 42 {
		t.Errorf("app_id = %d", got)
	}
}

func TestCheckTOMLRefusesDeepOrHugeBeforeParsing(t *testing.T) {
	deepInline := "a = " + strings.Repeat("{b = ", 8000) + "1" + strings.Repeat("}", 8000)
	deepArray := "a = " + strings.Repeat("[", 40) + strings.Repeat("]", 40)
	dotted := strings.Repeat("a.", 5000) + "b = 1"
	header := "[" + strings.Repeat("a.", 100) + "b]\n"
	for name, doc := range map[string]string{"inline tables": deepInline, "arrays": deepArray, "dotted key": dotted, "table header": header,
		"too large": "[ui]\n" + strings.Repeat("# padding\n", MaxTOMLBytes/10+1)} {
		if err := CheckTOML([]byte(doc)); err == nil {
			t.Errorf("%s: CheckTOML took it", name)
		}
	}
	fine := "[autonomy]\n# brackets in a comment [[[[{{{{ a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s.t.u.v.w.x.y.z.a.b.c.d.e.f.g\nnever = [\"L04\", \"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\"]\n" +
		"always_person = ['''{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{''', \"a\\\"[[[\"]\n[verify]\ncoverage_threshold = 1.5\n" +
		"required_floors = [" + strings.Repeat(`"x.y.z", `, 40) + "\"1.2.3\"]\n"
	if err := CheckTOML([]byte(fine)); err != nil {
		t.Errorf("CheckTOML refused a sound file: %v", err)
	}
	if _, err := Load(Sources{Repo: []byte(fine)}); err != nil {
		t.Errorf("Load refused a sound file: %v", err)
	}
}

// TestHostileTOMLRefusedFastAndSmall is the review's 1 MB hostile file: it
// is refused in under 100 ms with under 64 MiB allocated.
func TestHostileTOMLRefusedFastAndSmall(t *testing.T) {
	docs := map[string][]byte{
		"1 MB of nested inline tables": []byte("[autonomy]\nnever = " + strings.Repeat("{a = ", 200000) + "1" + strings.Repeat("}", 200000)),
		"256 KiB of nested tables":     []byte("x = " + strings.Repeat("{a=", (MaxTOMLBytes-8)/4) + "1"),
		"dotted keys":                  []byte(strings.Repeat("a.", MaxTOMLBytes/2-8) + "b = 1"),
	}
	for name, doc := range docs {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		start := time.Now()
		_, err := Load(Sources{Repo: doc, RepoName: "the base branch's .aayudha/config.toml"})
		took := time.Since(start)
		runtime.ReadMemStats(&after)
		if err == nil || !strings.Contains(err.Error(), "the base branch's .aayudha/config.toml") {
			t.Errorf("%s: want a refusal naming the file, got %v", name, err)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
			t.Errorf("%s: refusing it allocated %d MiB", name, alloc>>20)
		}
		if took > 100*time.Millisecond {
			t.Errorf("%s: refusing it took %v", name, took)
		}
	}
}

func TestKeyErrorIsTyped(t *testing.T) {
	_, err := Load(Sources{Set: []string{"autonomy.never=[7]"}})
	var ke *KeyError
	if !errors.As(err, &ke) || ke.Key != "autonomy.never" {
		t.Fatalf("want a *KeyError for autonomy.never, got %v", err)
	}
}

// TestConfigRefusesThresholdOutOfRange: a coverage threshold is a
// percentage and a count is never negative, in every layer; a floor judged
// by -5 or 300 would always hold or never could.
func TestConfigRefusesThresholdOutOfRange(t *testing.T) {
	cases := []struct {
		name string
		src  Sources
		say  string
	}{
		{"negative threshold in the base's file", Sources{Repo: []byte("[verify]\ncoverage_threshold = -5\n")}, "a percentage from 0 to 100"},
		{"threshold above 100", Sources{Repo: []byte("[verify]\ncoverage_threshold = 100.5\n")}, "a percentage from 0 to 100"},
		{"threshold by variable", Sources{Environ: []string{"AAYU_VERIFY_COVERAGE_THRESHOLD=300"}}, "a percentage from 0 to 100"},
		{"threshold by --set", Sources{Set: []string{"verify.coverage_threshold=-0.5"}}, "a percentage from 0 to 100"},
		{"negative retention", Sources{User: []byte("[proof]\nretention_days = -1\n")}, "0 or more"},
		{"negative streak", Sources{Set: []string{"autonomy.streak=-3"}}, "0 or more"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Load(c.src)
			if err == nil || !strings.Contains(err.Error(), c.say) {
				t.Fatalf("Load = %v, want a refusal saying %q", err, c.say)
			}
		})
	}
	for _, ok := range []string{"verify.coverage_threshold=0", "verify.coverage_threshold=100", "verify.coverage_threshold=87.5", "autonomy.streak=0"} {
		if _, err := Load(Sources{Set: []string{ok}}); err != nil {
			t.Errorf("%s refused: %v", ok, err)
		}
	}
}

// A blank list value (a vertical tab, spaces, a lone comma) is refused in
// words rather than read as "no never layers"; [] empties a list on purpose.
func TestSetBlankListIsRefusedNotEmptied(t *testing.T) {
	for _, set := range []string{"autonomy.never=\v", "autonomy.never=", "autonomy.never= , ", `autonomy.never=""`} {
		_, err := Load(Sources{Set: []string{set}})
		if err == nil || !strings.Contains(err.Error(), "write [] to empty the list") {
			t.Errorf("--set %q: err %v, want a refusal naming []", set, err)
		}
	}
	cfg, err := Load(Sources{Set: []string{"autonomy.never=[]"}})
	if err != nil || len(cfg.Strings("autonomy.never")) != 0 {
		t.Errorf("--set autonomy.never=[] gave %q, %v", cfg.Strings("autonomy.never"), err)
	}
}
