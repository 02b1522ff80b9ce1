package proof

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// The fixture's tests are in module example.com with package path "x", so
// its evidence map names them "x:TestOne" and "x:TestTwo".
func fixtureEvidenceMap(t testing.TB) EvidenceMap {
	t.Helper()
	m, err := LoadEvidenceMap([]byte("[[criterion]]\nid = 1\ntests = [\"x:TestOne\"]\n\n[[criterion]]\nid = 2\ntests = [\"x:TestTwo\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func fixtureMappedOptions(t testing.TB) Options {
	o := fixtureOptions()
	o.EvidenceMap, o.ModulePath = fixtureEvidenceMap(t), "example.com"
	return o
}

// verifyEdited builds the fixture, lets edit change the pack and its files
// (pack.json's hashes are then recomputed for every file edit touched, as a
// forger would), and verifies the folder.
func verifyEdited(t *testing.T, opts Options, edit func(p *Pack, files map[string][]byte)) *Report {
	t.Helper()
	files := fixtureFiles()
	p := fixturePack(files)
	edit(p, files)
	for i, a := range p.Artifacts {
		if b, ok := files[a.Path]; ok && a.Tombstone == nil && a.Store != StoreLFS {
			p.Artifacts[i] = withBytes(a, b)
		}
	}
	dir := writeFixtureDir(t, p, files)
	r, err := VerifyDir(context.Background(), dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func hasCode(r *Report, code Code) bool {
	for _, p := range r.Problems {
		if p.Code == code {
			return true
		}
	}
	return false
}

func TestVerifyAcceptsEvidenceThatShowsTheMappedTestsPassing(t *testing.T) {
	r := verifyEdited(t, fixtureMappedOptions(t), func(*Pack, map[string][]byte) {})
	if !r.Verified() || !r.FloorsHold {
		t.Fatalf("sound pack refused:%s %v", describeProblems(r), r.FailedFloors)
	}
	for _, c := range r.Criteria {
		if !c.Proven {
			t.Errorf("criterion %d not proven: %s", c.ID, c.Reason)
		}
	}
	// Two evidence files, the report and the screenshot whose bytes are
	// present, as in a run artifact.
	files := fixtureFiles()
	var want int64
	for _, b := range files {
		want += int64(len(b))
	}
	if r.FilesHashed != len(files) || r.BytesHashed != want {
		t.Errorf("hashed %d files, %d bytes; want %d, %d", r.FilesHashed, r.BytesHashed, len(files), want)
	}
	if w := r.HashedWords(); !strings.Contains(w, "4 files") || !strings.HasSuffix(w, "bytes hashed") {
		t.Errorf("HashedWords = %q", w)
	}
	if r.Rules != RulesCurrent {
		t.Errorf("Rules = %q, want the 0.2 rules", r.Rules)
	}
}

// TestVerifyRefusesEvidenceNotHashedHere: a hash in pack.json is not
// evidence. Each way of keeping evidence without its bytes is refused, and
// the reason is said in words.
func TestVerifyRefusesEvidenceNotHashedHere(t *testing.T) {
	evidence := []string{"evidence/criterion-1.jsonl", "evidence/criterion-2.jsonl"}
	cases := []struct {
		name  string
		edit  func(p *Pack, files map[string][]byte)
		words string
	}{
		{"all artifacts store none", func(p *Pack, files map[string][]byte) {
			for i := range p.Artifacts {
				p.Artifacts[i].Store = StoreNone
				delete(files, p.Artifacts[i].Path)
			}
		}, "store none (only its hash is kept)"},
		{"evidence in a bucket nobody configured", func(p *Pack, files map[string][]byte) {
			for i := range p.Artifacts[:2] {
				p.Artifacts[i].Store, p.Artifacts[i].Object = StoreBucket, "x/"+p.Artifacts[i].Path
				delete(files, p.Artifacts[i].Path)
			}
		}, "media bucket that was not fetched"},
		{"evidence tombstoned", func(p *Pack, files map[string][]byte) {
			for i := range p.Artifacts[:2] {
				p.Artifacts[i].Store = StoreNone
				p.Artifacts[i].Tombstone = &Tombstone{PurgedAt: "2026-09-30T02:00:00Z", Reason: "proof purge"}
				delete(files, p.Artifacts[i].Path)
			}
		}, "purged (tombstone)"},
		{"evidence only Git LFS pointers", func(p *Pack, files map[string][]byte) {
			for i := range p.Artifacts[:2] {
				a := &p.Artifacts[i]
				files[a.Path] = []byte("version https://git-lfs.github.com/spec/v1\noid sha256:" + a.SHA256 + "\nsize " + itoa(int(a.Size)) + "\n")
				a.Store = StoreLFS
			}
		}, "only a Git LFS pointer"},
		{"criteria proven by media kept by hash only", func(p *Pack, files map[string][]byte) {
			delete(files, "screens/1.png")
			for i := range p.Criteria {
				p.Criteria[i].Evidence = []string{"screens/1.png"}
			}
		}, "media never prove a criterion alone"},
		{"criteria proven by media whose bytes were hashed", func(p *Pack, _ map[string][]byte) {
			// Under the 0.2 rules only pre-0.2 packs may stand on media.
			for i := range p.Criteria {
				p.Criteria[i].Evidence = []string{"screens/1.png"}
			}
		}, "cites no go test events"},
		{"criteria citing only a report", func(p *Pack, _ map[string][]byte) {
			for i := range p.Criteria {
				p.Criteria[i].Evidence = []string{"reports/coverage.txt"}
			}
		}, "cites no go test events"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, opts := range []Options{fixtureOptions(), fixtureMappedOptions(t)} {
				r := verifyEdited(t, opts, tc.edit)
				if r.Verified() {
					t.Fatalf("verified with %s", tc.name)
				}
				if !hasCode(r, CodeEvidenceNotHashed) || !strings.Contains(describeProblems(r), tc.words) {
					t.Fatalf("problems do not say %q with %s:%s", tc.words, CodeEvidenceNotHashed, describeProblems(r))
				}
				for _, c := range r.Criteria {
					if c.Proven {
						t.Errorf("criterion %d proven by %v with nothing hashed", c.ID, evidence)
					}
				}
			}
		})
	}
}

func TestVerifyRefusesEvidenceWithFailedMappedTest(t *testing.T) {
	for _, opts := range []Options{fixtureOptions(), fixtureMappedOptions(t)} {
		r := verifyEdited(t, opts, func(_ *Pack, files map[string][]byte) {
			files["evidence/criterion-1.jsonl"] = []byte(`{"Action":"run","Package":"example.com/x","Test":"TestOne"}` + "\n" +
				`{"Action":"fail","Package":"example.com/x","Test":"TestOne"}` + "\n")
		})
		if r.Verified() || !hasCode(r, CodeEvidenceTestFailed) || r.Criteria[0].Proven {
			t.Fatalf("a failed test proved criterion 1:%s", describeProblems(r))
		}
		if !strings.Contains(r.Criteria[0].Reason, "TestOne") {
			t.Errorf("reason %q does not name the failed test", r.Criteria[0].Reason)
		}
	}
}

func TestVerifyRefusesEvidenceWithAFailBesideAPass(t *testing.T) {
	r := verifyEdited(t, fixtureMappedOptions(t), func(_ *Pack, files map[string][]byte) {
		files["evidence/criterion-1.jsonl"] = append(files["evidence/criterion-1.jsonl"],
			[]byte(`{"Action":"fail","Package":"example.com/x","Test":"TestOne/sub"}`+"\n")...)
	})
	if r.Verified() || !hasCode(r, CodeEvidenceTestFailed) {
		t.Fatalf("a failed subtest beside a pass proved criterion 1:%s", describeProblems(r))
	}
}

func TestVerifyRefusesEvidenceMissingMappedTest(t *testing.T) {
	cases := map[string][]byte{
		"another test passing": []byte(`{"Action":"run","Package":"example.com/x","Test":"TestOther"}` + "\n" +
			`{"Action":"pass","Package":"example.com/x","Test":"TestOther"}` + "\n"),
		"the same test in another package": []byte(`{"Action":"run","Package":"example.com/y","Test":"TestOne"}` + "\n" +
			`{"Action":"pass","Package":"example.com/y","Test":"TestOne"}` + "\n"),
		"only run, never pass": []byte(`{"Action":"run","Package":"example.com/x","Test":"TestOne"}` + "\n"),
	}
	for name, events := range cases {
		t.Run(name, func(t *testing.T) {
			r := verifyEdited(t, fixtureMappedOptions(t), func(_ *Pack, files map[string][]byte) {
				files["evidence/criterion-1.jsonl"] = events
			})
			if r.Verified() || !hasCode(r, CodeEvidenceTestAbsent) || r.Criteria[0].Proven {
				t.Fatalf("criterion 1 proven without x:TestOne passing:%s", describeProblems(r))
			}
			if !strings.Contains(describeProblems(r), "x:TestOne") {
				t.Errorf("problems do not name x:TestOne:%s", describeProblems(r))
			}
		})
	}
}

func TestVerifyRefusesCriterionTheEvidenceMapDoesNotName(t *testing.T) {
	opts := fixtureMappedOptions(t)
	opts.EvidenceMap = opts.EvidenceMap[:1]
	r := verifyEdited(t, opts, func(*Pack, map[string][]byte) {})
	if r.Verified() || !hasCode(r, CodeEvidenceTestAbsent) || r.Criteria[1].Proven {
		t.Fatalf("criterion 2 proven with no test named for it:%s", describeProblems(r))
	}
}

func TestVerifyRefusesEvidenceWithNoPassingTest(t *testing.T) {
	r := verifyEdited(t, fixtureOptions(), func(_ *Pack, files map[string][]byte) {
		files["evidence/criterion-2.jsonl"] = []byte(`{"Action":"run","Package":"example.com/x","Test":"TestTwo"}` + "\n" +
			`{"Action":"skip","Package":"example.com/x","Test":"TestTwo"}` + "\n")
	})
	if r.Verified() || !hasCode(r, CodeEvidenceTestAbsent) {
		t.Fatalf("a skipped test proved criterion 2:%s", describeProblems(r))
	}
}

func TestVerifyRefusesEvidenceThatIsNotTestEvents(t *testing.T) {
	cases := map[string]string{
		"plain text":           "ok  example.com/x 0.01s\n",
		"JSON without Action":  `{"Package":"example.com/x","Test":"TestOne"}` + "\n",
		"Action not a string":  `{"Action":1,"Package":"example.com/x","Test":"TestOne"}` + "\n",
		"empty file":           "",
		"two objects one line": `{"Action":"pass","Test":"TestOne"}{"Action":"pass"}` + "\n",
	}
	for name, body := range cases {
		t.Run(name, func(t *testing.T) {
			for _, opts := range []Options{fixtureOptions(), fixtureMappedOptions(t)} {
				r := verifyEdited(t, opts, func(_ *Pack, files map[string][]byte) {
					files["evidence/criterion-1.jsonl"] = []byte(body)
				})
				if r.Verified() || !hasCode(r, CodeEvidenceNotEvents) {
					t.Fatalf("evidence %q accepted:%s", body, describeProblems(r))
				}
			}
		})
	}
}

func TestVerifyRefusesDuplicateEvidenceCitation(t *testing.T) {
	r := verifyEdited(t, fixtureMappedOptions(t), func(p *Pack, _ map[string][]byte) {
		p.Criteria[1].Evidence = []string{"evidence/criterion-2.jsonl", "evidence/criterion-2.jsonl"}
	})
	if r.Verified() || !hasCode(r, CodeDuplicateEvidence) || r.Criteria[1].Proven {
		t.Fatalf("a citation given twice was accepted:%s", describeProblems(r))
	}
}

// TestVerifyKeepsPre02RulesForMediaOnly: a pre-0.2 pack may prove a
// criterion by media whose LFS bytes are hashed here, but its tombstones
// and pointers never stand in for evidence, and the report says which rules
// applied.
func TestVerifyKeepsPre02RulesForMediaOnly(t *testing.T) {
	png := []byte("\x89PNG smudged bytes")
	r := verifyEdited(t, fixtureOptions(), func(p *Pack, files map[string][]byte) {
		files["screens/1.png"] = png
		p.Artifacts[3] = withBytes(p.Artifacts[3], png)
		p.Artifacts[3].Store = StoreLFS
		p.Criteria[0].Evidence = []string{"screens/1.png"}
	})
	if !r.Verified() || r.Rules != RulesBefore02 || !r.Criteria[0].Proven {
		t.Fatalf("pre-0.2 pack with smudged LFS media refused (rules %q):%s", r.Rules, describeProblems(r))
	}
	r = verifyEdited(t, fixtureOptions(), func(p *Pack, files map[string][]byte) {
		p.Artifacts[0].Store = StoreNone
		p.Artifacts[0].Tombstone = &Tombstone{PurgedAt: "2026-09-30T02:00:00Z", Reason: "proof purge"}
		delete(files, p.Artifacts[0].Path)
		p.Criteria[0].Evidence = []string{p.Artifacts[0].Path}
	})
	if r.Verified() || r.Rules != RulesBefore02 || !hasCode(r, CodeEvidenceNotHashed) {
		t.Fatalf("a tombstone proved a criterion under pre-0.2 rules:%s", describeProblems(r))
	}
}

// TestVerifyNeverHoldsAfterEvidenceOrFloorChange is the property: from a
// pack that verifies and whose floors hold, removing or altering any
// evidence byte, removing any event a mapped test needs or turning any
// event into a fail (even with pack.json's hashes recomputed to match), or
// removing or weakening any floor, never leaves it "verified, floors hold".
func TestVerifyNeverHoldsAfterEvidenceOrFloorChange(t *testing.T) {
	opts := fixtureMappedOptions(t)
	holds := func(r *Report) bool { return r.Verified() && r.FloorsHold }
	if !holds(verifyEdited(t, opts, func(*Pack, map[string][]byte) {})) {
		t.Fatal("the starting pack does not hold")
	}
	base := fixtureFiles()
	for _, name := range []string{"evidence/criterion-1.jsonl", "evidence/criterion-2.jsonl"} {
		data := base[name]
		// Every byte flipped, pack.json untouched: the hash refuses it.
		for i := range data {
			files := fixtureFiles()
			p := fixturePack(files)
			files[name][i] ^= 0x20
			dir := writeFixtureDir(t, p, files)
			r, err := VerifyDir(context.Background(), dir, opts)
			if err != nil {
				t.Fatal(err)
			}
			if holds(r) {
				t.Fatalf("%s with byte %d flipped still holds", name, i)
			}
		}
		// Truncated at every length, pack.json untouched.
		for n := range len(data) {
			files := fixtureFiles()
			p := fixturePack(files)
			files[name] = files[name][:n]
			dir := writeFixtureDir(t, p, files)
			r, err := VerifyDir(context.Background(), dir, opts)
			if err != nil {
				t.Fatal(err)
			}
			if holds(r) {
				t.Fatalf("%s cut to %d bytes still holds", name, n)
			}
		}
		// Each event removed or turned into a fail, pack.json re-hashed.
		lines := bytes.SplitAfter(data, []byte("\n"))
		for i, line := range lines {
			if len(line) == 0 {
				continue
			}
			without := bytes.Join(append(append([][]byte{}, lines[:i]...), lines[i+1:]...), nil)
			failed := bytes.Replace(data, line, bytes.Replace(line, []byte(`"Action":"run"`), []byte(`"Action":"fail"`), 1), 1)
			failed = bytes.Replace(failed, []byte(`"Action":"pass"`), []byte(`"Action":"fail"`), 1)
			for what, body := range map[string][]byte{"without event": without, "with a fail": failed} {
				r := verifyEdited(t, opts, func(_ *Pack, files map[string][]byte) { files[name] = body })
				if holds(r) {
					t.Fatalf("%s %s %d still holds:\n%s", name, what, i, body)
				}
			}
		}
	}
	// Every floor removed, and every floor's result or value weakened.
	for i := range fixturePack(fixtureFiles()).Checks {
		edits := map[string]func(c *Check){
			"skipped": func(c *Check) { c.Result = ResultSkipped },
			"waived":  func(c *Check) { c.Result = ResultWaived },
			"blocked": func(c *Check) { c.Result = ResultBlocked },
			"failed":  func(c *Check) { c.Result = ResultFail },
			"renamed": func(c *Check) { c.Floor += "-other" },
		}
		for what, edit := range edits {
			r := verifyEdited(t, opts, func(p *Pack, _ map[string][]byte) { edit(&p.Checks[i]) })
			if holds(r) {
				t.Fatalf("check %d %s still holds", i, what)
			}
		}
		r := verifyEdited(t, opts, func(p *Pack, _ map[string][]byte) {
			p.Checks = append(p.Checks[:i:i], p.Checks[i+1:]...)
		})
		if holds(r) {
			t.Fatalf("check %d removed still holds", i)
		}
	}
	for _, v := range []float64{89.9, 50, 0, -1} {
		r := verifyEdited(t, opts, func(p *Pack, _ map[string][]byte) { p.Checks[1].Value = &v })
		if holds(r) {
			t.Fatalf("coverage %v against 90 still holds", v)
		}
	}
}
