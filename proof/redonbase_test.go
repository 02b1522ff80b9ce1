package proof

import (
	"strings"
	"testing"
	"time"
)

func TestRedOnBaseString(t *testing.T) {
	for c, want := range map[RedOnBase]string{
		GreenOnBase:       "green on base",
		RedOnBaseShowsFix: "red on base",
		Inconclusive:      "inconclusive",
		0:                 "not classified",
	} {
		if c.String() != want {
			t.Errorf("%d.String() = %q, want %q", int(c), c.String(), want)
		}
	}
}

func TestRedOnBaseCheck(t *testing.T) {
	blockingFrom := time.Date(2026, 11, 13, 0, 0, 0, 0, time.UTC)
	before := blockingFrom.Add(-time.Second)
	red := CriterionRedOnBase{ID: 1, Tests: []string{"TestScreenRefuses"}, Class: RedOnBaseShowsFix}
	green := CriterionRedOnBase{ID: 2, Tests: []string{"TestAnswerCitesPassage", "TestRespondScreensFirst"}, Class: GreenOnBase}
	unbuilt := CriterionRedOnBase{ID: 3, Tests: []string{"TestNewHelper"}, Class: Inconclusive, Detail: "does not build on base"}
	unset := CriterionRedOnBase{ID: 4, Tests: []string{"TestY"}}

	tests := []struct {
		name    string
		results []CriterionRedOnBase
		from    time.Time
		now     time.Time
		result  string
		green   float64
		words   []string
	}{
		{"advisory, all red", []CriterionRedOnBase{red}, blockingFrom, before, ResultPass, 0,
			[]string{"advisory until 2026-11-13", "criterion 1: red on base (TestScreenRefuses)"}},
		{"advisory, green still passes", []CriterionRedOnBase{green, red}, blockingFrom, before, ResultPass, 1,
			[]string{"advisory until 2026-11-13, when 1 green-on-base criterion would fail",
				"criterion 1: red on base (TestScreenRefuses); criterion 2: green on base (TestAnswerCitesPassage, TestRespondScreensFirst)"}},
		{"blocking on the date, green fails", []CriterionRedOnBase{red, green}, blockingFrom, blockingFrom, ResultFail, 1,
			[]string{"1 criterion is green on base, so its tests do not show the fix", "criterion 2: green on base"}},
		{"blocking, two green", []CriterionRedOnBase{green, {ID: 5, Class: GreenOnBase}}, blockingFrom, blockingFrom.AddDate(0, 1, 0), ResultFail, 2,
			[]string{"2 criteria are green on base", "criterion 5: green on base"}},
		{"blocking, all red", []CriterionRedOnBase{red}, blockingFrom, blockingFrom.AddDate(1, 0, 0), ResultPass, 0,
			[]string{"no criterion is green on base", "criterion 1: red on base"}},
		{"blocking, inconclusive never fails", []CriterionRedOnBase{unbuilt, red}, blockingFrom, blockingFrom, ResultPass, 0,
			[]string{"criterion 1: red on base (TestScreenRefuses); criterion 3: inconclusive (TestNewHelper: does not build on base)"}},
		{"blocking, unclassified never fails", []CriterionRedOnBase{unset}, blockingFrom, blockingFrom, ResultPass, 0,
			[]string{"criterion 4: not classified (TestY)"}},
		{"zero date blocks at once", []CriterionRedOnBase{green}, time.Time{}, before, ResultFail, 1,
			[]string{"green on base"}},
		{"nothing to run", nil, blockingFrom, blockingFrom, ResultSkipped, 0,
			[]string{"no criteria with mapped tests"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := RedOnBaseCheck(tc.results, tc.from, tc.now)
			if c.Floor != FloorRedOnBase || c.Tool == "" {
				t.Errorf("floor %q tool %q", c.Floor, c.Tool)
			}
			if c.Result != tc.result {
				t.Errorf("result %q, want %q (detail %q)", c.Result, tc.result, c.Detail)
			}
			if tc.results != nil && (c.Value == nil || *c.Value != tc.green || c.Threshold == nil || *c.Threshold != 0) {
				t.Errorf("value/threshold %v/%v, want %v/0", c.Value, c.Threshold, tc.green)
			}
			for _, w := range tc.words {
				if !strings.Contains(c.Detail, w) {
					t.Errorf("detail %q does not say %q", c.Detail, w)
				}
			}
		})
	}

	// The caller's slice keeps its order.
	in := []CriterionRedOnBase{green, red}
	RedOnBaseCheck(in, blockingFrom, before)
	if in[0].ID != 2 {
		t.Error("RedOnBaseCheck reordered its input")
	}
}
