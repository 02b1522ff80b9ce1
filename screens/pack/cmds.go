package pack

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/aayudha/aayu/proof"
)

// progressMsg carries hashing progress from the verifying goroutine.
type progressMsg proof.Progress

// verifiedMsg ends verification: a report, or an error when the folder
// itself could not be read.
type verifiedMsg struct {
	report *proof.Report
	err    error
	// waived are the floors that do not hold but are waived by an
	// accepted floor waiver for the pack's head: floor → ship's words.
	waived     map[string]string
	waiverNote string // why the waivers could not be read, or ""
}

// artifactMsg carries an artifact's bytes (or why they could not be read)
// for the viewer.
type artifactMsg struct {
	path string
	data []byte
	err  error
}

// maxViewBytes bounds what the viewer reads; an artifact larger than this is
// shown truncated rather than read whole into memory.
const maxViewBytes = 4 << 20

// verify reads the Ready snapshot (if any) and verifies the pack folder,
// sending progress to events and finishing with a verifiedMsg. Every value it
// uses is copied before the goroutine starts.
func verify(ctx context.Context, opts Options, events chan<- tea.Msg) tea.Cmd {
	return func() tea.Msg {
		ready, readyProblem := loadReady(opts.ReadyFile)
		progress := func(p proof.Progress) {
			select {
			case events <- progressMsg(p):
			default: // the screen is still drawing the last one; skip
			}
		}
		// A folder given by path comes with no evidence map: its criteria
		// are held to events that show a test passing and none failing.
		report, err := proof.VerifyDir(ctx, opts.Dir, proof.Options{Ready: ready, HeadSHA: opts.Head, Progress: progress,
			RequiredFloors: opts.RequiredFloors, CoverageThreshold: opts.CoverageThreshold})
		if err == nil && readyProblem != nil {
			report.Problems = replaceReadyProblem(report.Problems, *readyProblem)
		}
		events <- verifiedMsg{report: report, err: err}
		return nil
	}
}

// wait delivers the next message from the verifying goroutine.
func wait(events <-chan tea.Msg) tea.Cmd {
	return func() tea.Msg { return <-events }
}

// loadReady reads and parses the Ready snapshot. A snapshot that cannot be
// read or parsed is not a Go error here: it becomes the pack's problem, in
// words, because the pack cannot be checked against it.
func loadReady(file string) (*proof.Ready, *proof.Problem) {
	if file == "" {
		return nil, nil
	}
	b, err := proof.ReadFileCapped(file, 1<<20)
	if err != nil {
		return nil, &proof.Problem{Code: proof.CodeNoReady,
			Message: fmt.Sprintf("The Ready snapshot %s could not be read (%v), so the criteria and the Completion Goal hash were not checked.", file, err)}
	}
	r, err := proof.ParseReady(b)
	if err != nil {
		return nil, &proof.Problem{Code: proof.CodeNoReady,
			Message: fmt.Sprintf("The Ready snapshot %s is not valid (%v), so the criteria and the Completion Goal hash were not checked.", file, err)}
	}
	return r, nil
}

// replaceReadyProblem swaps the generic "no snapshot given" problem for the
// specific reason the snapshot was unusable.
func replaceReadyProblem(problems []proof.Problem, specific proof.Problem) []proof.Problem {
	out := problems[:0:0]
	for _, p := range problems {
		if p.Code != proof.CodeNoReady {
			out = append(out, p)
		}
	}
	return append([]proof.Problem{specific}, out...)
}

// readArtifact reads one artifact for the viewer through an os.Root on the
// pack's artifacts folder, so no path can leave it, and refuses anything that
// is not a regular file: a symlink or FIFO is never followed or opened.
func readArtifact(dir, p string) tea.Cmd {
	return func() tea.Msg {
		data, err := readInRoot(dir, p)
		return artifactMsg{path: p, data: data, err: err}
	}
}

func readInRoot(dir, p string) ([]byte, error) { return readInRootN(dir, p, maxViewBytes) }

// readInRootN is readInRoot reading at most limit bytes.
func readInRootN(dir, p string, limit int64) ([]byte, error) {
	if err := proof.CheckPath(p); err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(path.Join(dir, "artifacts"))
	if err != nil {
		return nil, fmt.Errorf("opening the artifacts folder: %w", err)
	}
	defer root.Close()
	// Walk every element with Lstat so a symlinked directory is refused too.
	cur := ""
	for _, elem := range strings.Split(p, "/") {
		cur = path.Join(cur, elem)
		fi, err := root.Lstat(cur)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("%s is %w", p, errNotInPack)
			}
			return nil, err
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return nil, fmt.Errorf("%s is a symbolic link; aayu never follows one", cur)
		}
		if cur == p && !fi.Mode().IsRegular() {
			return nil, fmt.Errorf("%s is not a regular file", p)
		}
	}
	f, err := root.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, limit))
}
