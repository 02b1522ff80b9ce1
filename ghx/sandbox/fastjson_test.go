package sandbox

import (
	"bytes"
	"encoding/json"
	"sort"
	"testing"
	"time"
)

// TestFastJSONRefusesToDifferFromEncodingJSON: every issue and pull request
// the list endpoints render, and values with every escape encoding/json
// makes, encode to the very bytes json.Marshal gives.
func TestFastJSONRefusesToDifferFromEncodingJSON(t *testing.T) {
	t.Parallel()
	s, err := New(Options{Scale: 60, Now: func() time.Time { return time.Date(2026, 10, 20, 12, 0, 0, 0, time.UTC) }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	base := "http://127.0.0.1:1234"
	var values []any
	counts := s.commentCounts()
	if len(counts) == 0 {
		t.Fatal("the seeded sandbox has no comments to count")
	}
	for _, is := range s.st.Issues {
		one, err := json.Marshal(s.issueJSON(base, is))
		if err != nil {
			t.Fatal(err)
		}
		listed, err := json.Marshal(s.issueJSONCounted(base, is, counts[is.Number]))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(one, listed) {
			t.Fatalf("#%d listed with counted comments:\n got %s\nwant %s", is.Number, listed, one)
		}
		values = append(values, s.issueJSON(base, is))
		if is.PR != nil {
			values = append(values, s.prJSON(base, is, false), s.prJSON(base, is, true))
		}
	}
	if len(values) < 60 {
		t.Fatalf("only %d rendered items", len(values))
	}
	values = append(values,
		map[string]any{"a<b": "x&y>z", "q\"": "back\\slash", "ctl": "tab\there\n", "uni": "héllo \u2028 \xff", "": ""},
		[]any{nil, true, false, 0, -7, int64(1) << 40, 1.5, []string{"x"}, map[string]any(nil), []any(nil), []any{}, map[string]any{}},
		map[string]any{"nested": map[string]any{"z": 1, "a": []any{map[string]any{"b": "c"}}}, "time": time.Unix(0, 0).UTC()},
	)
	for i, v := range values {
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		got, err := appendJSON(nil, v)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("value %d:\n got %s\nwant %s", i, got, want)
		}
	}
}

// sortIssuesStable is the sort the list endpoints used before keys were
// computed once: the reference sortIssues must agree with.
func sortIssuesStable(list []*issueRec, by, dir string, comments func(int) int) {
	key := func(is *issueRec) int64 {
		switch by {
		case "updated":
			return is.UpdatedAt.UnixNano()
		case "comments":
			return int64(comments(is.Number))
		}
		return is.CreatedAt.UnixNano()
	}
	asc := dir == "asc"
	sort.SliceStable(list, func(i, j int) bool {
		ki, kj := key(list[i]), key(list[j])
		if ki == kj {
			if asc {
				return list[i].Number < list[j].Number
			}
			return list[i].Number > list[j].Number
		}
		if asc {
			return ki < kj
		}
		return ki > kj
	})
}

// TestSortIssuesRefusesToReorderTies: with many equal keys (shared creation
// times, equal comment counts) every sort and direction gives the order the
// stable sort gave.
func TestSortIssuesRefusesToReorderTies(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var list []*issueRec
	for n := 1; n <= 500; n++ {
		list = append(list, &issueRec{Number: n,
			CreatedAt: t0.Add(time.Duration((n*7)%13) * time.Minute),
			UpdatedAt: t0.Add(time.Duration((n*5)%11) * time.Minute)})
	}
	comments := func(n int) int { return (n * 3) % 4 }
	for _, by := range []string{"", "created", "updated", "comments"} {
		for _, dir := range []string{"", "asc", "desc"} {
			want := append([]*issueRec(nil), list...)
			got := append([]*issueRec(nil), list...)
			sortIssuesStable(want, by, dir, comments)
			sortIssues(got, by, dir, comments)
			for i := range want {
				if want[i].Number != got[i].Number {
					t.Fatalf("sort=%q direction=%q: position %d is #%d, want #%d", by, dir, i, got[i].Number, want[i].Number)
				}
			}
		}
	}
}
