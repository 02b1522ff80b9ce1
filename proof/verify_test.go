package proof

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestVerifyAcceptsSoundPack(t *testing.T) {
	files := fixtureFiles()
	p := fixturePack(files)
	dir := writeFixtureDir(t, p, files)
	var last Progress
	opts := fixtureOptions()
	opts.Progress = func(pr Progress) { last = pr }

	r, err := VerifyDir(context.Background(), dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Verified() {
		t.Fatalf("sound pack refused:%s", describeProblems(r))
	}
	if !r.FloorsHold || len(r.FailedFloors) != 0 {
		t.Errorf("FloorsHold = %v, failed %v; want true, none", r.FloorsHold, r.FailedFloors)
	}
	if r.ArtifactsNotStored != 1 {
		t.Errorf("ArtifactsNotStored = %d, want 1 (the screenshot)", r.ArtifactsNotStored)
	}
	for _, a := range r.Artifacts {
		if a.Verdict != VerdictVerified {
			t.Errorf("artifact %s: verdict %q (%s), want verified: bytes present are checked", a.Artifact.Path, a.Verdict, a.Reason)
		}
	}
	if len(r.Criteria) != 2 || !r.Criteria[0].Proven || !r.Criteria[1].Proven || r.Criteria[0].Text != "first" {
		t.Errorf("criteria = %+v, want both proven with Ready text", r.Criteria)
	}
	raw, _ := os.ReadFile(filepath.Join(dir, packFile))
	if want := sha256Hex(raw); r.PackSHA256 != want {
		t.Errorf("PackSHA256 = %s, want %s", r.PackSHA256, want)
	}
	if last.DoneFiles != 4 || last.TotalFiles != 4 || last.DoneBytes != last.TotalBytes || last.TotalBytes == 0 {
		t.Errorf("last progress = %+v, want all 4 files and all bytes done", last)
	}
}

// TestVerifyDetects breaks one thing at a time and expects that exact
// problem to be named; the pack must not verify.
func TestVerifyDetects(t *testing.T) {
	tests := []struct {
		name   string
		break_ func(t *testing.T, p *Pack, files map[string][]byte, o *Options)
		after  func(t *testing.T, dir string) // changes made after the folder is written
		want   []Code
	}{
		{name: "bytes changed, same size", after: func(t *testing.T, dir string) {
			flipFileByte(t, filepath.Join(dir, "artifacts/evidence/criterion-1.jsonl"), 3)
		}, want: []Code{CodeHashMismatch}},
		{name: "media bytes changed though not stored", after: func(t *testing.T, dir string) {
			flipFileByte(t, filepath.Join(dir, "artifacts/screens/1.png"), 0)
		}, want: []Code{CodeHashMismatch}},
		{name: "file longer than declared", after: func(t *testing.T, dir string) {
			appendFile(t, filepath.Join(dir, "artifacts/reports/coverage.txt"), "x")
		}, want: []Code{CodeSizeMismatch}},
		{name: "stored artifact missing", after: func(t *testing.T, dir string) {
			mustRemove(t, filepath.Join(dir, "artifacts/reports/coverage.txt"))
		}, want: []Code{CodeMissingFile}},
		{name: "path listed twice", break_: func(t *testing.T, p *Pack, _ map[string][]byte, _ *Options) {
			p.Artifacts = append(p.Artifacts, p.Artifacts[2])
		}, want: []Code{CodeDuplicatePath}},
		{name: "paths differing only in case", break_: func(t *testing.T, p *Pack, files map[string][]byte, _ *Options) {
			files["Reports/coverage.txt"] = files["reports/coverage.txt"]
			a := p.Artifacts[2]
			a.Path = "Reports/coverage.txt"
			p.Artifacts = append(p.Artifacts, a)
		}, want: []Code{CodeDuplicatePath}},
		{name: "dot-dot path", break_: func(t *testing.T, p *Pack, _ map[string][]byte, _ *Options) {
			p.Artifacts[2].Path = "../pack.json"
		}, want: []Code{CodeEscapingPath}},
		{name: "unclean path", break_: func(t *testing.T, p *Pack, _ map[string][]byte, _ *Options) {
			p.Artifacts[2].Path = "reports//coverage.txt"
		}, want: []Code{CodeUncleanPath}},
		{name: "dot element", break_: func(t *testing.T, p *Pack, _ map[string][]byte, _ *Options) {
			p.Artifacts[2].Path = "./reports/coverage.txt"
		}, want: []Code{CodeUncleanPath}},
		{name: "terminal escape in a path", break_: func(t *testing.T, p *Pack, _ map[string][]byte, _ *Options) {
			p.Artifacts[2].Path = "reports/\x1b]52;c;aGk=\x07coverage.txt"
		}, want: []Code{CodeUncleanPath}},
		{name: "absolute path refused by the schema", break_: func(t *testing.T, p *Pack, _ map[string][]byte, _ *Options) {
			p.Artifacts[2].Path = "/etc/passwd"
		}, want: []Code{CodeSchema}},
		{name: "backslash refused by the schema", break_: func(t *testing.T, p *Pack, _ map[string][]byte, _ *Options) {
			p.Artifacts[2].Path = `reports\coverage.txt`
		}, want: []Code{CodeSchema}},
		{name: "evidence names no artifact", break_: func(t *testing.T, p *Pack, _ map[string][]byte, _ *Options) {
			p.Criteria[1].Evidence = append(p.Criteria[1].Evidence, "evidence/criterion-9.jsonl")
		}, want: []Code{CodeEvidenceUnknown}},
		{name: "criterion without evidence", break_: func(t *testing.T, p *Pack, _ map[string][]byte, _ *Options) {
			p.Criteria[1].Evidence = nil
		}, want: []Code{CodeCriterionNoEvid}},
		{name: "criterion listed twice", break_: func(t *testing.T, p *Pack, _ map[string][]byte, _ *Options) {
			p.Criteria = append(p.Criteria, p.Criteria[0])
		}, want: []Code{CodeDuplicateCriteria}},
		{name: "criterion outside the Ready snapshot", break_: func(t *testing.T, p *Pack, _ map[string][]byte, _ *Options) {
			p.Criteria = append(p.Criteria, Criterion{ID: 3, Evidence: []string{"evidence/criterion-2.jsonl"}})
		}, want: []Code{CodeCriterionOutside}},
		{name: "Ready criterion missing from the pack", break_: func(t *testing.T, p *Pack, _ map[string][]byte, _ *Options) {
			p.Criteria = p.Criteria[:1]
		}, want: []Code{CodeCriterionMissing}},
		{name: "story edited after Ready", break_: func(t *testing.T, _ *Pack, _ map[string][]byte, o *Options) {
			o.Ready.RecordedHash = strings.Repeat("b", 64)
			o.Ready.BodyHash = o.Ready.RecordedHash
		}, want: []Code{CodeGoalHash}},
		{name: "Ready snapshot disagrees with its own body", break_: func(t *testing.T, _ *Pack, _ map[string][]byte, o *Options) {
			o.Ready.BodyHash = strings.Repeat("c", 64)
		}, want: []Code{CodeReadyHash}},
		{name: "head moved on", break_: func(t *testing.T, _ *Pack, _ map[string][]byte, o *Options) {
			o.HeadSHA = strings.Repeat("f", 40)
		}, want: []Code{CodeHeadMismatch}},
		{name: "no head given", break_: func(t *testing.T, _ *Pack, _ map[string][]byte, o *Options) {
			o.HeadSHA = ""
		}, want: []Code{CodeNoHead}},
		{name: "no Ready snapshot given", break_: func(t *testing.T, _ *Pack, _ map[string][]byte, o *Options) {
			o.Ready = nil
		}, want: []Code{CodeNoReady}},
		{name: "another story", break_: func(t *testing.T, _ *Pack, _ map[string][]byte, o *Options) {
			o.Story = 8
		}, want: []Code{CodeStoryMismatch}},
		{name: "another pull request", break_: func(t *testing.T, _ *Pack, _ map[string][]byte, o *Options) {
			o.PR = 22
		}, want: []Code{CodePRMismatch}},
		{name: "no criteria", break_: func(t *testing.T, p *Pack, _ map[string][]byte, o *Options) {
			p.Criteria = nil
			o.Ready.Criteria = nil
		}, want: []Code{CodeEmpty, CodeEmpty}},
		{name: "no artifacts", break_: func(t *testing.T, p *Pack, files map[string][]byte, _ *Options) {
			p.Artifacts = nil
			p.Criteria = []Criterion{{ID: 1}, {ID: 2}}
			clear(files)
		}, want: []Code{CodeEmpty, CodeCriterionNoEvid, CodeCriterionNoEvid}},
		{name: "no checks", break_: func(t *testing.T, p *Pack, _ map[string][]byte, _ *Options) {
			p.Checks = nil
		}, want: []Code{CodeEmpty}},
		{name: "too many artifacts", break_: func(t *testing.T, _ *Pack, _ map[string][]byte, o *Options) {
			o.Limits.Artifacts = 3
		}, want: []Code{CodeTooLarge}},
		{name: "too many bytes", break_: func(t *testing.T, _ *Pack, _ map[string][]byte, o *Options) {
			o.Limits.TotalBytes = 100
		}, want: []Code{CodeTooLarge}},
		{name: "pack.json too large", break_: func(t *testing.T, _ *Pack, _ map[string][]byte, o *Options) {
			o.Limits.PackJSONBytes = 200
		}, want: []Code{CodeTooLarge}},
		{name: "media stored in git", break_: func(t *testing.T, p *Pack, _ map[string][]byte, _ *Options) {
			p.Artifacts[3].Store = StoreGit
		}, want: []Code{CodeMediaRefused}},
		{name: "pack.json missing", after: func(t *testing.T, dir string) {
			mustRemove(t, filepath.Join(dir, packFile))
		}, want: []Code{CodeMissingFile}},
		{name: "artifact path is a folder", after: func(t *testing.T, dir string) {
			name := filepath.Join(dir, "artifacts/reports/coverage.txt")
			mustRemove(t, name)
			if err := os.Mkdir(name, 0o755); err != nil {
				t.Fatal(err)
			}
		}, want: []Code{CodeNotRegular}},
		{name: "symlink to a file inside the pack", after: func(t *testing.T, dir string) {
			name := filepath.Join(dir, "artifacts/reports/coverage.txt")
			data, _ := os.ReadFile(name)
			writeFixtureFile(t, filepath.Join(dir, "artifacts/real.txt"), data)
			mustRemove(t, name)
			mustSymlink(t, "../real.txt", name)
		}, want: []Code{CodeNotRegular}},
		{name: "symlink leaving the pack", after: func(t *testing.T, dir string) {
			name := filepath.Join(dir, "artifacts/reports/coverage.txt")
			outside := filepath.Join(t.TempDir(), "outside.txt")
			data, _ := os.ReadFile(name)
			writeFixtureFile(t, outside, data)
			mustRemove(t, name)
			mustSymlink(t, outside, name)
		}, want: []Code{CodeEscapingPath}},
		{name: "symlinked folder", after: func(t *testing.T, dir string) {
			reports := filepath.Join(dir, "artifacts/reports")
			moved := filepath.Join(t.TempDir(), "reports")
			if err := os.Rename(reports, moved); err != nil {
				t.Fatal(err)
			}
			mustSymlink(t, moved, reports)
		}, want: []Code{CodeEscapingPath}},
		{name: "pack.json is a symlink", after: func(t *testing.T, dir string) {
			name := filepath.Join(dir, packFile)
			data, _ := os.ReadFile(name)
			other := filepath.Join(t.TempDir(), "pack.json")
			writeFixtureFile(t, other, data)
			mustRemove(t, name)
			mustSymlink(t, other, name)
		}, want: []Code{CodeNotRegular}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			files := fixtureFiles()
			p := fixturePack(files)
			opts := fixtureOptions()
			if tc.break_ != nil {
				tc.break_(t, p, files, &opts)
			}
			dir := writeFixtureDir(t, p, files)
			if tc.after != nil {
				tc.after(t, dir)
			}
			r, err := VerifyDir(context.Background(), dir, opts)
			if err != nil {
				t.Fatal(err)
			}
			if r.Verified() {
				t.Fatalf("broken pack verified")
			}
			got := problemCodes(r)
			if !sameCodes(got, tc.want) {
				t.Errorf("problems = %v, want exactly %v:%s", got, tc.want, describeProblems(r))
			}
			for _, pr := range r.Problems {
				if pr.Message == "" || !strings.HasSuffix(pr.Message, ".") {
					t.Errorf("problem %s has no sentence: %q", pr.Code, pr.Message)
				}
				if strings.IndexFunc(pr.Message, isControlOrBidi) >= 0 {
					t.Errorf("problem %s carries a control character to the terminal: %q", pr.Code, pr.Message)
				}
			}
		})
	}
}

// TestVerifyReportsEveryProblem checks that verification goes on after the
// first problem.
func TestVerifyReportsEveryProblem(t *testing.T) {
	files := fixtureFiles()
	p := fixturePack(files)
	p.Criteria[1].Evidence = []string{"nowhere.jsonl"}
	opts := fixtureOptions()
	opts.HeadSHA = strings.Repeat("e", 40)
	dir := writeFixtureDir(t, p, files)
	flipFileByte(t, filepath.Join(dir, "artifacts/evidence/criterion-1.jsonl"), 0)
	mustRemove(t, filepath.Join(dir, "artifacts/reports/coverage.txt"))

	r, err := VerifyDir(context.Background(), dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	want := []Code{CodeHeadMismatch, CodeHashMismatch, CodeMissingFile, CodeEvidenceUnknown}
	if !sameCodes(problemCodes(r), want) {
		t.Errorf("problems = %v, want %v:%s", problemCodes(r), want, describeProblems(r))
	}
	if r.Criteria[0].Proven || r.Criteria[1].Proven {
		t.Errorf("criteria with failed or unknown evidence proven: %+v", r.Criteria)
	}
}

func TestVerifyStoresAndVerdicts(t *testing.T) {
	files := fixtureFiles()
	p := fixturePack(files)
	bucketed := fixtureArtifact("recordings/2.webm", KindRecording, StoreBucket, []byte("webm"))
	bucketed.Object = "acme/benefits/7/recordings/2.webm"
	p.Artifacts = append(p.Artifacts, bucketed)
	p.Criteria[1].Evidence = append(p.Criteria[1].Evidence, "recordings/2.webm")
	delete(files, "screens/1.png") // the ledger copy: media kept by hash only
	dir := writeFixtureDir(t, p, files)

	r, err := VerifyDir(context.Background(), dir, fixtureOptions())
	if err != nil {
		t.Fatal(err)
	}
	if !r.Verified() {
		t.Fatalf("ledger-style pack refused:%s", describeProblems(r))
	}
	want := map[string]ArtifactVerdict{
		"evidence/criterion-1.jsonl": VerdictVerified,
		"screens/1.png":              VerdictNotStored,
		"recordings/2.webm":          VerdictUnchecked,
	}
	for _, a := range r.Artifacts {
		if w, ok := want[a.Artifact.Path]; ok && a.Verdict != w {
			t.Errorf("%s: verdict %q, want %q", a.Artifact.Path, a.Verdict, w)
		}
	}
	if r.ArtifactsNotStored != 1 {
		t.Errorf("ArtifactsNotStored = %d, want 1", r.ArtifactsNotStored)
	}
	if !r.Criteria[0].Proven || !strings.Contains(r.Criteria[0].Reason, "hash only") {
		t.Errorf("criterion 1 = %+v, want proven with a note that evidence is not stored", r.Criteria[0])
	}
}

func TestVerifyReadsPacksFromBefore02(t *testing.T) {
	png := []byte("\x89PNG old screenshot bytes")
	trace := []byte(`{"Action":"run","Test":"TestTwo"}` + "\n" + `{"Action":"pass","Test":"TestTwo"}` + "\n")
	raw := mustReadTestdata(t, "packs/story134-before02.json")
	p, err := Decode(raw)
	if err != nil {
		t.Fatal(err)
	}
	p.Artifacts[0] = withBytes(p.Artifacts[0], png)
	p.Artifacts[2] = withBytes(p.Artifacts[2], trace)
	// The coverage floor is recounted from the pack's report, whatever its
	// age: 187 of 200 is the 93.5 the old pack claims.
	report := []byte("187 of 200 changed lines covered\n")
	p.Artifacts = append(p.Artifacts, fixtureArtifact(CoverageReportPath, KindReport, StoreGit, report))
	ready := &Ready{Story: 134, RecordedHash: p.CompletionGoalHash, BodyHash: p.CompletionGoalHash,
		Criteria: []ReadyCriterion{{ID: 1}, {ID: 2}}}
	// 0.1 packs had no tests or vet floor; a repository reading them names
	// the floors it requires.
	opts := Options{Ready: ready, HeadSHA: p.PRHeadSHA, RequiredFloors: []string{"coverage"}}

	tests := []struct {
		name      string
		screen    []byte // what artifacts/screens/1.png holds; nil: absent
		wantCodes []Code
	}{
		{name: "LFS media smudged", screen: png},
		// A pointer is not the screenshot: criterion 1, proven by it alone,
		// has nothing hashed here.
		{name: "LFS pointer naming the same object", screen: []byte(
			"version https://git-lfs.github.com/spec/v1\noid sha256:" + p.Artifacts[0].SHA256 + "\nsize " + itoa(len(png)) + "\n"),
			wantCodes: []Code{CodeEvidenceNotHashed}},
		{name: "LFS pointer naming another object", screen: []byte(
			"version https://git-lfs.github.com/spec/v1\noid sha256:" + strings.Repeat("9", 64) + "\nsize " + itoa(len(png)) + "\n"),
			wantCodes: []Code{CodeSizeMismatch}},
		{name: "LFS media missing", wantCodes: []Code{CodeMissingFile}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string][]byte{"evidence/criterion-2.jsonl": trace, CoverageReportPath: report}
			if tc.screen != nil {
				files["screens/1.png"] = tc.screen
			}
			dir := writeFixtureDir(t, p, files)
			r, err := VerifyDir(context.Background(), dir, opts)
			if err != nil {
				t.Fatal(err)
			}
			if !sameCodes(problemCodes(r), tc.wantCodes) {
				t.Fatalf("problems = %v, want %v:%s", problemCodes(r), tc.wantCodes, describeProblems(r))
			}
			if r.ArtifactsNotStored != 1 {
				t.Errorf("ArtifactsNotStored = %d, want 1 (the tombstoned recording)", r.ArtifactsNotStored)
			}
			if r.Rules != RulesBefore02 {
				t.Errorf("Rules = %q, want the pre-0.2 rules named", r.Rules)
			}
			if !r.FloorsHold {
				t.Errorf("floors of the old pack do not hold: %v", r.FailedFloors)
			}
		})
	}
}

func TestVerifyStopsWhenCancelled(t *testing.T) {
	files := fixtureFiles()
	dir := writeFixtureDir(t, fixturePack(files), files)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := VerifyDir(ctx, dir, fixtureOptions())
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestVerifyDirRefusesMissingFolder(t *testing.T) {
	_, err := VerifyDir(context.Background(), filepath.Join(t.TempDir(), "absent"), fixtureOptions())
	if err == nil {
		t.Fatal("a missing folder gave no error")
	}
}

func TestVerifyKeepsFloorsApartFromIntegrity(t *testing.T) {
	files := fixtureFiles()
	p := fixturePack(files)
	p.Checks = append(p.Checks, Check{Floor: FloorRedOnBase, Result: ResultFail, Detail: "criterion 1: green on base"})
	dir := writeFixtureDir(t, p, files)
	r, err := VerifyDir(context.Background(), dir, fixtureOptions())
	if err != nil {
		t.Fatal(err)
	}
	if !r.Verified() {
		t.Fatalf("a failed floor made the pack fail integrity:%s", describeProblems(r))
	}
	if r.FloorsHold || len(r.FailedFloors) != 1 || r.FailedFloors[0].Floor != FloorRedOnBase {
		t.Errorf("FloorsHold = %v, failed = %v; want false with red-on-base", r.FloorsHold, r.FailedFloors)
	}
}

func TestFloorsHold(t *testing.T) {
	tests := []struct {
		name    string
		results []string
		want    bool
		failed  int
	}{
		{"none", nil, false, 0},
		{"all pass", []string{ResultPass, ResultPass}, true, 0},
		{"waived and skipped hold", []string{ResultPass, ResultWaived, ResultSkipped}, true, 0},
		{"one fail", []string{ResultPass, ResultFail}, false, 1},
		{"blocked", []string{ResultBlocked, ResultFail}, false, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var checks []Check
			for _, r := range tc.results {
				checks = append(checks, Check{Floor: "f", Result: r})
			}
			got, failed := JudgeFloors(checks, FloorPolicy{Required: []string{}}, Measured{})
			if got != tc.want || len(failed) != tc.failed {
				t.Errorf("FloorsHold = %v with %d failed, want %v with %d", got, len(failed), tc.want, tc.failed)
			}
		})
	}
}
