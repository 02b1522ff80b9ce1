package inbox

import "slices"

// Policy is what a base branch's .aayudha/config.toml says about who may
// approve and how a pull request into it ships: ship reads it from the pull
// request's base, so the inbox judges each pull request by the same copy.
type Policy struct {
	Approver  string   // autonomy.approver
	SoloMode  bool     // no bot identity: ship runs with --solo-bypass
	BotLogins []string // identity.bot_logins
}

// forBase is the snapshot as a pull request into base is judged: the
// base branch's policy where it differs from the default branch's.
func (s Snapshot) forBase(base string) Snapshot {
	p, ok := s.BasePolicy[base]
	if !ok {
		return s
	}
	s.Approver, s.SoloMode, s.BotLogins = p.Approver, p.SoloMode, slices.Clone(p.BotLogins)
	return s
}
