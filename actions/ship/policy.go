package ship

import (
	"fmt"
	"strings"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/basepolicy"
	"github.com/aayudha/aayu/model/config"
	"github.com/aayudha/aayu/model/gitsha"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/model/pass"
	"github.com/aayudha/aayu/proof"
)

// basePolicy is everything ship judges by, read from the base branch's tip
// and nowhere else.
type basePolicy struct {
	tip        string
	cfg        *config.Config
	policy     pass.Policy
	layers     []pass.Layer
	codeowners *pass.Codeowners
	identity   identity.IdentitySettings
	floors     proof.FloorPolicy
	private    bool
}

const (
	checkoutLayer = "your checkout's .aayudha/config.toml"
	baseLayer     = basepolicy.ConfigLayer
)

// checkPolicy is gate 2: .aayudha/config.toml, LAYERS.md and CODEOWNERS at
// the base branch's tip, and no local layer that loosens them.
func (r *run) checkPolicy() (gateOutcome, error) {
	// The one reader ship, the protected-paths gate and doctor share
	// (ghx/basepolicy): the same files at the same tip, failing closed in
	// the same words.
	pol, err := r.readBasePolicy(r.target.baseRef)
	if err != nil {
		return gateOutcome{}, err
	}
	refusals := pol.Refusals()
	if !pol.ConfigRead() {
		return gateOutcome{refusals: refusals}, nil
	}
	raw := pol.Raw()
	b := &basePolicy{tip: pol.Tip(), cfg: pol.Config(), policy: pol.Pass(), layers: pol.Layers(), codeowners: pol.Codeowners(), identity: pol.Identity(), floors: pol.Floors()}
	repo, err := r.readRepo()
	if err != nil {
		return gateOutcome{}, fmt.Errorf("reading the repository: %s", ghx.Describe(err))
	}
	b.private = repo.GetPrivate()
	r.evidence.base = b

	refusals = append(refusals, r.looser(raw)...)
	if len(refusals) > 0 {
		return gateOutcome{refusals: refusals}, nil
	}
	words := fmt.Sprintf("read from %s at %s", r.target.baseRef, gitsha.Short(b.tip))
	if b.policy.Approver != "" {
		words += fmt.Sprintf("; approver @%s", strings.TrimPrefix(b.policy.Approver, "@"))
	}
	if len(b.policy.Never) > 0 {
		words += "; never layers " + strings.Join(b.policy.Never, ", ")
	}
	return gateOutcome{words: words + "; no local value is looser"}, nil
}

// looser names every policy key the checkout, the user file, AAYU_* or
// --set makes looser than the base branch's copy.
func (r *run) looser(baseRaw []byte) []string {
	var out []string
	base := r.evidence.base.policy
	if r.cfg.Local.Repo != nil {
		checkout, err := config.Load(config.Sources{Repo: r.cfg.Local.Repo, RepoName: checkoutLayer})
		if err != nil {
			out = append(out, fmt.Sprintf("a local setting cannot be read: %v", err))
		} else {
			// Only a key the checkout's file sets can loosen: one it leaves
			// out reads as the built-in default here, not as the file's word.
			setByCheckout := func(k string) string {
				if checkout.Origin(k) == config.LayerRepo {
					return checkoutLayer
				}
				return ""
			}
			for _, l := range pass.Looser(base, pass.PolicyFrom(checkout), setByCheckout) {
				out = append(out, l.String())
			}
		}
	}
	eff, err := config.Load(config.Sources{Repo: baseRaw, RepoName: baseLayer, User: r.cfg.Local.User, UserPath: r.cfg.Local.UserPath,
		Environ: r.cfg.Local.Environ, Set: r.cfg.Local.Set})
	if err != nil {
		return append(out, fmt.Sprintf("your configuration cannot be read (%v)", err))
	}
	// A key only the defaults or the base branch's copy set is the base's
	// own value, never a local loosening.
	setAbove := func(k string) string {
		if o := eff.Origin(k); o != config.LayerDefaults && o != config.LayerRepo {
			return string(o)
		}
		return ""
	}
	for _, l := range pass.Looser(base, pass.PolicyFrom(eff), setAbove) {
		out = append(out, l.String())
	}
	return out
}
