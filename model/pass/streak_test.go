package pass

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// TestStreaks: each rule of the streak has a row that fails when the rule
// is removed: a clean agent sample at rung A or B adds one to each of its
// layers; rung C, no rung, a person's own pull request and no author add
// nothing; a machine user named in bot_logins is an agent; a correction
// resets its layers whatever its rung or author; a line that cannot be
// read, or one too long to read, resets every layer.
func TestStreaks(t *testing.T) {
	line := func(pr int, correction bool, rung, author string, layers ...string) string {
		return `{"pr":` + itoa(pr) + `,"correction":` + map[bool]string{true: "true", false: "false"}[correction] +
			`,"layers":["` + strings.Join(layers, `","`) + `"],"rung":"` + rung + `","author":"` + author + `"}` + "\n"
	}
	bots := []string{"machine-user"}
	for _, c := range []struct {
		name    string
		samples string
		want    map[string]int
	}{
		{"agent clean at A and B", line(1, false, "A", "agent[bot]", "L01", "L02") + line(2, false, "B", "agent[bot]", "L01"), map[string]int{"L01": 2, "L02": 1}},
		{"rung in lower case", line(1, false, "b", "agent[bot]", "L01"), map[string]int{"L01": 1}},
		{"rung C never counts", line(1, false, "A", "agent[bot]", "L01") + line(2, false, "C", "agent[bot]", "L01"), map[string]int{"L01": 1}},
		{"no rung never counts", line(1, false, "", "agent[bot]", "L01"), map[string]int{}},
		{"a rung aayu does not know never counts", line(1, false, "human", "agent[bot]", "L01"), map[string]int{}},
		{"a person's own pull request never counts", line(1, false, "A", "founder", "L01") + line(2, false, "A", "agent[bot]", "L01"), map[string]int{"L01": 1}},
		{"no author never counts", line(1, false, "A", "", "L01"), map[string]int{}},
		{"a machine user in bot_logins is an agent", line(1, false, "A", "Machine-User", "L01"), map[string]int{"L01": 1}},
		{"a correction resets its layers", line(1, false, "A", "agent[bot]", "L01", "L02") + line(2, true, "A", "agent[bot]", "L01") + line(3, false, "A", "agent[bot]", "L01"),
			map[string]int{"L01": 1, "L02": 1}},
		{"a rung C correction still resets", line(1, false, "A", "agent[bot]", "L01") + line(2, true, "C", "agent[bot]", "L01"), map[string]int{"L01": 0}},
		{"a person's correction still resets", line(1, false, "A", "agent[bot]", "L01") + line(2, true, "", "founder", "L01"), map[string]int{"L01": 0}},
		{"an unreadable line resets every layer", line(1, false, "A", "agent[bot]", "L01") + "{not json\n" + line(2, false, "A", "agent[bot]", "L02"), map[string]int{"L02": 1}},
		{"a line too long to read resets every layer", line(1, false, "A", "agent[bot]", "L01") + `{"pr":2,"layers":["` + strings.Repeat("x", 2<<20) + `"]}` + "\n", map[string]int{}},
		{"blank lines are skipped", line(1, false, "A", "agent[bot]", "L01") + "\n" + line(2, false, "A", "agent[bot]", "L01"), map[string]int{"L01": 2}},
	} {
		if got := Streaks([]byte(c.samples), bots); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// TestSampleCountsSaysWhy: a sample that does not count says why in words.
func TestSampleCountsSaysWhy(t *testing.T) {
	for _, c := range []struct {
		s    StreakSample
		want string
	}{
		{StreakSample{Rung: "C", Author: "a[bot]"}, "rung C, which never counts"},
		{StreakSample{Rung: "A", Author: "founder"}, "@founder's own pull request, and a person's pull request has no streak"},
		{StreakSample{Rung: "", Author: "a[bot]"}, "no inspect rung A or B is recorded"},
		{StreakSample{Rung: "A"}, "its author is not recorded"},
	} {
		if ok, why := SampleCounts(c.s, nil); ok || !strings.Contains(why, c.want) {
			t.Errorf("%+v: %v %q, want not counted because %q", c.s, ok, why, c.want)
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
