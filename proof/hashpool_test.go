package proof

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// manyArtifactsPack builds a sound pack of n artifacts of varied sizes, some
// empty and some larger than a worker's buffer, so the workers finish out
// of order.
func manyArtifactsPack(n int) (*Pack, map[string][]byte) {
	files := map[string][]byte{}
	p := fixturePack(nil)
	p.Artifacts = nil
	for i := range n {
		name := fmt.Sprintf("evidence/part-%d/trace-%03d.jsonl", i%3, i)
		size := (i * 7919) % (hashBufferSize + hashBufferSize/2)
		if i%5 == 0 {
			size = 0
		}
		data := make([]byte, size)
		for j := range data {
			data[j] = byte(i ^ j)
		}
		if i == 0 || i == n-1 { // the cited evidence: real test events
			data = fixtureFiles()["evidence/criterion-1.jsonl"]
		}
		files[name] = data
		p.Artifacts = append(p.Artifacts, fixtureArtifact(name, KindAPITrace, StoreGit, data))
	}
	p.Criteria = []Criterion{
		{ID: 1, Evidence: []string{p.Artifacts[0].Path}},
		{ID: 2, Evidence: []string{p.Artifacts[n-1].Path}},
	}
	return p, files
}

// TestVerifyReportsInPackOrder checks that problems and verdicts come out
// in pack order, the same on every run, however the workers interleave, and
// that progress arrives on one goroutine, in steps of one file.
func TestVerifyReportsInPackOrder(t *testing.T) {
	p, files := manyArtifactsPack(60)
	dir := writeFixtureDir(t, p, files)
	art := func(i int) string { return filepath.Join(dir, artifactsDir, filepath.FromSlash(p.Artifacts[i].Path)) }
	// Broken in an order unlike pack order, each a different way.
	appendFile(t, art(58), "x")
	mustRemove(t, art(41))
	flipFileByte(t, art(7), 100)
	if err := os.Truncate(art(23), 10); err != nil {
		t.Fatal(err)
	}
	flipFileByte(t, art(2), 0)
	wantPaths := []string{p.Artifacts[2].Path, p.Artifacts[7].Path, p.Artifacts[23].Path, p.Artifacts[41].Path, p.Artifacts[58].Path}
	wantCodes := []Code{CodeHashMismatch, CodeHashMismatch, CodeSizeMismatch, CodeMissingFile, CodeSizeMismatch}

	var first *Report
	for run := range 5 {
		var steps []Progress // appended without a lock: -race fails if two goroutines call
		opts := fixtureOptions()
		opts.Progress = func(pr Progress) { steps = append(steps, pr) }
		r, err := VerifyDir(context.Background(), dir, opts)
		if err != nil {
			t.Fatal(err)
		}
		var paths []string
		for _, pr := range r.Problems {
			paths = append(paths, pr.Path)
		}
		if !reflect.DeepEqual(paths, wantPaths) || !reflect.DeepEqual(problemCodes(r), wantCodes) {
			t.Fatalf("run %d: problems in order\n%v\n%v\nwant\n%v\n%v", run, paths, problemCodes(r), wantPaths, wantCodes)
		}
		for i, ar := range r.Artifacts {
			if ar.Artifact.Path != p.Artifacts[i].Path {
				t.Fatalf("run %d: artifact result %d is %s, want %s", run, i, ar.Artifact.Path, p.Artifacts[i].Path)
			}
		}
		if first == nil {
			first = r
		} else if !reflect.DeepEqual(r, first) {
			t.Fatalf("run %d gave a different report from run 0", run)
		}
		if len(steps) != len(p.Artifacts) {
			t.Fatalf("run %d: %d progress calls for %d artifacts", run, len(steps), len(p.Artifacts))
		}
		for i, pr := range steps {
			if pr.DoneFiles != i+1 || (i > 0 && pr.DoneBytes < steps[i-1].DoneBytes) {
				t.Fatalf("run %d: progress step %d is %+v after %+v", run, i, pr, steps[max(i-1, 0)])
			}
		}
		if last := steps[len(steps)-1]; last.DoneBytes != last.TotalBytes {
			t.Errorf("run %d: last progress %+v, want all bytes done", run, last)
		}
	}
}

func TestVerifyStopsWhenCancelledMidway(t *testing.T) {
	p, files := manyArtifactsPack(60)
	dir := writeFixtureDir(t, p, files)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opts := fixtureOptions()
	calls := 0
	opts.Progress = func(Progress) {
		calls++
		cancel()
	}
	r, err := VerifyDir(ctx, dir, opts)
	if !errors.Is(err, context.Canceled) || r != nil {
		t.Fatalf("VerifyDir = %v, %v; want no report and context.Canceled", r, err)
	}
	if calls >= len(p.Artifacts) {
		t.Errorf("every artifact was checked (%d progress calls) though the caller gave up after the first", calls)
	}
	if !strings.Contains(err.Error(), "stopped") {
		t.Errorf("error %q does not say verification stopped", err)
	}
}

// TestVerifyStreamsLargeArtifact checks that a large artifact is hashed
// through a fixed buffer, never read whole into memory.
func TestVerifyStreamsLargeArtifact(t *testing.T) {
	const size = 16 << 20
	data := make([]byte, size)
	for i := range data {
		data[i] = byte(i * 31)
	}
	p := fixturePack(nil)
	events := fixtureFiles()["evidence/criterion-1.jsonl"]
	p.Artifacts = []Artifact{fixtureArtifact("reports/trace.txt", KindReport, StoreGit, data),
		fixtureArtifact("evidence/criterion-1.jsonl", KindAPITrace, StoreGit, events)}
	p.Criteria = []Criterion{{ID: 1, Evidence: []string{"reports/trace.txt", "evidence/criterion-1.jsonl"}}, {ID: 2, Evidence: []string{"evidence/criterion-1.jsonl"}}}
	dir := writeFixtureDir(t, p, map[string][]byte{"reports/trace.txt": data, "evidence/criterion-1.jsonl": events})
	data = nil

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	r, err := VerifyDir(context.Background(), dir, fixtureOptions())
	runtime.ReadMemStats(&after)
	if err != nil || !r.Verified() {
		t.Fatalf("not verified: %v%s", err, describeProblems(r))
	}
	if allocated := after.TotalAlloc - before.TotalAlloc; allocated > size/4 {
		t.Errorf("verifying a %d MiB artifact allocated %d bytes; it should stream through a small buffer", size>>20, allocated)
	}
}
