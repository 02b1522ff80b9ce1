package inboxread

import (
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/basepolicy"
	"github.com/aayudha/aayu/model/config"
	"github.com/aayudha/aayu/model/identity"
)

// ConfigPath is the repository's policy file, read from the default branch.
const ConfigPath = basepolicy.ConfigPath

// ParseSettings reads the inbox's settings from a .aayudha/config.toml
// (nil: none) over the built-in defaults. Solo mode is SPEC §9's: every
// identity setting unset, bot_logins included (identity.SoloMode).
func ParseSettings(toml []byte) (Settings, error) {
	c, err := config.Load(config.Sources{Repo: toml, RepoName: basepolicy.ConfigLayer})
	if err != nil {
		return Settings{}, &basepolicy.ConfigError{Err: err}
	}
	return settingsFrom(c), nil
}

// settingsFrom is what the inbox takes from a base config that was read.
func settingsFrom(c *config.Config) Settings {
	id := basepolicy.IdentitySettings(c)
	if len(id.BotLogins) == 0 {
		id.BotLogins = nil
	}
	return Settings{
		IntegrationBranch: c.String("autonomy.integration_branch"),
		Approver:          c.String("autonomy.approver"),
		BotLogins:         id.BotLogins,
		SoloMode:          identity.SoloMode(id),
	}
}

// settingsOf reads ref's config through the one base-policy reader
// (ghx/basepolicy), failing closed in ship's words.
func (s *session) settingsOf(ref string) (Settings, error) {
	pol, err := s.baseConfig(ref)
	if err != nil {
		return Settings{}, err
	}
	if err := pol.ConfigErr(); err != nil {
		return Settings{}, err
	}
	return settingsFrom(pol.Config()), nil
}

// settings are the caller's when given, else the default branch's
// configuration file's; a repository without one has the defaults.
func (s *session) settings() (Settings, error) {
	if given := s.r.opts.Settings; given != nil {
		out := *given
		out.BotLogins = append([]string(nil), given.BotLogins...)
		return out, nil
	}
	// ref "" is the default branch: the base the policy is read from.
	return s.settingsOf("")
}

// baseConfig reads ref's config file once per session (ghx.ReadBaseConfig).
func (s *session) baseConfig(ref string) (*basepolicy.Policy, error) {
	s.configMu.Lock()
	pol, ok := s.configs[ref]
	s.configMu.Unlock()
	if ok {
		return pol, nil
	}
	pol, err := ghx.ReadBaseConfig(s.ctx, s.r.gh, s.r.owner, s.r.repo, ref)
	if err != nil {
		return nil, err
	}
	s.configMu.Lock()
	if s.configs == nil {
		s.configs = map[string]*basepolicy.Policy{}
	}
	s.configs[ref] = pol
	s.configMu.Unlock()
	return pol, nil
}
