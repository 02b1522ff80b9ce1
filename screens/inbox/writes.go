package inbox

import (
	tea "charm.land/bubbletea/v2"

	"github.com/aayudha/aayu/actions"
)

// startJobs runs each write the queue let start as its own command, whose
// message carries the Outcome back to Update; onJobDone then frees its
// slot. The queue is the model's state, touched only in Update, so the
// limit of two and the one-write-per-item rule need no lock, and Update
// starts no goroutine: Bubble Tea runs the commands.
func (m *Model) startJobs(jobs []actions.Job) tea.Cmd {
	if len(jobs) == 0 {
		return nil
	}
	ctx, exec := m.writeCtx, m.deps.Execute
	cmds := make([]tea.Cmd, len(jobs))
	for i, j := range jobs {
		cmds[i] = func() tea.Msg { return jobDoneMsg{id: j.ID, outcome: exec(ctx, j.Req)} }
	}
	return tea.Batch(cmds...)
}
