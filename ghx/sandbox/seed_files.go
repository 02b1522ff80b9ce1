package sandbox

// The demo repository's files. The Go module builds and its tests pass on
// every branch, so `aayu verify` really runs them.

import "strings"

const fileGoMod = "module example.com/benefits\n\ngo 1.22\n"

const fileReadme = `# benefits

A small service that answers questions about a health plan's deductible and
copays. It is the demo repository of the aayu sandbox.
`

const fileGitignore = ".aayudha/proof/\n"

const fileConfig = `# aayudha policy for acme/benefits. ship reads it from the base branch only.

[autonomy]
approver = "founder"
never = ["L04", "L07", "L09"]
streak = 10
proof = false
proof_rungs = ["A", "B", "C"]
always_person = [".aayudha/config.toml", ".github/**"]
integration_branch = "dev"

[verify]
coverage_threshold = 90
red_on_base_blocking_from = "2026-11-13"
# The web app the web floor opens for a screenshot criterion, on $PORT.
app = ["go", "run", "./web"]

[proof]
retention_days = 30

# No [identity] table: the demo runs in solo mode (SPEC §9).
`

// SoloConfigLine is the demo config's last line in solo mode; with
// Options.BotIdentity the [identity] table BotIdentityTable stands there.
const SoloConfigLine = "# No [identity] table: the demo runs in solo mode (SPEC §9)."

// BotIdentityTable is the [identity] table of the demo seeded with a bot
// identity: the bot App's slug and its login among bot_logins, so the
// bot's reviews never count and the repository is not solo.
const BotIdentityTable = "[identity]\napp_slug = \"agent-bot\"\nbot_logins = [\"" + BotLogin + "\"]"

// demoConfig is the demo's .aayudha/config.toml: solo, or with a bot identity.
func demoConfig(bot bool) string {
	if !bot {
		return fileConfig
	}
	return strings.Replace(fileConfig, SoloConfigLine, BotIdentityTable, 1)
}

const fileLayers = `# Layers

A pull request's footprint is the set of layers whose globs match a changed path.

| Layer | Name | Paths |
|---|---|---|
| L01 | docs | README.md, docs/** |
| L04 | policy | policy/** |
| L05 | benefits | deductible/**, copay/**, web/** |
| L07 | workflows | .github/** |
| L09 | config | .aayudha/config.toml, LAYERS.md, CODEOWNERS |
`

const fileCodeowners = `# Owners of the paths that define the gates.
* @founder
/policy/ @founder
/.github/ @founder
/.aayudha/config.toml @founder
`

const fileDeductible = `// Package deductible answers questions about a plan's deductible.
package deductible

// Applies reports whether a service counts toward the deductible.
func Applies(service string) bool {
	switch service {
	case "hospital", "imaging", "surgery":
		return true
	}
	return false
}
`

// fileDeductibleFixed is the bug fix merged in the Bug's pull request:
// service names are matched without regard to case.
const fileDeductibleFixed = `// Package deductible answers questions about a plan's deductible.
package deductible

import "strings"

// Applies reports whether a service counts toward the deductible.
func Applies(service string) bool {
	switch strings.ToLower(service) {
	case "hospital", "imaging", "surgery":
		return true
	}
	return false
}
`

const fileDeductibleTest = `package deductible

import "testing"

func TestApplies(t *testing.T) {
	if !Applies("hospital") {
		t.Error("a hospital stay counts toward the deductible")
	}
	if Applies("dental") {
		t.Error("dental care does not count toward the deductible")
	}
}
`

const fileDeductibleCaseTest = `package deductible

import "testing"

func TestAppliesIgnoresCase(t *testing.T) {
	if !Applies("Hospital") {
		t.Error("Hospital counts like hospital")
	}
}
`

const filePolicy = `// Package policy screens questions before anything is looked up.
package policy

import "strings"

// Refuses reports whether a question asks about another person's records.
func Refuses(question string) bool {
	q := strings.ToLower(question)
	return strings.Contains(q, "my wife's") || strings.Contains(q, "my husband's") || strings.Contains(q, "someone else")
}
`

const filePolicyTest = `package policy

import "testing"

func TestRefuses(t *testing.T) {
	if !Refuses("What did my wife's surgery cost?") {
		t.Error("a question about another person's records is refused")
	}
	if Refuses("What is my deductible?") {
		t.Error("a question about one's own plan is answered")
	}
}
`

const fileRemainingV1 = `package deductible

// Remaining is what is left of the deductible after paid.
func Remaining(deductible, paid int) int {
	return deductible - paid
}
`

const fileRemaining = `package deductible

// Remaining is what is left of the deductible after paid; never below zero.
func Remaining(deductible, paid int) int {
	if paid >= deductible {
		return 0
	}
	return deductible - paid
}
`

const fileRemainingTestV1 = `package deductible

import "testing"

func TestRemaining(t *testing.T) {
	if got := Remaining(1500, 400); got != 1100 {
		t.Errorf("Remaining(1500, 400) = %d, want 1100", got)
	}
}
`

const fileRemainingTest = fileRemainingTestV1 + `
func TestRemainingNeverNegative(t *testing.T) {
	if got := Remaining(1500, 2000); got != 0 {
		t.Errorf("Remaining(1500, 2000) = %d, want 0", got)
	}
}
`

const fileEvidence3 = `[[criterion]]
id = 1 # Remaining returns the deductible minus what was paid
tests = ["deductible:TestRemaining"]

[[criterion]]
id = 2 # Remaining never goes below zero
tests = ["deductible:TestRemainingNeverNegative"]
`

const fileCopay = `// Package copay answers what a visit costs out of pocket.
package copay

// Copay is the fixed amount a visit type costs, and whether it is known.
func Copay(visit string) (int, bool) {
	switch visit {
	case "primary-care":
		return 20, true
	case "specialist":
		return 50, true
	}
	return 0, false
}
`

const fileCopayTest = `package copay

import "testing"

func TestCopayPrimaryCare(t *testing.T) {
	if got, ok := Copay("primary-care"); got != 20 || !ok {
		t.Errorf("Copay(primary-care) = %d, %v; want 20, true", got, ok)
	}
}

func TestCopayUnknown(t *testing.T) {
	if got, ok := Copay("acupuncture"); got != 0 || ok {
		t.Errorf("Copay(acupuncture) = %d, %v; want 0, false", got, ok)
	}
}
`

const fileEvidence5 = `[[criterion]]
id = 1 # a primary-care visit costs a 20 copay
tests = ["copay:TestCopayPrimaryCare"]

[[criterion]]
id = 2 # an unknown visit type costs nothing and says so
tests = ["copay:TestCopayUnknown"]
`

const fileRollover = `package deductible

// Rollover is what counts as paid after a plan-year boundary.
func Rollover(paid int, newYear bool) int {
	if newYear {
		return 0
	}
	return paid
}
`

const fileRolloverTest = `package deductible

import "testing"

func TestRolloverResets(t *testing.T) {
	if got := Rollover(900, true); got != 0 {
		t.Errorf("Rollover(900, true) = %d, want 0", got)
	}
}

func TestRolloverKeeps(t *testing.T) {
	if got := Rollover(900, false); got != 900 {
		t.Errorf("Rollover(900, false) = %d, want 900", got)
	}
}
`

// fileEvidence7 maps criterion 2 to a test that does not exist, which is
// why story 7's pack has no evidence for it and does not verify.
const fileEvidence7 = `[[criterion]]
id = 1 # a new plan year resets what was paid
tests = ["deductible:TestRolloverResets"]

[[criterion]]
id = 2 # the same plan year keeps what was paid
tests = ["deductible:TestRolloverKeepsAcrossMonths"]
`

const fileTiers = `package deductible

// Tier is the yearly deductible of a plan tier, and whether it is known.
func Tier(name string) (int, bool) {
	switch name {
	case "bronze":
		return 3000, true
	case "silver":
		return 1500, true
	case "gold":
		return 500, true
	}
	return 0, false
}
`

const fileTiersTest = `package deductible

import "testing"

func TestTierBronze(t *testing.T) {
	if got, ok := Tier("bronze"); got != 3000 || !ok {
		t.Errorf("Tier(bronze) = %d, %v; want 3000, true", got, ok)
	}
}

func TestTierUnknown(t *testing.T) {
	if _, ok := Tier("platinum"); ok {
		t.Error("an unknown tier is not known")
	}
}
`

const fileEvidence14 = `[[criterion]]
id = 1 # the bronze tier's deductible is 3000
tests = ["deductible:TestTierBronze"]

[[criterion]]
id = 2 # an unknown tier is reported as unknown
tests = ["deductible:TestTierUnknown"]
`

const fileReadmeDeductible = fileReadme + `
## The deductible

The deductible is what you pay each plan year before the plan pays. Hospital
stays, imaging and surgery count toward it; dental care does not.
`
