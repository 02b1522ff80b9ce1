package gatecomment

import (
	"fmt"
	"github.com/aayudha/aayu/internal/lazyre"
	"github.com/aayudha/aayu/model/exitcode"
	"strconv"
	"strings"
	"unicode"

	"github.com/aayudha/aayu/proof"
)

// Markers are hidden HTML comment lines that let the comment be found
// again. The gate's and the advisory push's differ, so neither ever
// replaces the other.
const (
	Marker         = "<!-- aayudha:pack-comment -->"
	AdvisoryMarker = "<!-- aayudha:advisory-pack-comment -->"
)

// Exit codes, from the one table in model/exitcode (SPEC §3); the core
// does not import the terminal shell.
const (
	ExitOK      = exitcode.OK
	ExitFailed  = exitcode.Failed
	ExitFloor   = exitcode.Floor
	ExitRefused = exitcode.Refused
)

// ExitCode is the gate's verdict on a report: 4 when the pack does not
// verify, 3 when it verifies but a floor does not hold, 0 otherwise.
func ExitCode(r *proof.Report) int {
	switch {
	case r == nil || !r.Verified():
		return ExitRefused
	case !r.FloorsHold:
		return ExitFloor
	}
	return ExitOK
}

// Links are where the comment points: the workflow run and the run's
// aayudha-pack artifact. Either may be empty (run outside Actions).
type Links struct {
	Run      string
	Artifact string
	RunID    int64
}

// BodyOptions shape one comment.
type BodyOptions struct {
	Marker string // Marker or AdvisoryMarker
	// Heading names who built the pack, e.g. "aayudha/pack (merge gate)".
	Heading string
	// Note is one extra paragraph under the verdict (the advisory push
	// says it never counts for ship).
	Note  string
	Links Links
	// Missing explains why there is no report at all (no pack folder);
	// the comment then says so and the verdict is "does not verify".
	Missing string
	// Attestation is what was checked of pack.json's signature (the
	// gate's comment); nil writes no line (the advisory push).
	Attestation *Attestation
	// Floors is the base branch's floor policy the pack was judged by; the
	// Threshold column shows its threshold, never the pack's own (a pack
	// may claim any threshold). Nil shows the pack's (the advisory push,
	// which judges by nothing else).
	Floors *proof.FloorPolicy
	// Inspect is the inspect job's judgement of the head (the gate's
	// comment); its zero value writes no section.
	Inspect inspectRead
	// Waivers are the failing floors judged against the ledger's
	// accepted waivers (the gate's comment); nil writes no section.
	Waivers *Waivers
}

// Body renders the comment. Every string taken from the pack or the Ready
// snapshot is untrusted and passes through inline, which removes control
// and format characters and escapes Markdown and HTML.
func Body(r *proof.Report, o BodyOptions) string {
	var b strings.Builder
	line := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	line("%s", o.Marker)
	heading := o.Heading
	if heading == "" {
		heading = "aayudha/pack"
	}
	line("## %s: %s", inline(heading), verdictWords(r, o.Waivers))
	line("")
	if o.Note != "" {
		line("%s", inline(o.Note))
		line("")
	}
	if o.Missing != "" {
		line("%s", inline(o.Missing))
		line("")
	}
	if r != nil {
		if p := r.Pack; p != nil {
			line("Story %d · pull request #%d · head %s · authority %s", p.Story, p.PR, code(p.PRHeadSHA), inline(p.Authority.Kind))
			line("")
		}
		if r.PackSHA256 != "" {
			line("pack.json SHA-256: %s", code(r.PackSHA256))
			line("")
		}
		writeAttestation(&b, o.Attestation)
		hashed := "checked"
		if r.Verified() {
			hashed = "verified"
		}
		if r.Rules != "" {
			line("%s: %s · rules: %s", hashed, r.HashedWords(), inline(r.Rules))
		} else {
			line("%s: %s", hashed, r.HashedWords())
		}
		line("")
		writeWarnings(&b, r)
		writeCriteria(&b, r)
		writeFloors(&b, r, o.Floors, o.Waivers)
		writeWaivers(&b, o.Waivers)
		writeProblems(&b, r)
	}
	writeInspect(&b, o.Inspect)
	writeLinks(&b, o.Links)
	return b.String()
}

func verdictWords(r *proof.Report, w *Waivers) string {
	switch gateCode(r, w) {
	case ExitRefused:
		return "the pack does not verify (exit 4)"
	case ExitFloor:
		return "the pack verifies, but a floor does not hold (exit 3)"
	}
	s := "the pack verifies and every floor holds"
	if w.All() {
		s = "the pack verifies, and every floor holds but what an accepted waiver for this head waives (" + w.waivedWords() + ")"
	}
	if r.ArtifactsNotStored > 0 {
		s += fmt.Sprintf(" (%d media artifacts kept as hashes only)", r.ArtifactsNotStored)
	}
	return s
}

// writeWarnings shows the pack's named warnings (a TestMain the pull request
// adds, say) above the verdict's details: no floor judges them, so a person
// must read them.
func writeWarnings(b *strings.Builder, r *proof.Report) {
	if r.Pack == nil || len(r.Pack.Warnings) == 0 {
		return
	}
	fmt.Fprintf(b, "### Warnings\n\n")
	for _, w := range r.Pack.Warnings {
		fmt.Fprintf(b, "- **%s**: %s\n", inline(w.Name), inline(w.Detail))
	}
	b.WriteString("\n")
}

func writeCriteria(b *strings.Builder, r *proof.Report) {
	fmt.Fprintf(b, "### Ready criteria\n\n")
	if len(r.Criteria) == 0 {
		fmt.Fprintf(b, "No criterion could be checked.\n\n")
		return
	}
	fmt.Fprintf(b, "| # | Verdict | Criterion | Evidence |\n|---|---|---|---|\n")
	for _, c := range r.Criteria {
		verdict := "proven"
		if !c.Proven {
			verdict = "**not proven**"
			if c.Reason != "" {
				verdict += ": " + inline(c.Reason)
			}
		}
		ev := make([]string, len(c.Evidence))
		for i, e := range c.Evidence {
			ev[i] = code(e)
		}
		evidence := strings.Join(ev, ", ")
		if evidence == "" {
			evidence = "none"
		}
		fmt.Fprintf(b, "| %d | %s | %s | %s |\n", c.ID, verdict, inline(c.Text), evidence)
	}
	b.WriteString("\n")
}

func writeFloors(b *strings.Builder, r *proof.Report, policy *proof.FloorPolicy, w *Waivers) {
	fmt.Fprintf(b, "### Floors\n\n")
	if r.Pack == nil || len(r.Pack.Checks) == 0 {
		fmt.Fprintf(b, "No floor results: floors do not hold.\n\n")
		return
	}
	fmt.Fprintf(b, "| Floor | Result | Value | Threshold | Tool | Detail |\n|---|---|---|---|---|---|\n")
	for _, c := range r.Pack.Checks {
		result := inline(c.Result)
		if c.Result == proof.ResultFail || c.Result == proof.ResultBlocked {
			result = "**" + result + "**"
			if w != nil && w.Verdicts[c.Floor].Waived {
				result += fmt.Sprintf(", `waived` by Decision #%d", w.Verdicts[c.Floor].Decision)
			}
		}
		tool := inline(c.Tool)
		if c.Version != "" {
			tool += " " + inline(c.Version)
		}
		threshold := c.Threshold
		if policy != nil {
			threshold = policy.Threshold(c.Floor)
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s |\n", inline(c.Floor), result, number(c.Value), number(threshold), tool, inline(c.Detail))
	}
	b.WriteString("\n")
	if !r.FloorsHold {
		names := make([]string, len(r.FailedFloors))
		for i, c := range r.FailedFloors {
			names[i] = inline(c.Floor)
		}
		fmt.Fprintf(b, "Floors that do not hold: %s.\n\n", strings.Join(names, ", "))
	}
}

func writeProblems(b *strings.Builder, r *proof.Report) {
	if len(r.Problems) == 0 {
		return
	}
	fmt.Fprintf(b, "### Why the pack does not verify\n\n")
	const most = 50 // a comment has a size limit; the run's log has the rest
	for i, p := range r.Problems {
		if i == most {
			fmt.Fprintf(b, "- … and %d more (run `aayu pack` on the artifact for all of them)\n", len(r.Problems)-most)
			break
		}
		fmt.Fprintf(b, "- %s\n", inline(p.Message))
	}
	b.WriteString("\n")
}

func writeLinks(b *strings.Builder, l Links) {
	var parts []string
	if u := safeURL(l.Run); u != "" {
		name := "the run"
		if l.RunID != 0 {
			name = "run " + strconv.FormatInt(l.RunID, 10)
		}
		parts = append(parts, fmt.Sprintf("Run: [%s](%s)", name, u))
	}
	if u := safeURL(l.Artifact); u != "" {
		parts = append(parts, fmt.Sprintf("Artifact: [aayudha-pack](%s)", u))
	}
	if len(parts) == 0 {
		parts = append(parts, "No run or artifact link: this comment was not written from a GitHub Actions run.")
	}
	fmt.Fprintf(b, "%s\n", strings.Join(parts, " · "))
}

func number(f *float64) string {
	if f == nil {
		return "—"
	}
	return strconv.FormatFloat(*f, 'f', -1, 64)
}

var hexOnly = lazyre.New(`^[0-9a-fA-F]{1,64}$`)

// code shows a hash or a path as a code span. A value that is not plain
// hex or a clean path is shown escaped instead, so it cannot close the span.
func code(s string) string {
	if hexOnly().MatchString(s) || (proof.CheckPath(s) == nil && !strings.ContainsAny(s, "`|<>")) {
		return "`" + s + "`"
	}
	return inline(s)
}

// inline makes untrusted text safe for one Markdown table cell or line:
// control, format and bidi characters removed, line breaks turned into
// spaces, and every character Markdown or HTML would act on escaped with a
// backslash (a pipe would end the cell, "<" could open a comment or a tag,
// "@" would notify someone, brackets would make a link).
func inline(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			b.WriteByte(' ')
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f):
			// C0, DEL and C1 controls are dropped.
		case unicode.Is(unicode.Cf, r) || r == unicode.ReplacementChar:
			// Bidi overrides, zero-width characters and bad UTF-8.
		case strings.ContainsRune("\\`*_{}[]()<>#+!|@~&", r):
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	out := strings.TrimSpace(b.String())
	const most = 500
	if runes := []rune(out); len(runes) > most {
		out = string(runes[:most]) + "…"
	}
	return out
}

// safeURL accepts only an https (or the sandbox's loopback http) URL with
// no character that could end the Markdown link.
func safeURL(u string) string {
	if u == "" || strings.ContainsAny(u, " ()<>[]\"'`\\") || strings.IndexFunc(u, unicode.IsControl) >= 0 {
		return ""
	}
	if strings.HasPrefix(u, "https://") || strings.HasPrefix(u, "http://127.0.0.1") || strings.HasPrefix(u, "http://localhost") {
		return u
	}
	return ""
}
