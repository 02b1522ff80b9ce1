package initrepo

import (
	"fmt"
	"strings"
)

// configFile is the starting policy: SPEC §9's defaults written out, the
// person as the approver, and the integration branch the repository has.
func configFile(owner, repo, login, integration string) string {
	return fmt.Sprintf(`# aayudha policy for %s/%s, proposed by aayu init. ship reads it from the
# base branch only; a looser value anywhere else stops ship and names it.

[autonomy]
approver = %q
never = ["L04", "L07", "L09"]
streak = 10
proof = false
proof_rungs = ["A", "B", "C"]
always_person = [".aayudha/config.toml", ".github/**"]
integration_branch = %q

[verify]
coverage_threshold = 90
red_on_base_blocking_from = "2026-11-13"

[proof]
retention_days = 30
# ship takes only a pack the merge gate signed (GitHub's artifact
# attestations): the certificate must name this repository's gate file at
# the pull request's base branch, run for pull_request_target.
require_attestation = true

# No [identity] table: solo mode. The presence check's OAuth App is named by
# the repository variable AAYUDHA_DEVICE_CLIENT_ID (aayu init --identity).
`, owner, repo, login, integration)
}

// layersFile is a starting LAYERS.md: the layers that hold the gates, so
// that a change to them is a never layer from the first day. The person
// adds the product's own layers.
const layersFile = `# Layers

A pull request's footprint is the set of layers whose globs match a changed
path. Proposed by aayu init; add your product's own layers (L01-L09).

| Layer | Name | Paths |
|---|---|---|
| L01 | docs | README.md, docs/** |
| L07 | workflows | .github/** |
| L09 | config | .aayudha/config.toml, LAYERS.md, CODEOWNERS, .github/CODEOWNERS |
`

// protectedPaths are the paths that define the gates (seed 001, "Protected
// paths and CODEOWNERS"); each gets the person as its CODEOWNER. Of
// .aayudha/ only the policy is one: every Story's pull request commits its
// evidence map under .aayudha/evidence/, which must not need a pass of its
// own (nor make every change touch never layer L09).
var protectedPaths = []string{"/.github/", "/.aayudha/config.toml", "/LAYERS.md", "/CODEOWNERS", "/.agents/", "/.claude/", "/CONSTRAINTS.md"}

// codeownersLines returns the lines to add to existing (a CODEOWNERS file's
// text, "" for none) so every protected path has login as an owner. A path
// that already has a line of its own is left as the person wrote it.
func codeownersLines(existing, login string) []string {
	have := map[string]bool{}
	for line := range strings.SplitSeq(existing, "\n") {
		f := strings.Fields(line)
		if len(f) > 0 && !strings.HasPrefix(f[0], "#") {
			have[f[0]] = true
		}
	}
	var add []string
	for _, p := range protectedPaths {
		if !have[p] && !have[strings.TrimPrefix(p, "/")] {
			add = append(add, p+" @"+login)
		}
	}
	return add
}

func codeownersFile(existing string, add []string) string {
	if existing == "" {
		return "# Owners of the paths that define the gates (proposed by aayu init).\n" + strings.Join(add, "\n") + "\n"
	}
	if !strings.HasSuffix(existing, "\n") {
		existing += "\n"
	}
	return existing + "\n# The paths that define the gates (added by aayu init).\n" + strings.Join(add, "\n") + "\n"
}

// ProofIgnore is the .gitignore line that keeps local proof packs out of
// every commit (seed 000: .aayudha/proof/STORY/ is git-ignored); a pack
// that rode into a pull request would be judged as the change's own file.
const ProofIgnore = "/.aayudha/proof/"

// ignoresProof reports whether a .gitignore already has the line, in any
// of the spellings git reads the same way for this directory.
func ignoresProof(gitignore string) bool {
	for line := range strings.SplitSeq(gitignore, "\n") {
		switch strings.TrimSpace(line) {
		case ProofIgnore, ".aayudha/proof/", "/.aayudha/proof", ".aayudha/proof", "/.aayudha/proof/*", ".aayudha/proof/*":
			return true
		}
	}
	return false
}

// gitignoreFile is the .gitignore with the line appended once.
func gitignoreFile(existing string) string {
	if existing != "" && !strings.HasSuffix(existing, "\n") {
		existing += "\n"
	}
	if existing != "" {
		existing += "\n"
	}
	return existing + "# Local proof packs: never committed (added by aayu init).\n" + ProofIgnore + "\n"
}

func (p *Plan) planGitignore(read func(string) (string, bool, error)) error {
	const path = ".gitignore"
	body, ok, err := read(path)
	switch {
	case err != nil:
		return err
	case ok && ignoresProof(body):
		p.Changes = append(p.Changes, Change{Path: path, Action: Keep, Why: "already ignores " + ProofIgnore})
	case ok:
		p.Changes = append(p.Changes, Change{Path: path, Action: Update, Body: gitignoreFile(body),
			Why: "adds the line " + ProofIgnore + ": local proof packs are never committed"})
	default:
		p.Changes = append(p.Changes, Change{Path: path, Action: Create, Body: gitignoreFile(""),
			Why: "the one line " + ProofIgnore + ": local proof packs are never committed"})
	}
	return nil
}
