//go:build ignore

// gen writes the demo packs the README's first command opens before the
// sandbox exists. It is deliberately independent of package proof, so a bug
// there cannot make its own demo look right. Run: go run testdata/demo/gen.go
package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
)

const (
	head = "b046d1a1d113339eb80e130c9dc0008fa223e76f"
	base = "b5359bd5c041820193b6dcadc0f0b10d5aff1836"
)

var criteria = []string{
	"The dental question is answered from the dental-deductible passage, quoted with its plan and section.",
	"Questions about another person's records or asking for advice are refused before retrieval, with a reason.",
	"Screened questions never reach the answer step.",
}

var mapped = [][]string{
	{"answer:TestAnswerCitesPassage"},
	{"policy:TestScreenRefuses", "answer:TestRespondScreensFirst"},
	{"answer:TestRespondScreensFirst"},
}

func main() {
	dir := filepath.Join("testdata", "demo")
	goal := goalBody()
	ready := fmt.Sprintf("# Ready: story 131 — Benefits answers cite their passage\ncompletion_goal_hash: %s\nfrozen_at: 2026-10-12T07:30:00Z\n\n## Completion Goal\n%s\n", hash([]byte(goal)), goal)
	must(os.WriteFile(filepath.Join(dir, "ready.md"), []byte(ready), 0o644))

	events := readEvents(filepath.Join(dir, "gotest.jsonl"))
	files := map[string][]byte{}
	var crit []map[string]any
	for i, tests := range mapped {
		p := fmt.Sprintf("evidence/criterion-%d.jsonl", i+1)
		files[p] = evidence(events, tests)
		crit = append(crit, map[string]any{"id": i + 1, "evidence": []string{p}})
	}
	files["reports/coverage.txt"] = []byte("answer/answer.go: 5 of 5 changed lines covered\npolicy/policy.go: 4 of 4 changed lines covered\n")
	files["metrics/latency.json"] = []byte(`{"p50_ms":41,"p95_ms":88}` + "\n")
	crit[0]["evidence"] = append(crit[0]["evidence"].([]string), "reports/coverage.txt")

	write := func(name string, mutate func(p map[string]any, files map[string][]byte)) {
		fs := map[string][]byte{}
		for k, v := range files {
			fs[k] = append([]byte(nil), v...)
		}
		pack := basePack(goal, crit, fs)
		if mutate != nil {
			mutate(pack, fs)
		}
		out := filepath.Join(dir, name)
		must(os.RemoveAll(out))
		for p, b := range fs {
			full := filepath.Join(out, "artifacts", filepath.FromSlash(p))
			must(os.MkdirAll(filepath.Dir(full), 0o755))
			must(os.WriteFile(full, b, 0o644))
		}
		js, err := json.MarshalIndent(pack, "", "  ")
		must(err)
		must(os.WriteFile(filepath.Join(out, "pack.json"), append(js, '\n'), 0o644))
	}
	write("pack", nil)
	// tampered: one byte of evidence changed after the pack was built.
	write("tampered", func(p map[string]any, fs map[string][]byte) {
		b := fs["evidence/criterion-2.jsonl"]
		b[len(b)/2] ^= 0x20
	})
	// floorfail: verifies, but the coverage floor does not hold.
	// Its coverage report counts the same 43 of 60 lines the check claims:
	// verification recounts the value from the report.
	write("floorfail", func(p map[string]any, fs map[string][]byte) {
		checks := p["checks"].([]map[string]any)
		checks[1]["result"] = "fail"
		checks[1]["value"] = 71.6
		checks[1]["detail"] = "43 of 60 changed executable lines covered (go coverprofile)"
		fs["reports/coverage.txt"] = []byte("answer/answer.go: 26 of 36 changed lines covered\npolicy/policy.go: 17 of 24 changed lines covered\n")
		for _, a := range p["artifacts"].([]map[string]any) {
			if a["path"] == "reports/coverage.txt" {
				a["sha256"], a["size"] = hash(fs["reports/coverage.txt"]), len(fs["reports/coverage.txt"])
			}
		}
	})
}

func basePack(goal string, crit []map[string]any, files map[string][]byte) map[string]any {
	var arts []map[string]any
	for _, p := range []string{"evidence/criterion-1.jsonl", "evidence/criterion-2.jsonl", "evidence/criterion-3.jsonl", "reports/coverage.txt", "metrics/latency.json"} {
		kind := "api-trace"
		switch {
		case strings.HasPrefix(p, "reports/"):
			kind = "report"
		case strings.HasPrefix(p, "metrics/"):
			kind = "metric"
		}
		arts = append(arts, map[string]any{"path": p, "kind": kind, "sha256": hash(files[p]), "size": len(files[p]), "store": "git"})
	}
	// A screenshot whose bytes stayed in the run artifact: hash kept, not stored.
	arts = append(arts, map[string]any{"path": "screens/1.png", "kind": "screenshot", "sha256": hash([]byte("demo screenshot bytes")), "size": 21, "store": "none"})
	return map[string]any{
		"schema_version": 1,
		"repo":           "acme/benefits",
		"story":          131,
		"pr":             148,
		"pr_head_sha":    head,
		"base_sha":       base,
		"checkpoint":     "3/3",
		"seat":           "ai-native-engineer",
		"host":           "cli",
		"identity":       "ci",
		"authority": map[string]any{
			"kind": "authoritative", "workflow": ".github/workflows/aayudha-merge-gate.yml",
			"run_id": 38231401215, "writer": "founder (aayu ship)",
		},
		"completion_goal_hash": hash([]byte(goal)),
		"footprint":            []string{"L04", "L05"},
		"criteria":             crit,
		"artifacts":            arts,
		"checks": []map[string]any{
			{"floor": "tests", "result": "pass", "value": 3, "tool": "go test -json", "version": "go1.26.8", "detail": "3 tests passed", "network": "isolated"},
			{"floor": "coverage", "result": "pass", "value": 100, "threshold": 90, "tool": "aayudha diff coverage (go test -coverprofile)", "version": "go1.26.8", "detail": "9 of 9 changed executable lines covered (go coverprofile)", "network": "isolated"},
			{"floor": "red-on-base", "result": "pass", "tool": "aayu verify --ci", "version": "0.1.0", "detail": "criterion 1: red on base (TestAnswerCitesPassage); criterion 2: red on base (TestScreenRefuses); criterion 3: inconclusive (does not build on base)", "network": "isolated"},
			{"floor": "vet", "result": "pass", "value": 0, "threshold": 0, "tool": "go vet", "version": "go1.26.8", "network": "isolated"},
		},
		"cost":       map[string]any{"tokens_in": 0, "tokens_out": 0, "usd": 0},
		"links":      map[string]any{"issue": "acme/benefits#131", "pr": "acme/benefits#148", "ready_snapshot": "specs/131/ready.md"},
		"created_at": "2026-10-12T09:48:42Z",
	}
}

func goalBody() string {
	var b strings.Builder
	for i, c := range criteria {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "%d. %s", i+1, c)
	}
	return b.String()
}

type event struct {
	Action  string
	Package string `json:",omitempty"`
	Test    string `json:",omitempty"`
	Output  string `json:",omitempty"`
}

func readEvents(name string) []event {
	f, err := os.Open(name)
	must(err)
	defer f.Close()
	var evs []event
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var e event
		must(json.Unmarshal(sc.Bytes(), &e))
		evs = append(evs, e)
	}
	return evs
}

func evidence(evs []event, tests []string) []byte {
	var buf bytes.Buffer
	for _, e := range evs {
		for _, t := range tests {
			pkg, name, _ := strings.Cut(t, ":")
			if e.Package == "example.com/benefits/"+pkg && (e.Test == name || strings.HasPrefix(e.Test, name+"/")) {
				js, err := json.Marshal(e)
				must(err)
				buf.Write(js)
				buf.WriteByte('\n')
			}
		}
	}
	return buf.Bytes()
}

func hash(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func must(err error) {
	if err != nil {
		log.Fatal(err)
	}
}
