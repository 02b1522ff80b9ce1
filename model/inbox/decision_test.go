package inbox

import (
	"errors"
	"github.com/aayudha/aayu/model/identity"
	"reflect"
	"strings"
	"testing"
)

const seatDecision = `We need a production engineer.

## Options
1. Add the seat (recommended)
   Costs one more seat a month.
2. Wait a quarter

## Context
Door: two-way
`

func TestParseDecision(t *testing.T) {
	cases := []struct {
		name  string
		body  string
		want  Decision
		error string // substring when it must fail
	}{
		{"seat", seatDecision, Decision{Options: []Option{{1, "Add the seat", true}, {2, "Wait a quarter", false}}, Recommended: 1, Door: DoorTwoWay}, ""},
		{"CRLF, paren numbers, marker in the middle, one-way", "## Options\r\n1) Keep it\r\n2) Drop **(Recommended)** it now\r\n\r\nDoor: One-Way\r\n",
			Decision{Options: []Option{{1, "Keep it", false}, {2, "Drop ** ** it now", true}}, Recommended: 2, Door: DoorOneWay}, ""},
		{"heading with trailing hashes", "## Options ##\n1. A (recommended)\n2. B\nDoor: two-way\n",
			Decision{Options: []Option{{1, "A", true}, {2, "B", false}}, Recommended: 1, Door: DoorTwoWay}, ""},
		{"a numbered list elsewhere is ignored", "## Plan\n1. x\n2. y\n## Options\n1. A\n2. B (recommended)\nDoor: two-way",
			Decision{Options: []Option{{1, "A", false}, {2, "B", true}}, Recommended: 2, Door: DoorTwoWay}, ""},
		{"door inside a code block does not count", "## Options\n1. A (recommended)\n```\nDoor: one-way\n```\nDoor: two-way\n",
			Decision{Options: []Option{{1, "A", true}}, Recommended: 1, Door: DoorTwoWay}, ""},
		{"no options section", "Door: two-way\n1. A (recommended)", Decision{}, "no ## Options section"},
		{"empty options", "## Options\nnothing yet\nDoor: two-way", Decision{}, "no numbered options"},
		{"no recommendation", "## Options\n1. A\n2. B\nDoor: two-way", Decision{}, "no option is marked"},
		{"two recommendations", "## Options\n1. A (recommended)\n2. B (recommended)\nDoor: two-way", Decision{}, "both marked"},
		{"gap in numbers", "## Options\n1. A (recommended)\n3. C\nDoor: two-way", Decision{}, "option 3 follows option 1"},
		{"starts at 0", "## Options\n0. A (recommended)\nDoor: two-way", Decision{}, "option 0 follows option 0"},
		{"ten options", "## Options\n1. a (recommended)\n2. b\n3. c\n4. d\n5. e\n6. f\n7. g\n8. h\n9. i\n10. j\nDoor: two-way", Decision{}, "more than 9"},
		{"empty title", "## Options\n1. (recommended)\nDoor: two-way", Decision{}, "option 1 has no title"},
		{"no door", "## Options\n1. A (recommended)", Decision{}, "no line Door"},
		{"bad door", "## Options\n1. A (recommended)\nDoor: three-way", Decision{}, `"three-way"`},
		{"doors disagree", "## Options\n1. A (recommended)\nDoor: one-way\nDoor: two-way", Decision{}, "disagree"},
		{"two options sections", "## Options\n1. A (recommended)\n## Options\n1. B\nDoor: one-way", Decision{}, "more than one"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ParseDecision(c.body)
			if c.error != "" {
				if err == nil || !errors.Is(err, ErrNotDecision) || !strings.Contains(err.Error(), c.error) {
					t.Fatalf("err = %v, want ErrNotDecision mentioning %q", err, c.error)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got %+v\nwant %+v", got, c.want)
			}
		})
	}
}

// FuzzParseDecision: never panics, and whatever it accepts keeps the
// invariants the inbox relies on.
func FuzzParseDecision(f *testing.F) {
	f.Add(seatDecision)
	f.Add("## Options\n1. A (recommended)\nDoor: one-way")
	f.Add("## Options\n1) A\n2) B (RECOMMENDED)\n```\n3. C\n```\nDoor: two-way\n")
	f.Fuzz(func(t *testing.T, body string) {
		d, err := ParseDecision(body)
		if err != nil {
			if !errors.Is(err, ErrNotDecision) {
				t.Fatalf("error %v does not wrap ErrNotDecision", err)
			}
			return
		}
		if len(d.Options) == 0 || len(d.Options) > MaxOptions {
			t.Fatalf("%d options accepted", len(d.Options))
		}
		if d.Door != DoorOneWay && d.Door != DoorTwoWay {
			t.Fatalf("door %q accepted", d.Door)
		}
		recs := 0
		for i, o := range d.Options {
			if o.Number != i+1 {
				t.Fatalf("option %d numbered %d", i+1, o.Number)
			}
			if o.Title == "" || strings.ContainsAny(o.Title.Raw(), "\r\n") || strings.Contains(strings.ToLower(o.Title.Raw()), "(recommended)") {
				t.Fatalf("option title %q", o.Title)
			}
			if o.Recommended {
				recs++
				if d.Recommended != o.Number {
					t.Fatalf("recommended %d, option %d marked", d.Recommended, o.Number)
				}
			}
		}
		if recs != 1 {
			t.Fatalf("%d recommended options", recs)
		}
	})
}

func TestLinkedIssues(t *testing.T) {
	cases := []struct {
		ref, body string
		want      []int
	}{
		{"story/131-dental-cap", "", []int{131}},
		{"story/131", "", []int{131}},
		{"story/131x", "", []int{}},
		{"feature/131-x", "", []int{}},
		{"main", "Closes #12 and fixes #7. resolves #7", []int{7, 12}},
		{"main", "REFS #5, Refs: #6", []int{5, 6}},
		{"main", "prefs #5, closes #5a, closes owner/repo#9, closes#3", []int{}},
		{"story/2-x", "Fixes #2", []int{2}},
	}
	for _, c := range cases {
		if got := LinkedIssues(c.ref, c.body); !reflect.DeepEqual(got, c.want) {
			t.Errorf("LinkedIssues(%q, %q) = %v, want %v", c.ref, c.body, got, c.want)
		}
	}
	if got := ReplacedIssues("This Replaces #4; replaces #4 again, and Replaces: #9. displaces #1"); !reflect.DeepEqual(got, []int{4, 9}) {
		t.Errorf("ReplacedIssues = %v", got)
	}
}

func TestCutWords(t *testing.T) {
	long := strings.Repeat("word ", 80)
	got := CutWords(long, CounselWords)
	if n := len(strings.Fields(strings.TrimSuffix(got, "…"))); n != 75 || !strings.HasSuffix(got, "…") {
		t.Fatalf("cut to %d words, ellipsis %v", n, strings.HasSuffix(got, "…"))
	}
	if got := CutWords("  a\n b  ", 75); got != "a b" {
		t.Fatalf("short text = %q", got)
	}
}

func TestCounselSaysCounselOnce(t *testing.T) {
	d, err := ParseDecision("## Options\n1. Keep it (recommended)\n2. Drop it\n\nDoor: two-way\n")
	if err != nil {
		t.Fatal(err)
	}
	writer := identity.Account{Login: "writer", Permission: "write"}
	got := decisionCounsel([]identity.Comment{{ID: 1, Author: writer, Body: CounselMarker + "\nCounsel: keep it; dropping it is cheap to undo."}}, d)
	if got != "keep it; dropping it is cheap to undo." {
		t.Fatalf("counsel %q", got)
	}
}
