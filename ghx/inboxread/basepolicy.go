package inboxread

import (
	"fmt"
	"slices"
	"sort"

	"github.com/aayudha/aayu/model/inbox"
)

// readBasePolicies reads the policy of every distinct base branch of the
// open pull requests, once per base (a conditional request through the
// cache: a 304 when it did not change), and keeps those that differ from
// the default branch's, so the inbox offers a pull request what ship will
// do for it. A base whose policy cannot be read fails the read closed, as
// the default branch's does. Settings the caller layered itself are kept.
func (s *session) readBasePolicies(snap *inbox.Snapshot) error {
	if s.r.opts.Settings != nil {
		return nil
	}
	bases := map[string]bool{}
	for _, pr := range snap.PullRequests {
		if pr.Open() && pr.BaseRef != "" {
			bases[pr.BaseRef.Raw()] = true
		}
	}
	names := make([]string, 0, len(bases))
	for b := range bases {
		names = append(names, b)
	}
	sort.Strings(names)
	def := inbox.Policy{Approver: snap.Approver, SoloMode: snap.SoloMode, BotLogins: snap.BotLogins}
	for _, base := range names {
		set, err := s.settingsOf(base)
		if err != nil {
			return fmt.Errorf("the base branch %s: %w", base, err)
		}
		p := inbox.Policy{Approver: set.Approver, SoloMode: set.SoloMode, BotLogins: set.BotLogins}
		if p.Approver == def.Approver && p.SoloMode == def.SoloMode && slices.Equal(p.BotLogins, def.BotLogins) {
			continue
		}
		if snap.BasePolicy == nil {
			snap.BasePolicy = map[string]inbox.Policy{}
		}
		snap.BasePolicy[base] = p
	}
	return nil
}
