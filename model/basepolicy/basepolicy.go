// Package basepolicy is the one judge of a base branch's policy: its
// .aayudha/config.toml, LAYERS.md and CODEOWNERS, read at one commit
// (ghx.ReadBasePolicy reads them) into one value that ship, the
// protected-paths gate, doctor, the inbox and the presence check's App
// lookup all judge by. It is pure: it parses bytes and does no I/O. A
// policy it cannot parse fails closed the same way, in the same words, for
// every consumer: the value then carries refusals, never a zero policy that
// would be looser (an unparsable config once dropped bot_logins in the
// gate, so a machine user counted as a CODEOWNER's approval).
package basepolicy

import (
	"fmt"
	"slices"
	"strings"

	"github.com/aayudha/aayu/model/config"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/model/pass"
	"github.com/aayudha/aayu/proof"
)

// The files the policy is made of, at the base branch's tip.
const (
	ConfigPath = ".aayudha/config.toml"
	LayersPath = "LAYERS.md"
	// ConfigLayer names the base copy in config errors and looser-value
	// messages.
	ConfigLayer = "the base branch's .aayudha/config.toml"
)

// CodeownersPaths are where GitHub looks for CODEOWNERS, in its order; the
// first that exists is the one GitHub uses.
func CodeownersPaths() []string {
	return []string{".github/CODEOWNERS", "CODEOWNERS", "docs/CODEOWNERS"}
}

// Policy is one base branch's policy at one commit. Its fields are
// unexported and every accessor returns a copy, so no consumer can change
// what another judges by.
type Policy struct {
	tip            string
	raw            []byte // the config file's bytes; nil when it does not exist
	cfg            *config.Config
	pass           pass.Policy
	identity       identity.IdentitySettings
	layers         []pass.Layer
	codeowners     *pass.Codeowners
	codeownersPath string
	codeownersText string
	refusals       []string
	configErr      *ConfigError
}

// Files are the policy files as read at one commit: nil for a file that
// does not exist there. Only a file GitHub answered 404 for is absent; any
// other failed read is the reader's error, never a nil here.
type Files struct {
	Config []byte
	Layers []byte
	// CodeownersPath is the first of CodeownersPaths that exists ("" for
	// none), and Codeowners its text: the one GitHub uses.
	CodeownersPath string
	Codeowners     []byte
}

// Parse judges the policy files read at tip. A file that exists but cannot
// be parsed is not an error but a refusal on the value (Refusals), worded
// once here for every consumer.
func Parse(tip string, f Files) *Policy {
	p := &Policy{tip: tip, raw: f.Config}
	p.loadConfig()
	if f.Layers != nil {
		var err error
		if p.layers, err = pass.ParseLayers(string(f.Layers)); err != nil {
			p.refusals = append(p.refusals, fmt.Sprintf("the base branch's %s cannot be read (%v), so the footprint cannot be computed", LayersPath, err))
		}
	}
	if f.Codeowners != nil {
		p.codeownersPath, p.codeownersText = f.CodeownersPath, string(f.Codeowners)
		co, err := pass.ParseCodeowners(string(f.Codeowners))
		if err != nil {
			p.refusals = append(p.refusals, fmt.Sprintf("the base branch's %s has a rule aayu cannot evaluate (%v), so it fails closed", f.CodeownersPath, err))
		} else {
			p.codeowners = &co
		}
	}
	return p
}

// ParseConfig judges the config file alone (nil when it does not exist),
// for a consumer that judges by nothing else (the inbox, the presence
// check's App): the same parse, the same refusal and the same words as
// Parse.
func ParseConfig(raw []byte) *Policy {
	p := &Policy{raw: raw}
	p.loadConfig()
	return p
}

// loadConfig parses p.raw. Fail closed: a policy value that cannot be read
// is never taken as its zero (a string for a list once meant "no never
// layers"; an unparsable file once meant "no bot_logins" in the gate).
func (p *Policy) loadConfig() {
	cfg, err := config.Load(config.Sources{Repo: p.raw, RepoName: ConfigLayer})
	if err != nil {
		p.configErr = &ConfigError{Err: err}
		p.refusals = append(p.refusals, ConfigRefusal(err))
		return
	}
	p.cfg = cfg
	p.pass = pass.PolicyFrom(cfg)
	p.identity = IdentitySettings(cfg)
}

// ConfigErr is the config's refusal as an error (a *ConfigError), nil
// when the config was read.
func (p *Policy) ConfigErr() error {
	if p.configErr == nil {
		return nil
	}
	return p.configErr
}

// ConfigRefusal is the one sentence for a base config that cannot be read.
func ConfigRefusal(err error) string {
	return fmt.Sprintf("the base branch's policy cannot be read: %v; there is no policy to judge by, so this fails closed. Fix the file through a reviewed pull request", err)
}

// ConfigError is a base config that cannot be read, as an error for a
// consumer that fails a whole read on it (the inbox): its text is
// ConfigRefusal's, the same sentence ship, the gate and doctor show.
type ConfigError struct{ Err error }

func (e *ConfigError) Error() string { return ConfigRefusal(e.Err) }

func (e *ConfigError) Unwrap() error { return e.Err }

// PersonSentence makes ghx.Describe say the refusal as it is, whole,
// rather than as a failed request to try again.
func (e *ConfigError) PersonSentence() string { return capitalise(ConfigRefusal(e.Err)) + "." }

func capitalise(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// IdentitySettings is the [identity] table of c.
func IdentitySettings(c *config.Config) identity.IdentitySettings {
	return identity.IdentitySettings{
		AppID: int64(c.Int("identity.app_id")), AppSlug: c.String("identity.app_slug"), Broker: c.String("identity.broker"),
		MachineUser: c.String("identity.machine_user"), MachineUserSecret: c.String("identity.machine_user_secret"),
		BotLogins: c.Strings("identity.bot_logins"), DeviceClientID: c.String("identity.device_client_id"),
	}
}

// Tip is the commit every file was read at.
func (p *Policy) Tip() string { return p.tip }

// Refusals are the reasons this policy cannot be judged by, in words; none
// means every file that exists was read.
func (p *Policy) Refusals() []string { return slices.Clone(p.refusals) }

// Sentence is every refusal as one sentence, as a comment or a screen
// line shows it; "" when there is none.
func (p *Policy) Sentence() string {
	if len(p.refusals) == 0 {
		return ""
	}
	return capitalise(strings.Join(p.refusals, "; ")) + "."
}

// ConfigRead reports whether the config file was read (or is absent, which
// means the defaults); when it is false Config, Pass and Identity are
// zero and must not be used.
func (p *Policy) ConfigRead() bool { return p.cfg != nil }

// Raw is the config file's bytes as read (nil when absent), for checking a
// local layer against it.
func (p *Policy) Raw() []byte { return slices.Clone(p.raw) }

// Config is the base config alone; the Config type only reads.
func (p *Policy) Config() *config.Config { return p.cfg }

// Pass is the pass rule's policy.
func (p *Policy) Pass() pass.Policy {
	out := p.pass
	out.Never, out.ProofRungs, out.AlwaysPerson = slices.Clone(out.Never), slices.Clone(out.ProofRungs), slices.Clone(out.AlwaysPerson)
	out.Approvers, out.DeviceFor, out.BotLogins = slices.Clone(out.Approvers), slices.Clone(out.DeviceFor), slices.Clone(out.BotLogins)
	return out
}

// Floors are the base's [verify] floor settings, what a pack's floors are
// judged by (never the pack's own thresholds). Zero (the defaults) when the
// config was not read; a caller refuses on Refusals before it judges.
func (p *Policy) Floors() proof.FloorPolicy {
	if p.cfg == nil {
		return proof.FloorPolicy{}
	}
	return proof.FloorsFrom(p.cfg)
}

// Identity is the [identity] table.
func (p *Policy) Identity() identity.IdentitySettings {
	out := p.identity
	out.BotLogins = slices.Clone(p.identity.BotLogins)
	return out
}

// Layers are LAYERS.md's layers (nil when absent or unreadable).
func (p *Policy) Layers() []pass.Layer { return slices.Clone(p.layers) }

// Codeowners is the parsed CODEOWNERS, nil when absent or unreadable.
func (p *Policy) Codeowners() *pass.Codeowners {
	if p.codeowners == nil {
		return nil
	}
	co := *p.codeowners
	return &co
}

// CodeownersText is the CODEOWNERS file GitHub uses, as read, and its path.
func (p *Policy) CodeownersText() (path, text string) { return p.codeownersPath, p.codeownersText }
