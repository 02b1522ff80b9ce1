package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// resetStamp names the file a reset writes last in the state folder. A
// sandbox serving from that folder in another process (`aayu sandbox`
// while `aayu sandbox --reset` runs elsewhere) sees it change and serves
// the new repository from its next request, as GitHub serves a repository
// created again: without it, the running one would go on serving the old
// repository and save it over the reset when it stopped.
const resetStamp = "reset-stamp"

// readStamp is the reset stamp in dir, "" when there is none.
func readStamp(dir string) string {
	if dir == "" {
		return ""
	}
	b, err := os.ReadFile(filepath.Join(dir, resetStamp))
	if err != nil {
		return ""
	}
	return string(b)
}

// writeStamp marks a finished reset: written after both repositories were
// seeded and saved, so a server that sees it finds them whole.
func (s *Server) writeStamp() error {
	dir := s.opts.StateDir
	if dir == "" {
		return nil
	}
	stamp := fmt.Sprintf("%d %d\n", time.Now().UnixNano(), s.repoID())
	tmp, err := os.CreateTemp(dir, "stamp-*.tmp")
	if err != nil {
		return fmt.Errorf("marking the reset: %w", err)
	}
	_, err = tmp.WriteString(stamp)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), filepath.Join(dir, resetStamp))
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("marking the reset: %w", err)
	}
	s.stamp = stamp
	return nil
}

// resetElsewhere reports whether another process reset the state folder
// since this server loaded it. Called with mu held.
func (s *Server) resetElsewhere() bool {
	return s.opts.StateDir != "" && readStamp(s.opts.StateDir) != s.stamp
}

// reloadIfReset serves the repositories another process's reset seeded,
// once that reset finished: called with mu held, before a request enters
// either repository. What this server held of the old ones is dropped, as
// GitHub drops a deleted repository.
func (s *Server) reloadIfReset() {
	if !s.resetElsewhere() {
		return
	}
	stamp := readStamp(s.opts.StateDir)
	if stamp == "" {
		return // a reset under way: its stamp comes last
	}
	if err := s.load(); err != nil {
		s.logf("sandbox: another process reset the state, which could not be read: %v", err)
		return
	}
	if err := s.loadFresh(); err != nil {
		s.logf("sandbox: another process reset the state, which could not be read: %v", err)
		return
	}
	s.rates = map[string]*rateBucket{}
	s.devices = map[string]*deviceCode{}
	s.demoAttested = false
	s.stamp = stamp
	s.logf("sandbox: another process reset the state; serving the new repositories")
}
