package doctor

import (
	"slices"
	"strings"
)

// ApprovalsRow is the approvals row: every GitHub credential the session
// reaches, by source and account, never by value. It fails when one
// belongs to an approver ([approvals] approvers on the default branch) or
// GitHub cannot say whose it is just now, since a reply made with it could
// have been an agent's. With no approvers recorded no reply approves
// anything, so the row judges by the person running doctor and warns
// instead; with device_for = ["all"] replies are off and it passes.
func ApprovalsRow(creds []Credential, approvers, deviceFor []string, viewer string) Row {
	const name = "approvals"
	if slices.Contains(deviceFor, "all") {
		return Row{name, OK, `replies are off ([approvals] device_for = ["all"]): every batch needs the device code`, ""}
	}
	recorded := len(approvers) > 0
	who := approvers
	if !recorded && viewer != "" {
		who = []string{viewer}
	}
	exposed := 0
	var parts []string
	for _, c := range creds {
		d := describe(c)
		switch {
		case c.Unknown != "":
			exposed++
		case !c.None && !c.Refused && !c.App && c.Elsewhere == "" && c.Account != "" && containsFold(who, c.Account):
			exposed++
			d += " (an approver)"
			if !recorded {
				d = c.Source + ": @" + c.Account + " (you)"
			}
		}
		parts = append(parts, d)
	}
	list := "no GitHub credential."
	if len(parts) > 0 {
		list = strings.Join(parts, "; ") + "."
	}
	const fix = "give agent sessions only the bot's token (no personal token, gh login or git credential), then run aayu doctor there again; until then approve batches by the device code"
	const addApprovers = "to approve by reply, add approvers under [approvals] in .aayudha/config.toml through a reviewed pull request"
	switch {
	case !recorded && exposed > 0:
		return Row{name, Warn, "no approvers are recorded, so no reply approves anything; and this session reaches your credential, or one GitHub could not name: " + list, addApprovers + ", and " + fix}
	case !recorded:
		return Row{name, Warn, "no approvers are recorded, so no reply approves anything. This session reaches " + list, addApprovers}
	case exposed > 0:
		return Row{name, Fail, "a reply cannot prove a person here: this session reaches an approver's credential, or one GitHub could not name: " + list, fix}
	}
	return Row{name, OK, "no credential this session reaches belongs to an approver (" + strings.Join(approvers, ", ") + "): " + list, ""}
}

// describe names a credential by source and account, never its value.
func describe(c Credential) string {
	switch {
	case c.None:
		return c.Source + ": nothing stored for this host"
	case c.Refused:
		return c.Source + ": GitHub refuses it (revoked or expired)"
	case c.App:
		return c.Source + ": a GitHub App's installation token (a bot's, not a person's)"
	case c.Unknown != "":
		return c.Source + ": whose is not known (" + strings.TrimSuffix(c.Unknown, ".") + ")"
	case c.Elsewhere != "":
		return c.Source + ": @" + c.Account + " on " + c.Elsewhere
	}
	return c.Source + ": @" + c.Account
}

func containsFold(list []string, s string) bool {
	return slices.ContainsFunc(list, func(x string) bool { return strings.EqualFold(strings.TrimPrefix(x, "@"), s) })
}
