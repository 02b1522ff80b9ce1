package doctor

import (
	"strings"

	"github.com/aayudha/aayu/actions/hostsetup"
)

// AgentHostsName is the row's name.
const AgentHostsName = "agent hosts in this checkout"

// AgentHostsRow says which agent hosts are set up in the checkout at
// root (hostsetup.Status: the pre-tool hook runs aayu hook HOST and the
// MCP server runs aayu mcp), read from this machine's files, not GitHub.
// A project may use no host, so the row warns and never fails; root ""
// is a run outside a checkout. onPath says whether the hosts would find
// aayu to run the hook.
func AgentHostsRow(root string, onPath bool) Row {
	if root == "" {
		return Row{AgentHostsName, Warn, "not run inside a checkout, so no host's files were read", "run aayu doctor (or aayu hooks status) inside the project"}
	}
	var set, partly, none []string
	for _, hs := range hostsetup.ByHost(hostsetup.Status(root)) {
		switch {
		case hs.SetUp():
			set = append(set, string(hs.Host))
		case hs.Touched():
			partly = append(partly, string(hs.Host))
		default:
			none = append(none, string(hs.Host))
		}
	}
	const install = "run aayu hooks install (--host HOST for one host); aayu hooks status shows each entry"
	switch {
	case len(partly) > 0:
		return Row{AgentHostsName, Warn, "partly set up: " + strings.Join(partly, ", ") + setUpSuffix(set), install}
	case len(set) == 0:
		return Row{AgentHostsName, Warn, "no agent host is connected: an agent finds a step is human-only only when aayu itself refuses it", install}
	case !onPath:
		return Row{AgentHostsName, Warn, "set up: " + strings.Join(set, ", ") + ", but aayu is not on this PATH, and a hook that cannot start lets the command run", "put aayu on the PATH the hosts' shells see"}
	}
	detail := "set up (pre-tool hook and MCP server): " + strings.Join(set, ", ")
	if len(none) > 0 {
		detail += "; not connected: " + strings.Join(none, ", ")
	}
	return Row{AgentHostsName, OK, detail, ""}
}

func setUpSuffix(set []string) string {
	if len(set) == 0 {
		return ""
	}
	return "; set up: " + strings.Join(set, ", ")
}
