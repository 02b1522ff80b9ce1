package inboxread

import (
	"fmt"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/basepolicy"
	"github.com/aayudha/aayu/model/config"
	"github.com/aayudha/aayu/model/identity"
)

// ConfigPath is the repository's policy file, read from the default branch.
const ConfigPath = ".aayudha/config.toml"

// ParseSettings reads the inbox's settings from a .aayudha/config.toml
// (nil: none) over the built-in defaults. Solo mode is SPEC §9's: every
// identity setting unset, bot_logins included (identity.SoloMode).
func ParseSettings(toml []byte) (Settings, error) {
	c, err := config.Load(config.Sources{Repo: toml, RepoName: basepolicy.ConfigLayer})
	if err != nil {
		return Settings{}, err
	}
	var bots []string
	if list := c.Strings("identity.bot_logins"); len(list) > 0 {
		bots = list
	}
	return Settings{
		IntegrationBranch: c.String("autonomy.integration_branch"),
		Approver:          c.String("autonomy.approver"),
		BotLogins:         bots,
		SoloMode: identity.SoloMode(identity.IdentitySettings{
			AppID:             int64(c.Int("identity.app_id")),
			AppSlug:           c.String("identity.app_slug"),
			Broker:            c.String("identity.broker"),
			MachineUser:       c.String("identity.machine_user"),
			MachineUserSecret: c.String("identity.machine_user_secret"),
			BotLogins:         bots,
		}),
	}, nil
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
	text, err := ghx.ReadFile(s.ctx, s.r.gh, s.r.owner, s.r.repo, "", ConfigPath)
	if ghx.IsNotFound(err) {
		return ParseSettings(nil)
	}
	if err != nil {
		return Settings{}, fmt.Errorf("reading %s on %s/%s's default branch: %w", ConfigPath, s.r.owner, s.r.repo, err)
	}
	out, err := ParseSettings(text)
	if err != nil {
		// ship's, the gate's and doctor's words for the same file.
		return Settings{}, &basepolicy.ConfigError{Err: err}
	}
	return out, nil
}
