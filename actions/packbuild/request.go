package packbuild

import (
	"fmt"
	"github.com/aayudha/aayu/model/exitcode"
	"strconv"
	"strings"
	"time"

	"github.com/aayudha/aayu/model/config"
	"github.com/aayudha/aayu/proof"
)

// Exit codes of a run, as SPEC §3 numbers them for every screen.
const (
	ExitOK      = exitcode.OK      // the pack is built, verifies, and every floor holds
	ExitFailed  = exitcode.Failed  // git, go or the file system failed
	ExitFloor   = exitcode.Floor   // the pack verifies but a floor does not hold
	ExitRefused = exitcode.Refused // the pack does not verify, or the evidence map or Ready snapshot is unusable
)

// Request is one verify run: which checkout, which story, and the facts
// from GitHub that the checkout does not hold.
type Request struct {
	// Dir is the checkout: a git work tree of the pull request's head.
	Dir string
	// Repo is OWNER/NAME, as the pack records it.
	Repo string
	// Story is the story (or Bug) number; PR the pull request, 0 if none.
	Story, PR int
	// BaseRef names the base branch's tip in the checkout, e.g. origin/dev
	// or a SHA. The base commit is its merge-base with the head.
	BaseRef string
	// Ready is the Ready snapshot read from the ledger (specs/STORY/ready.md).
	Ready []byte
	// Bug says the story is labelled type:bug: red on base runs.
	Bug bool
	// CI is --ci: the identity is ci, and the run's workflow is recorded.
	CI bool
	// Private says the repository is private (retention may reach 400 days).
	Private bool
	// Config holds the layers above the repository's (user file, AAYU_*,
	// --set); the repository layer is the base commit's
	// .aayudha/config.toml, never the checkout's.
	Config config.Sources
	// Getenv reads GITHUB_RETENTION_DAYS, GITHUB_RUN_ID and
	// GITHUB_WORKFLOW_REF; nil means none is set.
	Getenv func(string) string
	// Now is the clock (red on base's blocking date, created_at); nil
	// means time.Now.
	Now func() time.Time
	// FromRaw is a raw-output folder (RunRaw) of the tests job: the pack
	// is built from what it says, and no go command runs here (raw.go).
	FromRaw string
	// PackOut is the folder the pack is written to; "" means the
	// checkout's .aayudha/proof/STORY. The merge gate's pack job reads the
	// commits from a bare repository and keeps the pack under runner.temp
	// (bare.go).
	PackOut string
}

func (r Request) now() time.Time {
	if r.Now == nil {
		return time.Now()
	}
	return r.Now()
}

func (r Request) getenv(k string) string {
	if r.Getenv == nil {
		return ""
	}
	return r.Getenv(k)
}

// settings are the [verify] and [proof] values a run uses.
type settings struct {
	coverageThreshold float64
	blockingFrom      time.Time
	retentionDays     int
	requiredFloors    []string
	// app is [verify] app: the command that starts the app the web floor
	// opens pages of.
	app []string
	// scanners are [verify] scanners, each a floor; vulndb is govulncheck's
	// database ([verify] vulndb, "" for its own).
	scanners []string
	vulndb   string
}

// loadSettings layers the base commit's .aayudha/config.toml under the
// request's own layers and reads the keys verify needs.
func loadSettings(src config.Sources, baseConfig []byte) (settings, error) {
	src.Repo = baseConfig
	cfg, err := config.Load(src)
	if err != nil {
		return settings{}, err
	}
	s := settings{coverageThreshold: 90, retentionDays: cfg.Int("proof.retention_days"),
		requiredFloors: proof.FloorsFrom(cfg).Required, app: cfg.Strings("verify.app")}
	if v := strings.TrimSpace(cfg.String("verify.coverage_threshold")); v != "" {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f < 0 || f > 100 {
			return settings{}, fmt.Errorf("verify.coverage_threshold %q is not a percentage from 0 to 100", v)
		}
		s.coverageThreshold = f
	}
	date := strings.TrimSpace(cfg.String("verify.red_on_base_blocking_from"))
	if date == "" {
		date = "2026-11-13"
	}
	d, err := time.Parse(time.DateOnly, date)
	if err != nil {
		return settings{}, fmt.Errorf("verify.red_on_base_blocking_from %q is not a date such as 2026-11-13", date)
	}
	s.blockingFrom = d
	for _, n := range cfg.Strings("verify.scanners") {
		if _, ok := pinnedScanner(n); !ok {
			return settings{}, fmt.Errorf("verify.scanners names %q, which is not a scanner aayu runs (%s)", n, strings.Join(proof.Scanners(), ", "))
		}
		s.scanners = append(s.scanners, n)
	}
	s.vulndb = strings.TrimSpace(cfg.String("verify.vulndb"))
	if s.vulndb != "" && !strings.HasPrefix(s.vulndb, "file://") && !strings.HasPrefix(s.vulndb, "https://") {
		return settings{}, fmt.Errorf("verify.vulndb %q is neither a file:// folder nor an https:// URL of a Go vulnerability database", s.vulndb)
	}
	return s, nil
}

// Outcome is what a run produced.
type Outcome struct {
	ExitCode int
	// Refusal says in words why no pack was built (exit 4 before the pack).
	Refusal string
	// Dir is the pack folder written, and PackSHA256 its pack.json's hash.
	Dir        string
	PackSHA256 string
	Pack       *proof.Pack
	// Report is the written pack's verification against the Ready snapshot
	// and the head.
	Report *proof.Report
	// Evidence lists every criterion that got no evidence, and why.
	Evidence []proof.Problem
	// Head and Base are the commits verified and compared against.
	Head, Base string
	// Network is whether the go commands ran without network.
	Network string
	// RetentionDays is how long the gate's run artifact is kept, and
	// RetentionNote which rule decided.
	RetentionDays int
	RetentionNote string
}

// refuse ends a run before the pack with exit 4.
func refuse(format string, args ...any) *Outcome {
	return &Outcome{ExitCode: ExitRefused, Refusal: fmt.Sprintf(format, args...)}
}
