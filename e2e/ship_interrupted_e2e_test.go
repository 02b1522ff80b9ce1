package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/tui"
)

// interruptAt is a sandbox that sends ctrl+c (SIGINT) to the ship process
// the moment GitHub starts serving the first request matching at
// ("METHOD /path"), and holds that request until ship has said it stops
// once the write under way lands: the stop comes during exactly that
// write, every run, whatever the machine's speed.
func interruptAt(t *testing.T, at string) (url string, proc *atomic.Pointer[procAayu]) {
	t.Helper()
	proc = new(atomic.Pointer[procAayu])
	var once sync.Once
	plan := func(r *http.Request) sandbox.Fault {
		if r.Method+" "+r.URL.Path != at {
			return sandbox.NoFault
		}
		once.Do(func() {
			p := proc.Load()
			if p == nil {
				return
			}
			_ = p.cmd.Process.Signal(syscall.SIGINT)
			deadline := time.Now().Add(e2eWait)
			for !strings.Contains(p.out.String(), "ship stops once the write under way lands") && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
		})
		return sandbox.NoFault
	}
	_, url = sandboxWith(t, sandbox.Options{StateDir: filepath.Join(t.TempDir(), "sandbox"), FaultPlan: plan,
		Faults: sandbox.FaultSpec{WriteLatency: 800 * time.Millisecond}})
	return url, proc
}

// storyShipped is Story #3 as GitHub has it: labelled status:merged, and
// whether it carries ship's shipped comment.
func storyShipped(t *testing.T, url string) (labelled, commented bool) {
	t.Helper()
	c, err := ghx.NewClient(ghx.ClientOptions{APIURL: url + "/", Token: ghx.NewToken(sandbox.TokenPrefix+"reader", "test")})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	is, _, err := c.Issues.Get(ctx, "acme", "benefits", 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range is.Labels {
		labelled = labelled || l.GetName() == "status:merged"
	}
	list, _, err := c.Issues.ListComments(ctx, "acme", "benefits", 3, &github.IssueListCommentsOptions{ListOptions: github.ListOptions{PerPage: 100}})
	if err != nil {
		t.Fatal(err)
	}
	for _, cm := range list {
		commented = commented || strings.Contains(cm.GetBody(), "#4")
	}
	return labelled, commented
}

// nextRunJSON is the next run's inbox --json: every card's id, kind and
// counsel.
func nextRunJSON(t *testing.T, bin, home, url string) []map[string]any {
	t.Helper()
	p := startProcess(t, bin, home, "--api-url", url+"/", "--repo", "acme/benefits", "inbox", "--json", "id,kind,counsel")
	_ = p.in.Close()
	if code := p.exited(); code != tui.ExitOK {
		t.Fatalf("the next run's --json: exit %d\n%s", code, p.out.String())
	}
	var cards []map[string]any
	if err := json.Unmarshal([]byte(p.out.String()), &cards); err != nil {
		t.Fatalf("the next run's --json is not a JSON list: %v\n%s", err, p.out.String())
	}
	return cards
}

// TestShipInterruptedAtEachWrite: ctrl+c (SIGINT to the real binary's
// plain ship of #4 --solo-bypass) during each of ship's writes in turn,
// every write slowed by 800ms and the stop put on that write's own request
// (interruptAt): ship finishes the write under way and stops. Its last
// words name exactly what landed and what did not, as GitHub then holds it
// (the bypass comment, the merge, the ledger's record, the Story's
// labels and comment), with the exit code and the one command that
// finishes it; the actions log says the same; and the next inbox (--list
// and --json, read from GitHub) shows the stopped ship as one card saying
// one thing, never a "ready to ship" or a "merged without ship" card of
// it, and no card once the ship is complete. The inbox's cards kept from
// before the ship are dropped once a write landed, so the next inbox shows
// only what it read from GitHub.
func TestShipInterruptedAtEachWrite(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs the binary against a slowed sandbox")
	}
	type landed struct{ bypass, merged, recorded, story bool }
	cases := []struct {
		name   string
		at     string // the request during which ctrl+c comes
		landed landed
		code   int
		words  []string // in ship's output, in this order
		last   string   // ship's last line
		card   string   // the next inbox's one card of #4 ("" for none)
		says   string   // what that card says
	}{
		{"the bypass comment", "POST /repos/acme/benefits/issues/4/comments", landed{bypass: true}, tui.ExitFailed,
			[]string{"The Solo-mode bypass comment for head ", " is on #4 (http", "), but nothing was merged, no record is on the ledger and Story #3 is not updated; run aayu ship 4 again to finish it: it uses that comment and posts no second one."},
			"result: exit 1 — stopped on ctrl+c after the write under way landed: the bypass comment posted, nothing merged; aayu ship 4 finishes it",
			"ship-stopped#4", "landed: nothing is merged, no record is on the ledger and Story #3 is not updated. Enter finishes it with aayu ship 4 --solo-bypass"},
		{"the merge", "PUT /repos/acme/benefits/pulls/4/merge", landed{bypass: true, merged: true}, tui.ExitFailed,
			[]string{"Merged as ", ", but the record did not reach the ledger and Story #3 is not updated", "run aayu ship 4 again to finish it without merging twice."},
			"result: exit 1 — stopped on ctrl+c after the write under way landed: merged, the record not finished; aayu ship 4 finishes it without merging twice",
			"ship-stopped#4", "(its merge commit says so) and stopped: its record is not on the ledger and Story #3 is still before status:merged. Enter finishes it with aayu ship 4 --solo-bypass; it never merges twice."},
		{"the ledger record", "PATCH /repos/acme/benefits/git/refs/heads/ledger", landed{bypass: true, merged: true, recorded: true}, tui.ExitFailed,
			[]string{"Merged as ", " and its record is on the ledger, but Story #3 is not updated", "run aayu ship 4 again to finish it without merging twice."},
			"result: exit 1 — stopped on ctrl+c after the write under way landed: merged and recorded, the Story not updated; aayu ship 4 finishes it without merging twice",
			"ship-stopped#4", "and its record is on the ledger, but it stopped before updating Story #3, which is still before status:merged. Enter finishes it with aayu ship 4 --solo-bypass; it writes only what is missing."},
		{"the Story's labels", "PATCH /repos/acme/benefits/issues/3", landed{true, true, true, true}, tui.ExitOK,
			[]string{"shipped: #4 merged as "}, "result: exit 0 — ctrl+c came as the last write landed: shipped in full", "", ""},
		{"the Story's comment", "POST /repos/acme/benefits/issues/3/comments", landed{true, true, true, true}, tui.ExitOK,
			[]string{"shipped: #4 merged as "}, "result: exit 0 — ctrl+c came as the last write landed: shipped in full", "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			bin := buildAayu(t)
			home := t.TempDir()
			url, proc := interruptAt(t, c.at)
			// An inbox read before the ship keeps its cards (the cache the
			// next inbox would show first).
			if list := nextRunList(t, bin, home, url); !strings.Contains(list, "Story PR ready to ship #4") {
				t.Fatalf("before the ship, the inbox does not offer #4:\n%s", list)
			}
			if kept, _ := filepath.Glob(filepath.Join(home, ".cache", "aayu", "inbox", "*.json")); len(kept) != 1 {
				t.Fatalf("the inbox kept %d caches; want 1", len(kept))
			}
			p := shipProcess(t, bin, home, url)
			proc.Store(p)
			p.send("y")
			code := p.exited()
			out := p.out.String()

			merged, bypasses := shipState(t, url)
			labelled, commented := storyShipped(t, url)
			got := landed{bypass: bypasses == 1, merged: merged, recorded: shipRecordOnLedger(t, url), story: labelled && commented}
			if got != c.landed || bypasses > 1 {
				t.Fatalf("GitHub holds %+v (%d bypass comments); want %+v:\n%s", got, bypasses, c.landed, out)
			}
			if !strings.Contains(out, "ctrl+c: ship stops once the write under way lands") {
				t.Errorf("ship did not say it stops once the write under way lands:\n%s", out)
			}
			if code != c.code || p.lastLine() != c.last {
				t.Errorf("exit %d, last line %q; want exit %d and %q:\n%s", code, p.lastLine(), c.code, c.last, out)
			}
			rest := out
			for _, w := range c.words {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("ship's last words lack %q (in order):\n%s", w, out)
				}
				rest = rest[i+len(w):]
			}
			if strings.Contains(out, "Fix what is named above") || strings.Contains(out, "starts again from the gates") {
				t.Errorf("ship's last words say nothing landed though a write did:\n%s", out)
			}
			if kept, _ := filepath.Glob(filepath.Join(home, ".cache", "aayu", "inbox", "*.json")); len(kept) != 0 {
				t.Errorf("ship landed writes and left the inbox's cards from before it (%v): the next inbox would show them first", kept)
			}
			finish := strings.TrimSuffix(c.words[len(c.words)-1], ".")
			stopped := 0
			for _, r := range actionsLog(t, home) {
				if r.Command == "ship 4" && r.Outcome == actions.OutcomeInterrupted {
					stopped++
					if !strings.Contains(r.Detail, finish) {
						t.Errorf("the actions log records the stop as %q; want it to say %q", r.Detail, finish)
					}
				}
			}
			if want := map[bool]int{true: 1, false: 0}[c.card != ""]; stopped != want {
				t.Errorf("the actions log holds %d records of ship 4 stopped; want %d: %+v", stopped, want, actionsLog(t, home))
			}

			list := nextRunList(t, bin, home, url)
			cards := nextRunJSON(t, bin, home, url)
			var mine []map[string]any
			for _, card := range cards {
				if id := card["id"]; id == "ship-stopped#4" || id == "ready-to-ship#4" || id == "merged-without-ship#3" {
					mine = append(mine, card)
				}
			}
			switch {
			case c.card == "" && len(mine) != 0:
				t.Errorf("the shipped #4 still has cards: %v\n%s", mine, list)
			case c.card != "" && (len(mine) != 1 || mine[0]["id"] != c.card || !strings.Contains(fmt.Sprint(mine[0]["counsel"]), c.says)):
				t.Errorf("the next inbox's cards of #4: %v; want the one card %s saying %q\n%s", mine, c.card, c.says, list)
			case c.card != "" && (!strings.Contains(list, "Ship stopped part-way #4") || !strings.Contains(list, "run: aayu ship 4 --solo-bypass") ||
				strings.Contains(list, "Story merged without ship #3") || strings.Contains(list, "Story PR ready to ship #4")):
				t.Errorf("inbox --list does not show #4 as one stopped ship with its command:\n%s", list)
			}
		})
	}
}
