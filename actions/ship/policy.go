package ship

import (
	"fmt"
	"strings"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/config"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/model/pass"
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
	private    bool
}

const (
	checkoutLayer = "your checkout's .aayudha/config.toml"
	baseLayer     = "the base branch's .aayudha/config.toml"
)

// codeownersPaths are where GitHub looks for CODEOWNERS, in its order.
var codeownersPaths = []string{".github/CODEOWNERS", "CODEOWNERS", "docs/CODEOWNERS"}

// checkPolicy is gate 2: .aayudha/config.toml, LAYERS.md and CODEOWNERS at
// the base branch's tip, and no local layer that loosens them.
func (r *run) checkPolicy() (gateOutcome, error) {
	ref, _, err := r.cfg.Client.Git.GetRef(r.ctx, r.cfg.Owner, r.cfg.Repo, "heads/"+r.baseRef)
	if err != nil {
		return gateOutcome{}, fmt.Errorf("reading the tip of %s: %s", r.baseRef, ghx.Describe(err))
	}
	b := &basePolicy{tip: ref.GetObject().GetSHA()}
	read := func(path string) ([]byte, error) {
		data, err := ghx.ReadFile(r.ctx, r.cfg.Client, r.cfg.Owner, r.cfg.Repo, b.tip, path)
		if ghx.IsNotFound(err) {
			return nil, nil
		}
		if err != nil {
			return nil, fmt.Errorf("reading %s on %s: %s", path, r.baseRef, ghx.Describe(err))
		}
		return data, nil
	}
	raw, err := read(".aayudha/config.toml")
	if err != nil {
		return gateOutcome{}, err
	}
	var refusals []string
	b.cfg, err = config.Load(config.Sources{Repo: raw, RepoName: baseLayer})
	if err != nil {
		// Fail closed: a policy value that cannot be read is never taken as
		// its zero (a string for a list once meant "no never layers").
		return gateOutcome{refusals: []string{fmt.Sprintf("the policy cannot be read: %v; ship has no policy to judge by and fails closed. Fix the file through a reviewed pull request", err)}}, nil
	}
	b.policy = pass.PolicyFrom(b.cfg)
	b.identity = identitySettings(b.cfg)

	layers, err := read("LAYERS.md")
	if err != nil {
		return gateOutcome{}, err
	}
	if layers != nil {
		if b.layers, err = pass.ParseLayers(string(layers)); err != nil {
			refusals = append(refusals, fmt.Sprintf("the base branch's LAYERS.md cannot be read (%v), so the footprint cannot be computed", err))
		}
	}
	for _, p := range codeownersPaths {
		text, err := read(p)
		if err != nil {
			return gateOutcome{}, err
		}
		if text == nil {
			continue
		}
		co, err := pass.ParseCodeowners(string(text))
		if err != nil {
			refusals = append(refusals, fmt.Sprintf("the base branch's %s has a rule ship cannot evaluate (%v), so ship fails closed", p, err))
		} else {
			b.codeowners = &co
		}
		break
	}
	repo, _, err := r.cfg.Client.Repositories.Get(r.ctx, r.cfg.Owner, r.cfg.Repo)
	if err != nil {
		return gateOutcome{}, fmt.Errorf("reading the repository: %s", ghx.Describe(err))
	}
	b.private = repo.GetPrivate()
	r.base = b

	refusals = append(refusals, r.looser(raw)...)
	if len(refusals) > 0 {
		return gateOutcome{refusals: refusals}, nil
	}
	words := fmt.Sprintf("read from %s at %s", r.baseRef, short(b.tip))
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
	base := r.base.policy
	if r.cfg.Local.Repo != nil {
		checkout, err := config.Load(config.Sources{Repo: r.cfg.Local.Repo, RepoName: checkoutLayer})
		if err != nil {
			out = append(out, fmt.Sprintf("a local setting cannot be read: %v", err))
		} else {
			for _, l := range pass.Looser(base, pass.PolicyFrom(checkout), func(string) string { return checkoutLayer }) {
				out = append(out, l.String())
			}
		}
	}
	eff, err := config.Load(config.Sources{Repo: baseRaw, RepoName: baseLayer, User: r.cfg.Local.User, UserPath: r.cfg.Local.UserPath,
		Environ: r.cfg.Local.Environ, Set: r.cfg.Local.Set})
	if err != nil {
		return append(out, fmt.Sprintf("your configuration cannot be read (%v)", err))
	}
	for _, l := range pass.Looser(base, pass.PolicyFrom(eff), func(k string) string { return string(eff.Origin(k)) }) {
		out = append(out, l.String())
	}
	return out
}

func identitySettings(c *config.Config) identity.IdentitySettings {
	return identity.IdentitySettings{
		AppID: int64(c.Int("identity.app_id")), AppSlug: c.String("identity.app_slug"), Broker: c.String("identity.broker"),
		MachineUser: c.String("identity.machine_user"), MachineUserSecret: c.String("identity.machine_user_secret"),
		BotLogins: c.Strings("identity.bot_logins"), DeviceClientID: c.String("identity.device_client_id"),
	}
}
