package actions

import (
	"bufio"
	"encoding/json"
	"os"
	"sync"
	"testing"
	"time"
)

func TestLogAppendsWholeLinesPerDay(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	day := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	l := OpenLog(dir, func() time.Time { return day })
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := l.Append(Record{Command: "decide 324 --accept 1", Item: "#324", Who: "founder", Outcome: "done", Writes: []string{"comment", string(rune('a' + i%26))}}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	f, err := os.Open(l.Segment(day))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r Record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("line %d is not a whole record: %v", n+1, err)
		}
		if r.Time != day || r.Outcome != "done" {
			t.Fatalf("line %d: %+v", n+1, r)
		}
		n++
	}
	if n != 40 {
		t.Fatalf("%d records, want 40", n)
	}
	if fi, _ := os.Stat(l.Segment(day)); fi.Mode().Perm() != 0o600 {
		t.Errorf("the log is readable by others: %v", fi.Mode())
	}
}

func TestDefaultLogDirIsOutsideTheRepository(t *testing.T) {
	t.Parallel()
	env := map[string]string{"HOME": "/home/founder"}
	got, err := DefaultLogDir(func(k string) string { return env[k] })
	if err != nil || got != "/home/founder/.local/state/aayu/actions" {
		t.Fatalf("got %q, %v", got, err)
	}
	env["XDG_STATE_HOME"] = "/state"
	if got, _ := DefaultLogDir(func(k string) string { return env[k] }); got != "/state/aayu/actions" {
		t.Fatalf("got %q", got)
	}
	if _, err := DefaultLogDir(func(string) string { return "" }); err == nil {
		t.Fatal("no HOME and no XDG_STATE_HOME gave a folder")
	}
}

// TestLogInterruptedListsOnlyStopsNoRunFinished: a request whose latest
// record is interrupted is listed for its repository; one a later run
// finished, and another repository's, are not.
func TestLogInterruptedListsOnlyStopsNoRunFinished(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 12, 2, 0, 30, 0, 0, time.UTC)
	l := OpenLog(t.TempDir(), nil)
	for _, r := range []Record{
		{Time: now.AddDate(0, 0, -1), Command: "inbox: decide 1 --accept 1", Repo: "acme/benefits", Item: "#1", Outcome: OutcomeInterrupted, Writes: []string{"Commented"}},
		{Time: now.Add(-time.Hour), Command: "inbox: inspect 6 --approve", Repo: "acme/benefits", Item: "#6", Outcome: OutcomeInterrupted},
		{Time: now.Add(-time.Minute), Command: "inbox: inspect 6 --approve", Repo: "acme/benefits", Item: "#6", Outcome: OutcomeDone},
		{Time: now.Add(-time.Minute), Command: "inbox: decide 2 --accept 1", Repo: "acme/other", Item: "#2", Outcome: OutcomeInterrupted},
		{Time: now.AddDate(0, 0, -9), Command: "inbox: decide 3 --accept 1", Repo: "acme/benefits", Item: "#3", Outcome: OutcomeInterrupted},
	} {
		if err := l.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	got := l.Interrupted("acme/benefits", now, 7)
	if len(got) != 1 || got[0].Item != "#1" || len(got[0].Writes) != 1 {
		t.Errorf("Interrupted = %+v; want only Decision #1's stop, with what it wrote", got)
	}
}
