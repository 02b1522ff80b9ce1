package actions

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// Record is one line of the actions log: every write aayu makes, and every
// presence approval, with the command, the item, who, and the outcome.
type Record struct {
	Time    time.Time `json:"time"`
	Command string    `json:"command"`          // e.g. "decide 324 --accept 1", "presence.approve"
	Repo    string    `json:"repo,omitempty"`   // OWNER/NAME
	Item    string    `json:"item,omitempty"`   // "#324"
	Who     string    `json:"who,omitempty"`    // the login the write went out as
	Outcome string    `json:"outcome"`          // done, refused, failed, changed, dry-run
	Writes  []string  `json:"writes,omitempty"` // each write, in words
	Detail  string    `json:"detail,omitempty"` // the step it stopped at, GitHub's answer
	Note    string    `json:"note,omitempty"`   // the person's one line (a review's check, aayu decide --note)
	Lines   []string  `json:"approving,omitempty"`
	Method  string    `json:"method,omitempty"` // presence: device-flow
}

// Log appends records to one JSONL segment per day under dir. Each Append
// is one write of one whole line to a file opened with O_APPEND, then
// fsync, so a crash leaves either the whole line or none of it.
type Log struct {
	dir string
	now func() time.Time
	mu  sync.Mutex
}

// OpenLog returns the log kept in dir (created on first write). now stamps
// records that carry no time; nil means time.Now.
func OpenLog(dir string, now func() time.Time) *Log {
	if now == nil {
		now = time.Now
	}
	return &Log{dir: dir, now: now}
}

// DefaultLogDir is the user's state folder: $XDG_STATE_HOME/aayu/actions,
// else ~/.local/state/aayu/actions. It is outside every repository.
func DefaultLogDir(getenv func(string) string) (string, error) {
	if s := getenv("XDG_STATE_HOME"); s != "" {
		return filepath.Join(s, "aayu", "actions"), nil
	}
	home := getenv("HOME")
	if home == "" {
		return "", fmt.Errorf("neither XDG_STATE_HOME nor HOME is set, so aayu has nowhere to keep its actions log")
	}
	return filepath.Join(home, ".local", "state", "aayu", "actions"), nil
}

// Segment is the file a record of that day goes to.
func (l *Log) Segment(t time.Time) string {
	return filepath.Join(l.dir, t.UTC().Format("2006-01-02")+".jsonl")
}

// Append writes one record.
func (l *Log) Append(r Record) error {
	if r.Time.IsZero() {
		r.Time = l.now()
	}
	r.Time = r.Time.UTC()
	line, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("actions log: encoding the record: %w", err)
	}
	line = append(line, '\n')
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := os.MkdirAll(l.dir, 0o700); err != nil {
		return fmt.Errorf("actions log: %w", err)
	}
	f, err := os.OpenFile(l.Segment(r.Time), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("actions log: %w", err)
	}
	if _, err := f.Write(line); err != nil {
		f.Close()
		return fmt.Errorf("actions log: writing: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("actions log: syncing: %w", err)
	}
	return f.Close()
}

// maxLogLine bounds one line read back from the log; a longer line is
// not aayu's and is passed over.
const maxLogLine = 1 << 20

// Interrupted returns, for repo, each request whose latest record in the
// segments of the last days days (counted back from now) is interrupted:
// a write a second ctrl+c or quit signal stopped part-way, and no later
// run finished, retried or gave up on. The next inbox shows each as a
// failure card. A segment that cannot be read is passed over: this only
// adds cards, and GitHub's own state still decides every write.
func (l *Log) Interrupted(repo string, now time.Time, days int) []Record {
	latest := map[string]Record{}
	var order []string
	for d := days - 1; d >= 0; d-- {
		f, err := os.Open(l.Segment(now.AddDate(0, 0, -d)))
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 64*1024), maxLogLine)
		for sc.Scan() {
			var r Record
			if json.Unmarshal(sc.Bytes(), &r) != nil || r.Repo != repo || r.Item == "" {
				continue
			}
			key := r.Item + " " + r.Command
			if _, seen := latest[key]; !seen {
				order = append(order, key)
			}
			latest[key] = r
		}
		f.Close()
	}
	var out []Record
	for _, key := range order {
		if r := latest[key]; r.Outcome == OutcomeInterrupted {
			out = append(out, r)
		}
	}
	return out
}
