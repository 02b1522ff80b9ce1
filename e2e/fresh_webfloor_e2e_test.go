package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aayudha/aayu/tui"
)

// needChromium skips a web floor test loudly when chromium is absent, and
// fails it in CI (CI=true), where .ci/run installs Debian's chromium.
func needChromium(t *testing.T) {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if _, err := exec.LookPath(name); err == nil {
			return
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium is not installed, and in CI the web floor's tests must run (.ci/run installs Debian's chromium)")
	}
	t.Skip("SKIPPED LOUDLY: chromium is not installed, so the web floor cannot open pages here (apt-get install chromium)")
}

// needFFmpeg skips a recording test loudly when ffmpeg is absent, and
// fails it in CI, where .ci/run installs Debian's ffmpeg.
func needFFmpeg(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("ffmpeg"); err == nil {
		return
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("ffmpeg is not installed, and in CI the web floor's recording tests must run (.ci/run installs Debian's ffmpeg)")
	}
	t.Skip("SKIPPED LOUDLY: ffmpeg is not installed, so the web floor cannot record pages here (apt-get install ffmpeg)")
}

// freshWebApp serves web/pages on $PORT: the app the founder's policy
// names as [verify] app, so an agent's Story adds a page, not Go code.
const freshWebApp = `package main

import (
	"net/http"
	"os"
)

func main() {
	if err := http.ListenAndServe("127.0.0.1:"+os.Getenv("PORT"), http.FileServer(http.Dir("web/pages"))); err != nil {
		os.Exit(1)
	}
}
`

const freshShoutPage = `<html><body style="font:40px sans-serif"><h1>Greetings</h1><p id="shout">HELLO, ADA!</p></body></html>`

// setWebApp merges a founder's policy pull request that adds the app and
// sets [verify] app to start it.
func (f *freshLoop) setWebApp() {
	f.t.Helper()
	founder := f.agentClone()
	founder.auth.Password = "sandbox-founder"
	b, err := os.ReadFile(filepath.Join(founder.dir, ".aayudha", "config.toml"))
	if err != nil {
		f.t.Fatal(err)
	}
	cfg := string(b)
	if !strings.Contains(cfg, "\n[verify]\n") {
		f.t.Fatalf("init's policy has no [verify] table:\n%s", cfg)
	}
	cfg = strings.Replace(cfg, "\n[verify]\n", "\n[verify]\napp = [\"go\", \"run\", \"./web\"]\n", 1)
	founder.commit("policy/web", "policy: the web app the web floor opens", map[string]string{".aayudha/config.toml": cfg, "web/main.go": freshWebApp})
	founder.push("policy/web")
	f.merge(f.openPR("policy/web", "main", "the web app", "The app the web floor opens: go run ./web."))
}

// freshWebPR opens a Story whose criterion names a screenshot of page
// (with element, and the evidence map's further lines extra), the agent's
// branch adding Shout, its test and the page, and waits for the gate. It
// returns the Story, pull request, head and the gate run's conclusion.
func freshWebPR(t *testing.T, f *freshLoop, slug, page, element, extra string) (story, pr int, head, conclusion string) {
	t.Helper()
	story = f.newIssue("Story: Hello shouts on the page", freshShoutBody, "type:story")
	if code, out := f.personWithPresence("ready", itoa(story)); code != tui.ExitOK {
		t.Fatalf("aayu ready %d exited %d:\n%s", story, code, out)
	}
	agent := f.agentClone()
	branch := fmt.Sprintf("story/%d-%s", story, slug)
	head = agent.commit(branch, fmt.Sprintf("greet: Shout, on the page\n\nRefs #%d", story), map[string]string{
		"greet/shout.go":                                freshShout,
		"greet/shout_test.go":                           freshShoutTest,
		"web/pages/shout.html":                          freshShoutPage,
		fmt.Sprintf(".aayudha/evidence/%d.toml", story): fmt.Sprintf("[[criterion]]\nid = 1\ntests = [\"greet:TestShout\"]\nscreenshot = %q\nelement = %q\n%s", page, element, extra),
	})
	agent.push(branch)
	pr = f.openPR(branch, "main", "Hello shouts on the page", fmt.Sprintf("Refs #%d", story))
	return story, pr, head, f.waitForGate(head).GetConclusion()
}

// TestFreshWebFloorShipsTheScreenshot: on acme/fresh with merge on proof
// and a [verify] app, an agent's Story whose criterion names a screenshot
// of its page goes through the merge gate run locally by the sandbox's
// runner: the tests job opens the page in headless chromium and records
// it (recording = true, assembled by ffmpeg), the gate's comment lists
// screens/1.png, recordings/1.webm and the web floor, ship merges on
// proof, and the authoritative pack on the ledger holds screens/1.png as
// a screenshot and recordings/1.webm as a recording, each kept by hash
// (store none: media never reach the ledger). A second Story whose page
// does not load fails the web floor with words.
func TestFreshWebFloorShipsTheScreenshot(t *testing.T) {
	t.Parallel()
	needChromium(t)
	needFFmpeg(t)
	f := startFreshLoop(t)
	f.setUp()
	f.setProof("")
	f.setWebApp()

	story, pr, head, concl := freshWebPR(t, f, "shout-page", "/shout.html", "#shout", "recording = true\n")
	if concl != "success" {
		t.Fatalf("the merge gate's run on %s concluded %s:\n%s", head, concl, f.logs.String())
	}
	c := f.gateComment(pr)
	for _, want := range []string{"`screens/1.png`", "`recordings/1.webm`", "| web | pass |", "1 of 1 page captured; criterion 1: /shout.html showing"} {
		if !strings.Contains(c, want) {
			t.Errorf("the gate's comment on #%d lacks %q:\n%s", pr, want, c)
		}
	}
	code, out := f.personWithPresence("ship", itoa(pr))
	if code != tui.ExitOK || !strings.Contains(out, "merged into main") {
		t.Fatalf("aayu ship %d exited %d, want a merge:\n%s", pr, code, out)
	}
	raw := f.ledgerFile(fmt.Sprintf("proof/%d/%s/authoritative/pack.json", story, head))
	var pack struct {
		Artifacts []struct{ Path, Kind, Store, SHA256 string }
		Criteria  []struct{ Evidence []string }
	}
	if err := json.Unmarshal([]byte(raw), &pack); err != nil {
		t.Fatalf("the authoritative pack.json: %v\n%s", err, raw)
	}
	found := map[string]bool{}
	for _, a := range pack.Artifacts {
		found[a.Path+" "+a.Kind] = a.Store == "none" && len(a.SHA256) == 64
	}
	cited := ""
	if len(pack.Criteria) == 1 {
		cited = strings.Join(pack.Criteria[0].Evidence, " ")
	}
	if !found["screens/1.png screenshot"] || !strings.Contains(cited, "screens/1.png") {
		t.Fatalf("the authoritative pack does not hold screens/1.png as a screenshot kept by hash, cited by criterion 1:\n%s", raw)
	}
	if !found["recordings/1.webm recording"] || !strings.Contains(cited, "recordings/1.webm") {
		t.Fatalf("the authoritative pack does not hold recordings/1.webm as a recording kept by hash, cited by criterion 1:\n%s", raw)
	}

	_, pr2, head2, concl := freshWebPR(t, f, "shout-nowhere", "/nowhere.html", "#shout", "")
	if concl == "success" {
		t.Fatalf("the merge gate passed %s, whose page does not load", head2)
	}
	c = f.gateComment(pr2)
	for _, want := range []string{"| web | **fail** |", "the page /nowhere.html answered HTTP 404"} {
		if !strings.Contains(c, want) {
			t.Errorf("the gate's comment on #%d lacks %q:\n%s", pr2, want, c)
		}
	}
}
