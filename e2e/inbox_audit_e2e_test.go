package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/tui"
)

// auditRound runs one plain session that answers "looks right" on the
// audit card of #15, passing over every other card, and waits for the
// look to end. It reports whether the look was tried.
func auditRound(t *testing.T, home, url string) bool {
	t.Helper()
	return lookRound(t, home, url, 15, "1", "")
}

// lookRound runs one plain session that picks choice on the card of #pr,
// with note when the choice asks for one, passing over every other card,
// and waits for its writes to end. It reports whether the choice was tried.
func lookRound(t *testing.T, home, url string, pr int, choice, note string) bool {
	t.Helper()
	vars := map[string]string{"HOME": home, "AMP_THREAD_ID": "T-1", "AAYU_GITHUB_TOKEN": "sandbox-founder"}
	a := startAayu(t, vars, "--api-url", url+"/", "--oauth-url", url, "--repo", "acme/benefits", "--plain", "--set", "identity.device_client_id=aayu-sandbox", "inbox")
	if a.waitForAny(deviceCodeLine, `Nothing was done\.`) == "Nothing was done." {
		a.exit()
		return false
	}
	m := a.waitFor(deviceCodeLine)
	approveOnSandbox(t, m[1], m[2], "founder")
	ask := regexp.MustCompile(`card \d+ of \d+: ([^\n]*?) #(\d+)\. Choose[^\n]*\n$|No more cards\.[^\n]*\n$|failed: the inbox could not be read|Nothing was done\.`)
	seen := 0
	deadline := time.Now().Add(e2eWait)
	for time.Now().Before(deadline) {
		out := a.out.String()
		m := ask.FindStringSubmatch(out[seen:])
		if m == nil {
			time.Sleep(10 * time.Millisecond)
			continue
		}
		seen = len(out)
		switch {
		case strings.HasPrefix(m[0], "failed") || strings.HasPrefix(m[0], "Nothing was done"):
			a.exit()
			return false
		case strings.HasPrefix(m[0], "No more cards"):
			a.send("q")
			a.exit()
			return false
		case m[2] != strconv.Itoa(pr):
			a.send("s")
			continue
		}
		a.send(choice)
		if note != "" {
			a.waitFor(`One line on what you checked:`)
			a.send(note)
		}
		ended := fmt.Sprintf(`(?m)^(?:done|not done): [^\n]*#%d`, pr)
		if a.waitForAny(ended, `\(y applies it; anything else cancels\)`) == "(y applies it; anything else cancels)" {
			a.send("y")
			a.waitForAny(ended)
		}
		a.send("q")
		if c := a.exit(); c != tui.ExitOK && c != tui.ExitFailed {
			t.Fatalf("exit %d:\n%s", c, a.out.String())
		}
		out = a.out.String()
		t.Logf("look:\n%s", out[strings.LastIndex(out, "card "):])
		return true
	}
	t.Fatalf("the card of #%d was never asked about:\n%s", pr, a.out.String())
	return false
}

// TestInboxAuditLandedInPartStaysUnderFaults: "looks right" on #15 against
// a sandbox that answers 30% of requests with a server error. Then, without
// faults, the audit is either complete (one clean sample, the label and the
// ledger entry gone) or still on the inbox for Enter to finish; a look that
// landed only in part never leaves the inbox, and a round without faults
// finishes it with one sample.
func TestInboxAuditLandedInPartStaysUnderFaults(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("sessions against a flaky sandbox")
	}
	state := filepath.Join(t.TempDir(), "sandbox")
	home := t.TempDir()
	srv, url := sandboxAt(t, state, sandbox.FaultSpec{ServerError: 0.3})
	tried := 0
	for range 4 {
		if auditRound(t, home, url) {
			tried++
		}
	}
	if tried == 0 {
		t.Fatal("no round reached the audit card; the test proves nothing")
	}
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	_, url = sandboxAt(t, state, sandbox.FaultSpec{})
	git := filepath.Join(state, "benefits.git")
	check := func(final bool) {
		t.Helper()
		_, err := runCmd("git", "--git-dir", git, "cat-file", "-e", "ledger:autonomy/audit/15.json")
		entry := err == nil
		samples, _ := runCmd("git", "--git-dir", git, "show", "ledger:autonomy/samples.jsonl")
		n := strings.Count(samples, `"pr":15`) + strings.Count(samples, `"pr": 15`)
		labelled := issueOn(t, url, 15).has("aayu:audit")
		listed := strings.Contains(listInbox(t, home, url), "Merged unreviewed, to audit #15")
		complete := !entry && !labelled && n == 1
		t.Logf("entry %v, label %v, %d samples, listed %v", entry, labelled, n, listed)
		switch {
		case n > 1:
			t.Errorf("#15 has %d samples; a look records one", n)
		case final && !complete:
			t.Errorf("#15 is not complete after a round without faults")
		case !complete && !listed:
			t.Errorf("#15 landed in part and left the inbox")
		case complete && listed:
			t.Errorf("#15 is complete and still listed")
		}
	}
	check(false)
	if strings.Contains(listInbox(t, home, url), "Merged unreviewed, to audit #15") && !auditRound(t, home, url) {
		t.Fatal("the round without faults did not reach #15")
	}
	check(true)
}

// approvalsOn counts the APPROVED reviews by login on head of pull request n.
func approvalsOn(t *testing.T, url string, n int, head, login string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, fmt.Sprintf("%s/repos/acme/benefits/pulls/%d/reviews?per_page=100", url, n), nil)
	req.Header.Set("Authorization", "token sandbox-founder")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var rs []struct {
		State    string `json:"state"`
		CommitID string `json:"commit_id"`
		User     struct {
			Login string `json:"login"`
		} `json:"user"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&rs); err != nil {
		t.Fatal(err)
	}
	count := 0
	for _, r := range rs {
		if r.State == "APPROVED" && r.CommitID == head && r.User.Login == login {
			count++
		}
	}
	return count
}

// TestInboxApproveHeadLandedInPartUnderFaults: "approve its head" on #6
// is a review and then the ledger record that records it. Each case keys
// its fault on one request, so every run asserts the same outcome: the
// review lands but its answer is lost, or the review lands and the
// record's ref update fails. The faulty round leaves the approval half
// done and the card listed; a round without faults lands only what is
// missing (never a second review), and the next inbox, started warm from
// the kept read, no longer offers the step. A lost answer is read again
// before anything is repeated, so those cases finish in the faulty round.
func TestInboxApproveHeadLandedInPartUnderFaults(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("sessions against a faulty sandbox")
	}
	reviews := "/repos/acme/benefits/pulls/" + strconv.Itoa(sandbox.DemoPRReview) + "/reviews"
	const ledgerRef = "/repos/acme/benefits/git/refs/heads/ledger"
	cases := []struct {
		name   string
		method string
		path   string
		fault  sandbox.Fault
		// finished: the faulty round itself ends with the review and
		// its record (it re-read what a lost answer left).
		finished bool
	}{
		{"the review's answer is lost", http.MethodPost, reviews, sandbox.FaultDrop, true},
		{"the record's answer is lost", http.MethodPatch, ledgerRef, sandbox.FaultDrop, true},
		{"the review is refused", http.MethodPost, reviews, sandbox.FaultBadGateway, false},
		{"the record's ref update fails", http.MethodPatch, ledgerRef, sandbox.FaultBadGateway, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			state := filepath.Join(t.TempDir(), "sandbox")
			home := t.TempDir()
			// With a bot identity, so "approve its head" is a review on
			// GitHub and its record (in the solo demo the founder is #6's
			// author, and only the record is written).
			seedBotIdentityDemo(t, state)
			plan := func(r *http.Request) sandbox.Fault {
				if r.Method == c.method && r.URL.Path == c.path {
					return c.fault
				}
				return sandbox.NoFault
			}
			srv, url := sandboxWithPlan(t, state, plan)
			head := srv.HeadSHA(sandbox.DemoPRReview)
			state6 := func() (record bool, n int, listed bool) {
				t.Helper()
				_, err := runCmd("git", "--git-dir", filepath.Join(state, "benefits.git"), "cat-file", "-e", "ledger:reviews/6/"+head+".json")
				return err == nil, approvalsOn(t, url, sandbox.DemoPRReview, head, "founder"),
					strings.Contains(listInbox(t, home, url), "PR that needs your review #6")
			}
			if !lookRound(t, home, url, sandbox.DemoPRReview, "2", "ran the copay tests") {
				t.Fatal("the faulty round did not reach the review card; the test proves nothing")
			}
			record, n, listed := state6()
			switch {
			case n > 1:
				t.Fatalf("after the faulty round #6 carries %d approvals of its head; a retry must not review again", n)
			case c.finished && (!record || n != 1 || listed):
				t.Fatalf("after the faulty round: record %v, %d approvals, listed %v; want the review and its record, and no card", record, n, listed)
			case c.finished:
				return
			case c.fault == sandbox.FaultBadGateway && c.method == http.MethodPost && (record || n != 0 || !listed):
				t.Fatalf("after the faulty round: record %v, %d approvals, listed %v; want nothing written, and the card still listed", record, n, listed)
			case c.method == http.MethodPatch && (record || n != 1 || !listed):
				t.Fatalf("after the faulty round: record %v, %d approvals, listed %v; want the review alone, and the card still listed", record, n, listed)
			}
			if err := srv.Close(); err != nil {
				t.Fatal(err)
			}
			_, url = sandboxAt(t, state, sandbox.FaultSpec{})
			if !lookRound(t, home, url, sandbox.DemoPRReview, "2", "ran the copay tests") {
				t.Fatal("the round without faults did not reach #6")
			}
			switch record, n, listed := state6(); {
			case n != 1:
				t.Errorf("#6 carries %d approvals of its head; finishing must not review again", n)
			case !record:
				t.Errorf("the round without faults did not record the review of #6")
			case listed:
				t.Errorf("#6's head is approved and recorded, yet the inbox offers approving it again")
			}
		})
	}
}
