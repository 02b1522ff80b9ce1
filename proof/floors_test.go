package proof

import (
	"context"
	"strings"
	"testing"
)

func fnum(f float64) *float64 { return &f }

func goodChecks() []Check {
	return []Check{
		{Floor: "tests", Result: ResultPass, Value: fnum(12)},
		{Floor: "coverage", Result: ResultPass, Value: fnum(100), Threshold: fnum(90)},
		{Floor: "vet", Result: ResultPass, Value: fnum(0), Threshold: fnum(0)},
	}
}

// goodMeasured is what the pack behind goodChecks holds: a coverage report
// of 12 of 12 lines and events with 12 tests passing.
func goodMeasured() Measured {
	return Measured{CoverageKnown: true, Covered: 12, Changed: 12, TestsKnown: true, TestsPassed: 12}
}

// holdFor judges checks by the default threshold and required floors (or
// required), with goodMeasured edited by m.
func holdFor(checks []Check, required []string, m func(*Measured)) (bool, []Check) {
	measured := goodMeasured()
	if m != nil {
		m(&measured)
	}
	return JudgeFloors(checks, FloorPolicy{Required: required}, measured)
}

func failedNamed(failed []Check, floor string) *Check {
	for i := range failed {
		if failed[i].Floor == floor {
			return &failed[i]
		}
	}
	return nil
}

// TestFloorsRecomputed: floors are judged from their numbers and the
// required list, never taken at the check's word.
func TestFloorsRecomputed(t *testing.T) {
	cases := []struct {
		name     string
		edit     func(c []Check) []Check
		required []string
		holds    bool
		floor    string // the floor that must be named, when it does not hold
		words    string
		measured func(*Measured)
		// threshold is the base's [verify] coverage_threshold as config
		// holds it; "" is the built-in default.
		threshold string
	}{
		{name: "all required floors pass", edit: func(c []Check) []Check { return c }, holds: true},
		{name: "coverage below threshold claiming pass", edit: func(c []Check) []Check {
			c[1].Value = fnum(10)
			return c
		}, floor: "coverage", words: "10 does not meet the threshold 90"},
		{name: "coverage just below threshold", edit: func(c []Check) []Check {
			c[1].Value = fnum(89.9)
			return c
		}, floor: "coverage", words: "does not meet"},
		{name: "coverage at the threshold", edit: func(c []Check) []Check {
			c[1].Value = fnum(90)
			return c
		}, holds: true, measured: func(m *Measured) { m.Covered, m.Changed = 9, 10 }},
		{name: "fail that meets its threshold is named", edit: func(c []Check) []Check {
			c[1].Result = ResultFail
			return c
		}, floor: "coverage", words: "disagrees with its own numbers"},
		{name: "coverage 0 under a threshold of 0", edit: func(c []Check) []Check {
			c[1].Value = fnum(0)
			return c
		}, holds: true, measured: func(m *Measured) { m.Covered = 0 }, threshold: "0"},
		{name: "coverage between the default and the base's threshold", edit: func(c []Check) []Check {
			c[1].Value = fnum(92.8)
			return c
		}, floor: "coverage", words: "92.8 does not meet the threshold 95", measured: func(m *Measured) { m.Covered, m.Changed = 13, 14 }, threshold: "95"},
		{name: "vet threshold past the counts a float holds exactly", edit: func(c []Check) []Check {
			c[2].Threshold = fnum(1 << 53)
			return c
		}, floor: "vet", words: "its threshold 9007199254740992 is not a count of findings"},
		{name: "vet threshold at the last exact count", edit: func(c []Check) []Check {
			c[2].Threshold = fnum(1<<53 - 1)
			return c
		}, holds: true},
		{name: "coverage rounded up past its report", edit: func(c []Check) []Check {
			c[1].Value = fnum(93)
			return c
		}, floor: "coverage", words: "it claims 93 but its coverage report counts 13 of 14", measured: func(m *Measured) { m.Covered, m.Changed = 13, 14 }},
		{name: "vet with a negative count claiming pass", edit: func(c []Check) []Check {
			c[2].Value = fnum(-1)
			return c
		}, floor: "vet", words: "its value -1 is not a count of findings"},
		{name: "vet without a threshold", edit: func(c []Check) []Check {
			c[2].Threshold = nil
			return c
		}, floor: "vet", words: "it has no threshold; a vet floor without one was not written by aayu verify"},
		{name: "tests without hashed events", edit: func(c []Check) []Check { return c },
			floor: "tests", words: "the pack holds no test events whose bytes were hashed here", measured: func(m *Measured) { m.TestsKnown, m.TestsPassed = false, 0 }},
		{name: "vet with findings claiming pass", edit: func(c []Check) []Check {
			c[2].Value = fnum(3)
			return c
		}, floor: "vet", words: "does not meet"},
		{name: "only a vet check", edit: func(c []Check) []Check { return c[2:] }, floor: "coverage", words: "no coverage check"},
		{name: "required floor missing", edit: func(c []Check) []Check { return c[1:] }, floor: "tests", words: "required"},
		{name: "required floor skipped", edit: func(c []Check) []Check {
			c[0].Result = ResultSkipped
			return c
		}, floor: "tests", words: "skipped"},
		{name: "required floor waived", edit: func(c []Check) []Check {
			c[1].Result = ResultWaived
			return c
		}, floor: "coverage", words: "waived"},
		{name: "required floor blocked", edit: func(c []Check) []Check {
			c[2].Result = ResultBlocked
			return c
		}, floor: "vet", words: "blocked"},
		{name: "every check skipped", edit: func(c []Check) []Check {
			for i := range c {
				c[i].Result = ResultSkipped
			}
			return c
		}, floor: "tests", words: "skipped"},
		{name: "optional floor skipped holds", edit: func(c []Check) []Check {
			return append(c, Check{Floor: FloorRedOnBase, Result: ResultSkipped})
		}, holds: true},
		{name: "red-on-base required by policy", edit: func(c []Check) []Check { return c },
			required: []string{"tests", "coverage", "vet", FloorRedOnBase}, floor: FloorRedOnBase, words: "no red-on-base check"},
		{name: "unknown result", edit: func(c []Check) []Check {
			return append(c, Check{Floor: "lint", Result: "great"})
		}, floor: "lint", words: "not one aayu knows"},
		{name: "no checks at all", edit: func([]Check) []Check { return nil }, required: []string{}},
		{name: "tests count above the events", edit: func(c []Check) []Check {
			c[0].Value = fnum(300)
			return c
		}, floor: "tests", words: "claims 300 tests passed, but the pack's test events show 12"},
		{name: "tests count of 0 beside passing events", edit: func(c []Check) []Check {
			c[0].Value = fnum(0)
			return c
		}, floor: "tests", words: "claims 0 tests passed, but the pack's test events show 12"},
		{name: "tests count one below the events", edit: func(c []Check) []Check {
			c[0].Value = fnum(11)
			return c
		}, floor: "tests", words: "claims 11 tests passed, but the pack's test events show 12"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			measured := goodMeasured()
			if tc.measured != nil {
				tc.measured(&measured)
			}
			holds, failed := JudgeFloors(tc.edit(goodChecks()), FloorPolicy{Required: tc.required, CoverageThreshold: CoverageThresholdSetting(tc.threshold)}, measured)
			if holds != tc.holds {
				t.Fatalf("holds = %v, want %v (failed %+v)", holds, tc.holds, failed)
			}
			if tc.floor == "" {
				return
			}
			c := failedNamed(failed, tc.floor)
			if c == nil || !strings.Contains(c.Detail, tc.words) {
				t.Fatalf("failed floors %+v do not name %s with %q", failed, tc.floor, tc.words)
			}
		})
	}
}

func TestFloorsRefuseCoverageBelowThreshold(t *testing.T) {
	files := fixtureFiles()
	p := fixturePack(files)
	p.Checks[1].Value = fnum(10) // result still says pass
	r, err := VerifyDir(context.Background(), writeFixtureDir(t, p, files), fixtureOptions())
	if err != nil {
		t.Fatal(err)
	}
	if !r.Verified() || r.FloorsHold {
		t.Fatalf("coverage 10 of 90 claiming pass: verified %v, floors hold %v", r.Verified(), r.FloorsHold)
	}
}

func TestFloorsRefusePackWithOnlyVet(t *testing.T) {
	files := fixtureFiles()
	p := fixturePack(files)
	p.Checks = p.Checks[2:]
	r, err := VerifyDir(context.Background(), writeFixtureDir(t, p, files), fixtureOptions())
	if err != nil {
		t.Fatal(err)
	}
	if r.FloorsHold || failedNamed(r.FailedFloors, "coverage") == nil || failedNamed(r.FailedFloors, "tests") == nil {
		t.Fatalf("a pack with only vet holds: %+v", r.FailedFloors)
	}
	if c := failedNamed(r.FailedFloors, "coverage"); c.Result != ResultMissing {
		t.Errorf("missing coverage reported as %q", c.Result)
	}
}

func TestFloorsFollowRequiredFloorsPolicy(t *testing.T) {
	checks := goodChecks()[1:] // no tests floor
	if ok, _ := holdFor(checks, nil, nil); ok {
		t.Error("the default policy does not require tests")
	}
	if ok, failed := holdFor(checks, RequiredFloorsSetting([]string{"coverage", "vet"}), nil); !ok {
		t.Errorf("a policy not requiring tests still failed: %+v", failed)
	}
	// coverage_threshold: unset is the default; 0 and 100 are the range's
	// own edges; anything outside it (config refuses one) is the strictest.
	for v, want := range map[string]float64{"0": 0, "100": 100, "87.5": 87.5, " 95 ": 95, "-0.1": 100, "100.1": 100, "NaN": 100, "ninety": 100} {
		if got := CoverageThresholdSetting(v); got == nil || *got != want {
			t.Errorf("CoverageThresholdSetting(%q) = %v, want %v", v, got, want)
		}
	}
	if got := CoverageThresholdSetting(""); got != nil {
		t.Errorf("CoverageThresholdSetting(\"\") = %v, want nil (the default)", *got)
	}
	if got := RequiredFloorsSetting(nil); got == nil || len(got) != 0 {
		t.Errorf("RequiredFloorsSetting(nil) = %#v, want an empty list that is not the defaults", got)
	}
}

// settingsMap is configuration as FloorsFrom reads it: an absent key reads
// as "" or nil, as config.Config reads a key no layer sets.
type settingsMap map[string]any

func (m settingsMap) String(k string) string    { s, _ := m[k].(string); return s }
func (m settingsMap) Strings(k string) []string { s, _ := m[k].([]string); return s }

// TestFloorsFromMapsTheVerifySettings: the one mapping of [verify] to the
// floor policy: required_floors as set (an empty list requires nothing, an
// unset one is the defaults' empty list, never nil), coverage_threshold as
// a number, unset as the default, and out of range as the strictest.
func TestFloorsFromMapsTheVerifySettings(t *testing.T) {
	for _, tc := range []struct {
		name      string
		set       settingsMap
		required  []string
		threshold float64
	}{
		{name: "both set", set: settingsMap{"verify.required_floors": []string{"tests", "red-on-base"}, "verify.coverage_threshold": "75"},
			required: []string{"tests", "red-on-base"}, threshold: 75},
		{name: "neither set", set: settingsMap{}, required: []string{}, threshold: DefaultCoverageThreshold},
		{name: "a threshold out of range", set: settingsMap{"verify.coverage_threshold": "101"}, required: []string{}, threshold: 100},
		{name: "a threshold that is no number", set: settingsMap{"verify.coverage_threshold": "lots"}, required: []string{}, threshold: 100},
		{name: "a threshold of zero", set: settingsMap{"verify.coverage_threshold": "0"}, required: []string{}, threshold: 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := FloorsFrom(tc.set)
			if f.Required == nil || strings.Join(f.Required, ",") != strings.Join(tc.required, ",") {
				t.Errorf("Required = %#v, want %#v", f.Required, tc.required)
			}
			if got := f.coverageThreshold(); got != tc.threshold {
				t.Errorf("coverage threshold = %v, want %v", got, tc.threshold)
			}
		})
	}
}
