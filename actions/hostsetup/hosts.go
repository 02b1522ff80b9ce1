package hostsetup

import (
	"os"
	"path/filepath"
	"runtime"

	"github.com/aayudha/aayu/model/hostconfig"
)

// HostState is one host's entries as Status found them.
type HostState struct {
	Host    hostconfig.Host
	Entries []Entry
}

// ByHost groups entries by host, in hostconfig.Hosts' order.
func ByHost(entries []Entry) []HostState {
	var out []HostState
	for _, h := range hostconfig.Hosts() {
		hs := HostState{Host: h}
		for _, e := range entries {
			if e.Host == h {
				hs.Entries = append(hs.Entries, e)
			}
		}
		out = append(out, hs)
	}
	return out
}

// SetUp says whether the host is connected in this project: its pre-tool
// hook runs aayu hook HOST and its MCP server runs aayu mcp. The inbox
// command is a convenience and not required.
func (hs HostState) SetUp() bool {
	return hs.state(hostconfig.HookPart) == hostconfig.Present && hs.state(hostconfig.MCPPart) == hostconfig.Present
}

// Touched says whether anything of aayu's (or in its place) is there.
func (hs HostState) Touched() bool {
	for _, e := range hs.Entries {
		if e.State != hostconfig.Missing {
			return true
		}
	}
	return false
}

func (hs HostState) state(p hostconfig.Part) hostconfig.State {
	for _, e := range hs.Entries {
		if e.Part == p {
			return e.State
		}
	}
	return hostconfig.Missing
}

// OnPath says whether a program named aayu is on pathList (a PATH
// value), as a host's shell would find it to run the hook.
func OnPath(pathList string) bool {
	name := "aayu"
	if runtime.GOOS == "windows" {
		name = "aayu.exe"
	}
	for _, dir := range filepath.SplitList(pathList) {
		if dir == "" {
			continue
		}
		info, err := os.Stat(filepath.Join(dir, name))
		if err == nil && info.Mode().IsRegular() && (runtime.GOOS == "windows" || info.Mode().Perm()&0o111 != 0) {
			return true
		}
	}
	return false
}
