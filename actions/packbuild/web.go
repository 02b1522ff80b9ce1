package packbuild

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"

	"github.com/aayudha/aayu/internal/lazyre"
	"github.com/aayudha/aayu/model/config"
	"github.com/aayudha/aayu/proof"
)

// The web floor (seed 000: "Web floors add screenshots … for screenshot
// criteria"): for each criterion whose evidence map names a screenshot,
// verify starts the app the base policy's [verify] app names, in the
// checkout, opens the page in Debian's chromium, headless, through
// chromedp, checks the element the map names is there, and keeps the
// capture as screens/N.png, an artifact of kind screenshot (media: store
// none, its bytes in the run artifact, its hash in the pack).
//
// Like go test, this runs the pull request's code: in the merge gate it
// runs in the tests job, which holds no token, and what it captured goes
// to the assembling job with the raw outputs, where every capture is
// judged again from its bytes (judgeWeb).

// StepWeb is the web floor's step and check.
const StepWeb = "web"

// Limits of one web floor run.
const (
	appStartTimeout = 90 * time.Second // go run compiles first
	pageTimeout     = 30 * time.Second
	webViewportW    = 1280
	webViewportH    = 800
	maxAppStderr    = 2 << 10
)

// webShot is what the capture of one criterion's page came to, as the raw
// manifest carries it to the assembling job.
type webShot struct {
	ID      int    `json:"id"`
	Page    string `json:"page"`
	Element string `json:"element,omitempty"`
	// Transcript asks for the page's screen-reader transcript too.
	Transcript bool `json:"transcript,omitempty"`
	// Recording asks for a recording of the page loading (record.go).
	Recording bool `json:"recording,omitempty"`
	// Failure says why there is no capture, in words; "" means
	// screens/ID.png was written (and is judged again from its bytes).
	Failure string `json:"failure,omitempty"`
}

// webRun is one web floor run: which browser, and each criterion's page.
type webRun struct {
	// Failure says why no page was opened at all (no app configured, the
	// app did not start, no chromium); "" when the pages were tried.
	Failure string    `json:"failure,omitempty"`
	Browser string    `json:"browser,omitempty"`
	Shots   []webShot `json:"shots"`
}

// runWeb runs the web floor for the criteria of m that name a screenshot,
// writing each capture to out/screens/N.png. app is [verify] app from the
// base policy: the command that starts the app, "$PORT" in it replaced by
// the port it must listen on (also given as PORT). Nothing here is an
// error: every way it falls short is a failure in words.
func (t Tools) runWeb(ctx context.Context, dir string, app []string, m proof.EvidenceMap, out string, emit func(Event)) *webRun {
	crits := m.Screenshots()
	if len(crits) == 0 {
		return nil
	}
	run := &webRun{}
	for _, c := range crits {
		run.Shots = append(run.Shots, webShot{ID: c.ID, Page: c.Screenshot, Element: c.Element, Transcript: c.Transcript, Recording: c.Recording})
	}
	if len(app) == 0 {
		run.Failure = "the evidence map names a screenshot, but the base branch's [verify] app names no command that starts the app (e.g. app = [\"go\", \"run\", \"./web\"], listening on $PORT)"
		return run
	}
	exe := chromiumPath()
	if exe == "" {
		run.Failure = "chromium is not installed here, so no page could be opened (install Debian's chromium package)"
		return run
	}
	base, stop, why := t.startApp(ctx, dir, app, emit)
	if why != "" {
		run.Failure = why
		return run
	}
	defer stop()
	for _, d := range []string{"screens", "transcripts", "recordings"} {
		if err := os.MkdirAll(filepath.Join(out, d), 0o755); err != nil {
			run.Failure = "the " + d + " folder could not be made: " + err.Error()
			return run
		}
	}
	run.Browser, run.Failure = capturePages(ctx, exe, t.ffmpegPath(), base, run.Shots, out, emit)
	return run
}

// chromiumPath finds Debian's chromium (or a Chrome) on PATH.
func chromiumPath() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// startApp starts the app in dir on a free local port and waits until it
// answers HTTP. It returns the app's base URL and how to stop it (its
// whole process group: go run leaves the built program as a child), or
// why it did not start.
func (t Tools) startApp(ctx context.Context, dir string, app []string, emit func(Event)) (string, func(), string) {
	port, err := freePort()
	if err != nil {
		return "", nil, "no free local port for the app: " + err.Error()
	}
	argv := make([]string, len(app))
	for i, a := range app {
		argv[i] = strings.ReplaceAll(a, "$PORT", port)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(t.goEnv(), "PORT="+port)
	var errBuf bytes.Buffer
	cmd.Stderr = &limitedBuffer{buf: &errBuf, max: maxAppStderr}
	killGroup := ownGroup(cmd)
	if err := cmd.Start(); err != nil {
		return "", nil, fmt.Sprintf("the app did not start: %s: %v", strings.Join(app, " "), err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	stop := func() {
		killGroup()
		<-exited
	}
	base := "http://127.0.0.1:" + port
	emit(Output{Step: StepWeb, Line: "started " + strings.Join(argv, " ") + " on " + base})
	client := &http.Client{Timeout: 2 * time.Second}
	deadline := time.Now().Add(appStartTimeout)
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+"/", nil)
		if resp, err := client.Do(req); err == nil {
			resp.Body.Close()
			return base, stop, ""
		}
		select {
		case err := <-exited:
			exited <- err
			stop()
			return "", nil, fmt.Sprintf("the app (%s) exited before it answered on port %s (%v)%s", strings.Join(app, " "), port, err, quoteStderr(errBuf.Bytes()))
		case <-ctx.Done():
			stop()
			return "", nil, "the run was cancelled before the app answered"
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			stop()
			return "", nil, fmt.Sprintf("the app (%s) did not answer on %s within %s%s", strings.Join(app, " "), base, appStartTimeout, quoteStderr(errBuf.Bytes()))
		}
	}
}

func freePort() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return strconv.Itoa(l.Addr().(*net.TCPAddr).Port), nil
}

// ChromiumFlags are the flags chromium runs with: headless, no sandbox (CI
// runs as root in a container), and nothing that reaches the network on
// its own (no background networking, component updates, sync or QUIC), so
// the only connection it makes is to the app.
var ChromiumFlags = []string{"headless", "no-sandbox", "disable-gpu", "disable-quic", "no-first-run",
	"disable-background-networking", "disable-component-update", "disable-sync", "disable-dev-shm-usage",
	"no-default-browser-check", "disable-extensions", "hide-scrollbars", "mute-audio"}

// capturePages opens each shot's page in one headless chromium with a new
// empty profile and writes its capture, and its recording through ffmpeg
// ("" when there is none) when asked. It returns the browser's version,
// or why the browser could not be used at all.
func capturePages(ctx context.Context, exe, ffmpeg, base string, shots []webShot, out string, emit func(Event)) (string, string) {
	profile, err := os.MkdirTemp("", "aayu-chromium-*")
	if err != nil {
		return "", "no folder for chromium's profile: " + err.Error()
	}
	defer os.RemoveAll(profile)
	opts := []chromedp.ExecAllocatorOption{chromedp.ExecPath(exe), chromedp.UserDataDir(profile),
		chromedp.WindowSize(webViewportW, webViewportH)}
	for _, f := range ChromiumFlags {
		opts = append(opts, chromedp.Flag(f, true))
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	defer cancelAlloc()
	bctx, cancelBrowser := chromedp.NewContext(actx)
	defer cancelBrowser()
	v, err := chromedp.Run(bctx, func(ctx context.Context, t *chromedp.Target) (browser.GetVersionResult, error) {
		return cdp.Call(ctx, t, browser.GetVersion, cdp.Empty{})
	})
	if err != nil {
		return "", "chromium did not start: " + err.Error()
	}
	version := browserVersion(v.Product)
	for i := range shots {
		s := &shots[i]
		s.Failure = capture(bctx, ffmpeg, base, *s, out)
		line := fmt.Sprintf("criterion %d: %s captured", s.ID, s.Page)
		if s.Failure != "" {
			line = fmt.Sprintf("criterion %d: %s", s.ID, s.Failure)
		}
		emit(Output{Step: StepWeb, Line: line})
	}
	return version, ""
}

var chromeVersion = lazyre.New(`(?:HeadlessChrome|Chrome|Chromium)/([0-9][0-9.]{0,30})`)

func browserVersion(ua string) string {
	if m := chromeVersion().FindStringSubmatch(ua); m != nil {
		return m[1]
	}
	return ""
}

// capture opens one page and writes what capturePage writes, and when
// asked, the recording of it from the moment it is opened until it is
// captured; it returns why not, in words, or "".
func capture(ctx context.Context, ffmpeg, base string, s webShot, out string) string {
	tctx, cancel := context.WithTimeout(ctx, pageTimeout)
	defer cancel()
	if !s.Recording {
		return capturePage(tctx, base, s, out)
	}
	if ffmpeg == "" {
		return fmt.Sprintf("ffmpeg is not installed here, so no recording of %s could be made (install Debian's ffmpeg package)", s.Page)
	}
	// The recording starts on an empty tab, never on the page before.
	if err := chromedp.Do(tctx, chromedp.Navigate("about:blank")); err != nil {
		return fmt.Sprintf("the tab could not be emptied before recording %s: %v", s.Page, err)
	}
	sc, err := startScreencast(tctx)
	if err != nil {
		return fmt.Sprintf("chromium's screencast of %s did not start: %v", s.Page, err)
	}
	why := capturePage(tctx, base, s, out)
	frames, end, over := sc.stop(tctx)
	if why != "" {
		return why
	}
	return record(ctx, ffmpeg, s, frames, end, over, out)
}

// capturePage opens one page, checks it loaded and shows the element, and
// writes its capture (and, when asked, its transcript) under out; it
// returns why not, in words, or "".
func capturePage(tctx context.Context, base string, s webShot, out string) string {
	resp, err := chromedp.Run(tctx, chromedp.NavigateResponse(base+s.Page))
	switch {
	case errors.Is(tctx.Err(), context.DeadlineExceeded):
		return fmt.Sprintf("the page %s did not load within %s", s.Page, pageTimeout)
	case err != nil:
		return fmt.Sprintf("the page %s did not load: %v", s.Page, err)
	case resp == nil:
		return fmt.Sprintf("the page %s did not load: no response", s.Page)
	case resp.Status >= 400:
		return fmt.Sprintf("the page %s answered HTTP %d %s", s.Page, resp.Status, clip(resp.StatusText))
	}
	if s.Element != "" {
		// The selector goes in as a JSON string, which JavaScript reads as
		// a string literal, so it cannot become code.
		sel, _ := json.Marshal(s.Element)
		n, err := chromedp.Run(tctx, chromedp.Evaluate[int]("document.querySelectorAll("+string(sel)+").length"))
		if err != nil {
			return fmt.Sprintf("the element %q could not be looked for on %s (not a CSS selector?): %v", clip(s.Element), s.Page, err)
		}
		if n == 0 {
			return fmt.Sprintf("the page %s has no element matching %q", s.Page, clip(s.Element))
		}
	}
	png, err := chromedp.Run(tctx, chromedp.CaptureScreenshot())
	if err != nil {
		return fmt.Sprintf("the page %s could not be captured: %v", s.Page, err)
	}
	if _, _, err := proof.CheckScreenshot(png); err != nil {
		return fmt.Sprintf("the page %s loaded, but %v", s.Page, err)
	}
	if err := os.WriteFile(filepath.Join(out, filepath.FromSlash(proof.ScreenPath(s.ID))), png, 0o644); err != nil {
		return fmt.Sprintf("the capture of %s could not be written: %v", s.Page, err)
	}
	if !s.Transcript {
		return ""
	}
	tree, err := chromedp.Run(tctx, func(ctx context.Context, t *chromedp.Target) (accessibility.GetFullAXTreeResult, error) {
		return cdp.Call(ctx, t, accessibility.GetFullAXTree, accessibility.GetFullAXTreeParams{})
	})
	if err != nil {
		return fmt.Sprintf("the accessibility tree of %s could not be read: %v", s.Page, err)
	}
	text := transcript(tree.Nodes)
	if _, err := proof.CheckTranscript(text); err != nil {
		return fmt.Sprintf("the page %s loaded, but %v", s.Page, err)
	}
	if err := os.WriteFile(filepath.Join(out, filepath.FromSlash(proof.TranscriptPath(s.ID))), text, 0o644); err != nil {
		return fmt.Sprintf("the transcript of %s could not be written: %v", s.Page, err)
	}
	return ""
}

// transcript is what a screen reader would read of a page, from its
// accessibility tree in document order: one "role: name" line for each
// node it does not ignore that has a name, the text boxes inside text
// left out (their text is the text's own name).
func transcript(nodes []*accessibility.Node) []byte {
	var b strings.Builder
	for _, n := range nodes {
		if n == nil || n.Ignored {
			continue
		}
		role, name := axString(n.Role), strings.Join(strings.Fields(axString(n.Name)), " ")
		if role == "" || name == "" || role == "InlineTextBox" {
			continue
		}
		name = strings.Map(func(r rune) rune {
			if unicode.IsControl(r) {
				return -1
			}
			return r
		}, name)
		fmt.Fprintf(&b, "%s: %s\n", role, name)
	}
	return []byte(b.String())
}

// axString is an accessibility value as text; "" when it is not a string.
func axString(v *accessibility.Value) string {
	if v == nil || len(v.Value) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(v.Value, &s) != nil {
		return ""
	}
	return s
}

func clip(s string) string {
	if len(s) > 120 {
		return s[:120] + "…"
	}
	return s
}

// webRun is the web floor's run: here, writing its captures to tmp, or as
// the tests job recorded it in the raw outputs.
func (r *runner) webRun(ctx context.Context, tmp string) (*webRun, string) {
	if r.raw == nil {
		return r.t.runWeb(ctx, r.req.Dir, r.set.app, r.evidenceMap, tmp, r.emit), tmp
	}
	if r.raw.m.Web == nil {
		return &webRun{Failure: "the tests job recorded no web floor run, so no page was captured"}, r.raw.dir
	}
	return r.raw.m.Web, r.raw.dir
}

// webArtifact is one capture the pack keeps: criterion ID's screenshot or
// transcript.
type webArtifact struct {
	ID         int
	Path, Kind string
	Bytes      []byte
}

// judgeWeb turns a web run into the web floor's check and the pack's
// captures. The pages are the evidence map's (crits), never the run's
// word: a page the run does not speak of fails. Each capture is judged
// again from its bytes in dir (this run's folder, or the tests job's raw
// outputs): a screenshot that is missing, not a PNG or one flat colour,
// or a transcript that reads nothing, fails the floor, whatever the run
// said.
func judgeWeb(crits []proof.MappedCriterion, run *webRun, dir string) (proof.Check, []webArtifact) {
	c := proof.Check{Floor: StepWeb, Tool: "chromium (headless, chromedp)", Version: run.Browser, Network: proof.NetworkNotIsolated}
	if run.Failure != "" {
		zero := 0.0
		c.Result, c.Detail, c.Value = proof.ResultFail, run.Failure, &zero
		return c, nil
	}
	said := map[int]webShot{}
	for _, s := range run.Shots {
		said[s.ID] = s
	}
	var arts []webArtifact
	var words []string
	captured := 0
	for _, mc := range crits {
		what := mc.Screenshot
		if mc.Element != "" {
			what += " showing " + strconv.Quote(mc.Element)
		}
		s, ok := said[mc.ID]
		why := s.Failure
		if !ok || s.Page != mc.Screenshot || s.Element != mc.Element || s.Transcript != mc.Transcript || s.Recording != mc.Recording {
			why = "the run did not capture " + what
		}
		var got []webArtifact
		if why == "" {
			got, what, why = readCaptures(mc, dir, what)
		}
		if why != "" {
			words = append(words, fmt.Sprintf("criterion %d: %s", mc.ID, why))
			continue
		}
		captured++
		arts = append(arts, got...)
		words = append(words, fmt.Sprintf("criterion %d: %s", mc.ID, what))
	}
	n := float64(captured)
	c.Value = &n
	c.Result = proof.ResultPass
	if captured < len(crits) {
		c.Result = proof.ResultFail
	}
	c.Detail = fmt.Sprintf("%d of %d %s captured; %s", captured, len(crits), plural(len(crits), "page", "pages"), strings.Join(words, "; "))
	return c, arts
}

// readCaptures reads and judges one criterion's screenshot and, when the
// map asks, its transcript and recording; it returns them, what they
// show, or why not.
func readCaptures(mc proof.MappedCriterion, dir, what string) ([]webArtifact, string, string) {
	shot := proof.ScreenPath(mc.ID)
	b, err := proof.ReadFileCapped(filepath.Join(dir, filepath.FromSlash(shot)), proof.MaxScreenshotBytes)
	var w, h int
	if err == nil {
		w, h, err = proof.CheckScreenshot(b)
	}
	if err != nil {
		return nil, "", fmt.Sprintf("the capture of %s cannot be used: %v", mc.Screenshot, err)
	}
	arts := []webArtifact{{ID: mc.ID, Path: shot, Kind: proof.KindScreenshot, Bytes: b}}
	what = fmt.Sprintf("%s, %d×%d", what, w, h)
	if mc.Recording {
		rec, why := readRecording(mc, dir)
		if why != "" {
			return nil, "", why
		}
		arts = append(arts, rec)
		what = fmt.Sprintf("%s, recording of %d bytes", what, len(rec.Bytes))
	}
	if !mc.Transcript {
		return arts, what, ""
	}
	tr := proof.TranscriptPath(mc.ID)
	t, err := proof.ReadFileCapped(filepath.Join(dir, filepath.FromSlash(tr)), proof.MaxTranscriptBytes)
	lines := 0
	if err == nil {
		lines, err = proof.CheckTranscript(t)
	}
	if err != nil {
		return nil, "", fmt.Sprintf("the screen-reader transcript of %s cannot be used: %v", mc.Screenshot, err)
	}
	arts = append(arts, webArtifact{ID: mc.ID, Path: tr, Kind: proof.KindSRTranscript, Bytes: t})
	return arts, fmt.Sprintf("%s, transcript of %d %s", what, lines, plural(lines, "line", "lines")), ""
}

// rawWeb is the tests job's web floor run: the evidence map is the
// checkout's (as red on base reads it), the app's command the base
// commit's [verify] app, never the pull request's. Nil when the map names
// no screenshot.
func (t Tools) rawWeb(ctx context.Context, req RawRequest, head string, emit func(Event)) *webRun {
	raw, err := proof.ReadFileCapped(filepath.Join(req.Dir, ".aayudha", "evidence", strconv.Itoa(req.Story)+".toml"), proof.MaxEvidenceMapBytes)
	if err != nil {
		return nil
	}
	em, err := proof.LoadEvidenceMap(raw)
	if err != nil || len(em.Screenshots()) == 0 {
		return nil
	}
	emit(StepStarted{Step: StepWeb, What: "each screenshot criterion's page in headless chromium, raw"})
	defer emit(StepEnded{Step: StepWeb, Result: proof.ResultPass, Detail: "recorded, judged when the pack is assembled"})
	app, why := t.baseApp(ctx, req.Dir, req.BaseBranch, head)
	if why != "" {
		return &webRun{Failure: why}
	}
	return t.runWeb(ctx, req.Dir, app, em, req.Out, emit)
}

// baseApp reads [verify] app from the base commit's .aayudha/config.toml.
func (t Tools) baseApp(ctx context.Context, dir, branch, head string) ([]string, string) {
	baseRef, err := t.baseRef(ctx, dir, branch)
	if err != nil {
		return nil, "the base branch's [verify] app cannot be read: " + err.Error()
	}
	base, err := t.git(ctx, dir, "merge-base", baseRef, head)
	if err != nil {
		return nil, "the base branch's [verify] app cannot be read: " + err.Error()
	}
	b, _ := t.git(ctx, dir, "show", strings.TrimSpace(string(base))+":.aayudha/config.toml")
	cfg, err := config.Load(config.Sources{Repo: b, RepoName: "the base branch's .aayudha/config.toml"})
	if err != nil {
		return nil, "the base branch's configuration cannot be used: " + err.Error()
	}
	return cfg.Strings("verify.app"), ""
}
