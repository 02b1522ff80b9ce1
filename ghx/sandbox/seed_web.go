package sandbox

import (
	_ "embed"
	"fmt"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/aayudha/aayu/proof"
)

// The demo's web floor: the benefits service has a small web app (web/,
// Go net/http serving its pages on $PORT), which the demo policy's
// [verify] app starts, and Story 19, whose Completion Goal is something a
// person sees, is proved by a screenshot. PR 20 builds it; its merge
// gate's run left a pack holding screens/1.png, the page as headless
// chromium captured it, so `aayu --sandbox ship 20 --solo-bypass` ships
// it and `aayu --sandbox pack 19` shows the capture. Both come after PR 18
// so every earlier number stays, and neither is a card in the inbox: the
// Story has its Ready snapshot, and the pull request carries no inspect
// judgement and no "Ready to ship" comment.
const (
	DemoStoryScreenshot = 19 // open Story whose criterion names a screenshot of /summary
	DemoPRScreenshot    = 20 // open, links Story 19; its gate run's pack holds screens/1.png
	RunScreenshotPR     = "pr20-qualifying"
)

// DemoScreenshot is screens/1.png of PR 20's pack: the summary page as the
// web floor captured it in Debian's headless chromium (1280×657, the page
// area of its 1280×800 window) from the very app PR 20's head serves, in
// a merge gate's run of the demo (TestDemoScreenshotStoryGateCapturesThePage
// runs it); kept so the demo seeds the same bytes every time.
//
//go:embed demoweb/summary.png
var DemoScreenshot []byte

// webPage is a web criterion's page and the element it must show.
type webPage struct{ Path, Element string }

var story19 = story{Number: DemoStoryScreenshot, Title: "Show the remaining deductible on the summary page", Pkg: "web",
	Criteria: []string{"The summary page shows the remaining deductible."},
	Tests:    [][]string{{"TestSummaryShowsRemaining"}},
	Pages:    map[int]webPage{1: {Path: "/summary", Element: "#remaining"}}}

// fileWebApp is web/web.go on the base: the app with its home page.
const fileWebApp = `// Command web serves the benefits service's pages on $PORT: the app the
// policy's [verify] app starts for the web floor.
package main

import (
	"fmt"
	"net/http"
	"os"
)

func main() {
	if err := http.ListenAndServe("127.0.0.1:"+os.Getenv("PORT"), routes()); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// routes are the app's pages.
func routes() *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("/{$}", home)
	return mux
}

func home(w http.ResponseWriter, r *http.Request) {
	fmt.Fprint(w, page("Benefits", "<p>Ask about your deductible and copays.</p>"))
}

// page is one page of the app, in large type.
func page(title, body string) string {
	return "<!doctype html><html><head><title>" + title + "</title></head>" +
		"<body style=\"font:32px sans-serif;margin:48px;color:#1b1f24\"><h1>" + title + "</h1>" + body + "</body></html>"
}
`

// webAppSummary is web/web.go on PR 20: the summary page routed (made
// when the demo is seeded, not at every start of aayu).
func webAppSummary() string {
	return strings.Replace(fileWebApp, "\tmux.HandleFunc(\"/{$}\", home)\n",
		"\tmux.HandleFunc(\"/{$}\", home)\n\tmux.HandleFunc(\"/summary\", summary)\n", 1)
}

const fileWebSummary = `package main

import (
	"fmt"
	"net/http"
)

// summary is the plan summary page of a member who paid 400 of a 1500
// deductible.
func summary(w http.ResponseWriter, r *http.Request) {
	fmt.Fprint(w, summaryPage(1500, 400))
}

// summaryPage shows the deductible, what was paid and what remains, never
// below zero.
func summaryPage(deductible, paid int) string {
	return page("Plan summary", fmt.Sprintf("<p>Deductible: %d</p><p>Paid so far: %d</p>"+
		"<p id=\"remaining\" style=\"font-weight:bold\">Remaining deductible: %d</p>", deductible, paid, max(deductible-paid, 0)))
}
`

const fileWebSummaryTest = `package main

import (
	"net/http/httptest"
	"strings"
	"testing"
)

func TestSummaryShowsRemaining(t *testing.T) {
	rec := httptest.NewRecorder()
	routes().ServeHTTP(rec, httptest.NewRequest("GET", "/summary", nil))
	if body := rec.Body.String(); !strings.Contains(body, ">Remaining deductible: 1100</p>") {
		t.Errorf("the summary page does not show 1100 remaining:\n%s", body)
	}
	if got := summaryPage(500, 900); !strings.Contains(got, ">Remaining deductible: 0</p>") {
		t.Errorf("paid beyond the deductible, the page does not show 0 remaining:\n%s", got)
	}
}
`

// fileEvidence19 maps the criterion to its test and to the screenshot of
// the page the web floor opens, showing the element.
const fileEvidence19 = `[[criterion]]
id = 1 # the summary page shows the remaining deductible
tests = ["web:TestSummaryShowsRemaining"]
screenshot = "/summary"
element = "#remaining"
`

// webCheck is the web floor's check of a pack with captures, in the words
// the web floor writes (actions/packbuild judgeWeb): each page, the
// element it showed and the capture's size.
func webCheck(p packSpec) (proof.Check, bool) {
	if len(p.Screens) == 0 {
		return proof.Check{}, false
	}
	ids := make([]int, 0, len(p.Story.Pages))
	for id := range p.Story.Pages {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	var words []string
	captured := 0
	for _, id := range ids {
		pg := p.Story.Pages[id]
		w, h, err := proof.CheckScreenshot(p.Screens[id])
		if err != nil {
			words = append(words, fmt.Sprintf("criterion %d: the capture of %s cannot be used: %v", id, pg.Path, err))
			continue
		}
		captured++
		words = append(words, fmt.Sprintf("criterion %d: %s showing %q, %d×%d", id, pg.Path, pg.Element, w, h))
	}
	pages := "pages"
	if len(ids) == 1 {
		pages = "page"
	}
	c := proof.Check{Floor: "web", Result: proof.ResultPass, Value: num(float64(captured)), Tool: "chromium (headless, chromedp)",
		Version: "156.0.8078.129", Network: proof.NetworkNotIsolated,
		Detail: fmt.Sprintf("%d of %d %s captured; %s", captured, len(ids), pages, strings.Join(words, "; "))}
	if captured < len(ids) {
		c.Result = proof.ResultFail
	}
	return c, true
}

// seedWebDemo adds Story 19 and PR 20 with its merge gate's run and the
// Story's Ready snapshot (seedItems calls it last).
func (sd *seeder) seedWebDemo() {
	if sd.err != nil {
		return
	}
	bot := sd.agent
	sd.issue("founder", "Story: show the remaining deductible on the summary page",
		storyBody(story19, "Members want to see what is left of their deductible where they look: the plan summary page.\n\n"),
		[]string{"type:story", "status:building", "aayu:lease"}, sd.ago(24))
	dev := sd.s.git.branch("dev")
	head := sd.commit(dev, map[string]string{"web/web.go": webAppSummary(), "web/summary.go": fileWebSummary,
		"web/summary_test.go": fileWebSummaryTest, ".aayudha/evidence/19.toml": fileEvidence19},
		sd.agentMsg(fmt.Sprintf("web: the summary page shows the remaining deductible\n\nRefs #%d", DemoStoryScreenshot)), bot, sd.ago(20))
	sd.branch("story/19-summary-page", head)
	pr := sd.pull(bot, "Show the remaining deductible on the summary page",
		sd.agentMsg(fmt.Sprintf("Refs #%d\n\nAdds the summary page, its test, and the evidence map whose criterion names a screenshot of /summary.", DemoStoryScreenshot)),
		"story/19-summary-page", "dev", nil, sd.ago(20))
	run := sd.gateRun(RunScreenshotPR, runRec{Event: "pull_request_target", Status: "completed", Conclusion: "success", HeadBranch: "dev",
		HeadSHA: dev.String(), Actor: bot, CreatedAt: sd.ago(19.5),
		PRs: []runPR{{pr.Number, pr.PR.Head, head.String(), "dev", dev.String()}}},
		func(id int64) *packFolder {
			f := buildPack(packSpec{Story: story19, PR: pr.Number, Head: head.String(), Base: dev.String(), Identity: "ci",
				Authority: proof.Authority{Kind: "authoritative", Workflow: gatePath, RunID: id}, Created: sd.ago(19.4),
				Screens: map[int][]byte{1: DemoScreenshot}})
			return &f
		}, 30)
	sd.status(head, GateCheck, "success", "the pack verifies and every floor holds", sd.ago(19.3))
	sd.postedByRun(head, run)
	tip := sd.s.git.branch("ledger")
	if tip == plumbing.ZeroHash {
		return
	}
	l := sd.commit(tip, map[string]string{fmt.Sprintf("specs/%d/ready.md", story19.Number): story19.readyMarkdown(sd.ago(22))},
		"ledger: Ready snapshot for story 19", "founder", sd.ago(22))
	sd.branch("ledger", l)
}
