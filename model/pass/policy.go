package pass

import (
	"fmt"
	"strings"
)

// Policy is the part of the configuration ship judges by, read from the
// base branch's .aayudha/config.toml (SPEC §9).
type Policy struct {
	Approver           string   // autonomy.approver
	Never              []string // autonomy.never
	Streak             int      // autonomy.streak; 0 or less never grants an autonomous merge
	Proof              bool     // autonomy.proof
	ProofRungs         []string // autonomy.proof_rungs
	AlwaysPerson       []string // autonomy.always_person
	IntegrationBranch  string   // autonomy.integration_branch; "" reads as "dev"
	Approvers          []string // approvals.approvers
	DeviceFor          []string // approvals.device_for
	BotLogins          []string // identity.bot_logins
	EngineeringManager string   // seats.engineering_manager
	RequireAttestation bool     // proof.require_attestation
}

// Getter reads merged configuration values; *config.Config satisfies it.
type Getter interface {
	String(key string) string
	Int(key string) int
	Bool(key string) bool
	Strings(key string) []string
}

// PolicyFrom reads a Policy from configuration.
func PolicyFrom(g Getter) Policy {
	return Policy{
		Approver:           g.String("autonomy.approver"),
		Never:              g.Strings("autonomy.never"),
		Streak:             g.Int("autonomy.streak"),
		Proof:              g.Bool("autonomy.proof"),
		ProofRungs:         g.Strings("autonomy.proof_rungs"),
		AlwaysPerson:       g.Strings("autonomy.always_person"),
		IntegrationBranch:  g.String("autonomy.integration_branch"),
		Approvers:          g.Strings("approvals.approvers"),
		DeviceFor:          g.Strings("approvals.device_for"),
		BotLogins:          g.Strings("identity.bot_logins"),
		EngineeringManager: g.String("seats.engineering_manager"),
		RequireAttestation: g.Bool("proof.require_attestation"),
	}
}

func (p Policy) integrationBranch() string {
	if p.IntegrationBranch == "" {
		return "dev"
	}
	return p.IntegrationBranch
}

// Loosening is one policy key a higher layer made looser than the base
// branch's copy.
type Loosening struct {
	Key       string // e.g. "autonomy.streak"
	Layer     string // the layer that set the effective value, as origin named it
	Base      string // the base branch's value, in words
	Effective string // the effective value, in words
	Why       string // what the change loosens
}

// String is the sentence ship shows when it stops.
func (l Loosening) String() string {
	return fmt.Sprintf("%s sets %s to %s, looser than the base branch's %s (%s); change policy through a reviewed pull request instead",
		l.Layer, l.Key, l.Effective, l.Base, l.Why)
}

// Looser compares the base branch's policy with the effective one and
// names each key a higher layer made looser: the approver or the Engineering
// Manager seat changed, never layers removed, the streak lowered, proof
// turned on, proof_rungs widened, always_person shrunk, approvers widened,
// device_for narrowed, bot_logins shrunk, or the integration branch changed.
// origin names the layer that set a key (the lead's config.Config.Origin);
// a key it names no layer for ("") was set by no layer above the base, so
// its value is not a layer's choice and is never a loosening: a checkout
// file that only tightens the streak is not refused for the approver it
// leaves unset. A nil origin counts every key as set by a higher layer.
func Looser(base, eff Policy, origin func(key string) string) []Loosening {
	var out []Loosening
	add := func(key, b, e, why string) {
		layer := "a higher layer"
		if origin != nil {
			o := origin(key)
			if o == "" {
				return
			}
			layer = o
		}
		out = append(out, Loosening{Key: key, Layer: layer, Base: b, Effective: e, Why: why})
	}
	if !strings.EqualFold(base.Approver, eff.Approver) {
		add("autonomy.approver", quoted(base.Approver), quoted(eff.Approver), "it changes whose review is the pass")
	}
	if gone := missing(base.Never, eff.Never, false); len(gone) > 0 {
		add("autonomy.never", list(base.Never), list(eff.Never), "it removes never layers "+strings.Join(gone, ", "))
	}
	if eff.Streak < base.Streak {
		add("autonomy.streak", fmt.Sprint(base.Streak), fmt.Sprint(eff.Streak), "fewer correction-free merges let a footprint ship unreviewed")
	}
	if eff.Proof && !base.Proof {
		add("autonomy.proof", "false", "true", "it merges on proof with no review")
	}
	if extra := missing(eff.ProofRungs, base.ProofRungs, false); len(extra) > 0 {
		add("autonomy.proof_rungs", list(base.ProofRungs), list(eff.ProofRungs), "more inspect rungs count for merge on proof: "+strings.Join(extra, ", "))
	}
	if gone := missing(base.AlwaysPerson, eff.AlwaysPerson, false); len(gone) > 0 {
		add("autonomy.always_person", list(base.AlwaysPerson), list(eff.AlwaysPerson), "fewer paths always need a person: "+strings.Join(gone, ", "))
	}
	if base.integrationBranch() != eff.integrationBranch() {
		add("autonomy.integration_branch", quoted(base.integrationBranch()), quoted(eff.integrationBranch()), "merges on proof would land elsewhere")
	}
	if extra := missing(eff.Approvers, base.Approvers, true); len(extra) > 0 {
		add("approvals.approvers", list(base.Approvers), list(eff.Approvers), "more logins may approve a batch: "+strings.Join(extra, ", "))
	}
	if deviceForNarrowed(base.DeviceFor, eff.DeviceFor) {
		add("approvals.device_for", list(base.DeviceFor), list(eff.DeviceFor), "fewer batches need the device code")
	}
	if gone := missing(base.BotLogins, eff.BotLogins, true); len(gone) > 0 {
		add("identity.bot_logins", list(base.BotLogins), list(eff.BotLogins), "reviews by "+strings.Join(gone, ", ")+" would count as a person's")
	}
	if base.RequireAttestation && !eff.RequireAttestation {
		add("proof.require_attestation", "true", "false", "it ships a pack the merge gate did not sign")
	}
	if !strings.EqualFold(base.EngineeringManager, eff.EngineeringManager) {
		add("seats.engineering_manager", quoted(base.EngineeringManager), quoted(eff.EngineeringManager), "it changes whose review is the pass")
	}
	return out
}

// missing lists the items of want that have is without, in want's order.
func missing(want, have []string, foldCase bool) []string {
	var out []string
	for _, w := range want {
		found := false
		for _, h := range have {
			if w == h || (foldCase && strings.EqualFold(w, h)) {
				found = true
				break
			}
		}
		if !found {
			out = append(out, w)
		}
	}
	return out
}

func deviceForNarrowed(base, eff []string) bool {
	covers := func(set []string, what string) bool {
		for _, s := range set {
			if s == "all" || s == what {
				return true
			}
		}
		return false
	}
	if covers(base, "all") && !covers(eff, "all") {
		return true
	}
	return covers(base, "one-way") && !covers(eff, "one-way")
}

func quoted(s string) string {
	if s == "" {
		return "unset"
	}
	return fmt.Sprintf("%q", s)
}

func list(items []string) string {
	if len(items) == 0 {
		return "[]"
	}
	return "[" + strings.Join(items, ", ") + "]"
}
