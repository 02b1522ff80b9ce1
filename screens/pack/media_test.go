package pack

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"

	"github.com/aayudha/aayu/internal/syncbuf"
	"github.com/aayudha/aayu/proof"
	"github.com/aayudha/aayu/tui"
	"github.com/aayudha/aayu/tui/tuitest"
)

// mediaPack is the demo pack with media beside its data (testdata/media,
// written by testdata/gen_media.go): screens/1.png, recordings/1.webm and
// sr/1.txt with their bytes, screens/2.png in the media bucket, not
// fetched.
func mediaPack() Options {
	o := demo("pack")
	o.Dir = filepath.Join("testdata", "media")
	return o
}

// mediaCopy is mediaPack in a folder of the test's own, to tamper with.
func mediaCopy(t *testing.T) Options {
	t.Helper()
	o := mediaPack()
	dir := t.TempDir()
	copyDir(t, o.Dir, dir)
	o.Dir = dir
	return o
}

// The rows of the media pack's artifacts list.
const (
	rowScreenshot = 5 // screens/1.png
	rowRecording  = 6 // recordings/1.webm
	rowBucket     = 8 // screens/2.png, in the bucket
)

// press sends a key and runs what it starts until it settles, as the
// program would; it returns every raw sequence the screen wrote to the
// terminal.
func press(m *Model, k tea.Msg) []string {
	_, cmd := m.Update(k)
	return settle(m, cmd)
}

func settle(m *Model, cmd tea.Cmd) []string {
	var raw []string
	if cmd == nil {
		return nil
	}
	switch msg := cmd().(type) {
	case nil:
	case tea.BatchMsg:
		for _, c := range msg {
			raw = append(raw, settle(m, c)...)
		}
	case tea.RawMsg:
		raw = append(raw, fmt.Sprint(msg.Msg))
	default:
		_, next := m.Update(msg)
		raw = append(raw, settle(m, next)...)
	}
	return raw
}

// onRow opens the artifacts section with the cursor on row i.
func onRow(m *Model, i int) {
	m.Update(tuitest.Key("2"))
	for range i {
		m.Update(tuitest.Key("down"))
	}
}

// answered is a screen whose terminal answered the graphics check with g.
func answered(t *testing.T, opts Options, g graphics) *Model {
	t.Helper()
	m := verified(t, tuitest.Common(80, 24), opts)
	m.media.asked = true
	m.media.probe = graphicsProbe{done: true, result: g}
	return m
}

// opener records what o handed to the system viewer: the bytes of each
// file, read when it was handed over.
type opener struct{ opened [][]byte }

func (o *opener) open(file string) error {
	b, err := os.ReadFile(file)
	o.opened = append(o.opened, b)
	return err
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func TestPackMediaGolden(t *testing.T) {
	for _, w := range []int{40, 80, 120} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			m := verified(t, tuitest.Common(w, 24), mediaPack())
			onRow(m, rowScreenshot)
			tuitest.GoldenView(t, m.View().Content, w, 24)
		})
	}
}

// TestPackMediaViewerGolden: enter on a screenshot in a terminal that
// answered no to the graphics check says so, and that o opens it.
func TestPackMediaViewerGolden(t *testing.T) {
	for _, w := range []int{40, 80, 120} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			m := verified(t, tuitest.Common(w, 24), mediaPack())
			m.media.asked, m.media.probe = true, graphicsProbe{done: true}
			onRow(m, rowScreenshot)
			if raw := press(m, tuitest.Key("enter")); len(raw) != 0 {
				t.Fatalf("a terminal that answered no was sent %q", raw)
			}
			tuitest.GoldenView(t, m.View().Content, w, 24)
		})
	}
}

func TestPackMediaPlainGolden(t *testing.T) {
	var out bytes.Buffer
	m := New(context.Background(), tui.Common{Plain: true}, mediaPack())
	code, err := tui.Run(context.Background(), m, tui.RunOptions{Plain: true, Out: &out})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"media screens/1.png: screenshot, 142 B, hash checked; file " + filepath.Join("testdata", "media", "artifacts", "screens", "1.png"),
		"media recordings/1.webm: recording, 36 B, hash checked; file ",
		"media sr/1.txt: sr-transcript, 55 B, hash checked; file ",
		"media screens/2.png: screenshot, 103 B, hash not checked, in the media bucket, not fetched; in the media bucket as object aayudha/131/screens/2.png",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("plain mode does not say %q:\n%s", want, out.String())
		}
	}
	// Plain mode never asks the terminal anything: no graphics query.
	if strings.Contains(out.String(), "\x1b") {
		t.Errorf("plain output holds an escape sequence: %q", out.String())
	}
	tuitest.GoldenPlain(t, out.String(), code)
}

// TestGraphicsCheck: the terminal's answers, as bytes through the same
// decoder Bubble Tea reads them with, decide the protocol; anything but
// the documented answers is no.
func TestGraphicsCheck(t *testing.T) {
	const (
		kittyOK  = "\x1b_Gi=31;OK\x1b\\"
		kittyErr = "\x1b_Gi=31;ENOTSUPPORTED:unsupported format\x1b\\"
		da1      = "\x1b[?62;22c"
		da1Sixel = "\x1b[?62;4;22c"
	)
	cases := []struct {
		name    string
		reply   string
		timeout bool // the timer fires after the reply
		want    graphics
	}{
		{"kitty OK before the device attributes", kittyOK + da1, false, gfxKitty},
		{"kitty OK and sixel: kitty", kittyOK + da1Sixel, false, gfxKitty},
		{"kitty error", kittyErr + da1, false, gfxNone},
		{"kitty error, sixel in the device attributes", kittyErr + da1Sixel, false, gfxSixel},
		{"sixel in the device attributes", da1Sixel, false, gfxSixel},
		{"only the device attributes", "\x1b[?1;2c", false, gfxNone},
		{"nothing: the timeout is no", "", true, gfxNone},
		{"kitty OK but no device attributes: no", kittyOK, true, gfxNone},
		{"kitty OK after the device attributes: too late", da1 + kittyOK, false, gfxNone},
		{"OK for another image id", "\x1b_Gi=7;OK\x1b\\" + da1, false, gfxNone},
		{"garbage", "\x1b[?6;4\x00zz\x1b_Gi=31;O\x1b]\x07", true, gfxNone},
		{"a key pressed meanwhile", "q" + kittyOK + da1, false, gfxKitty},
		{"kitty OK, the cell size, the device attributes", kittyOK + "\x1b[6;20;10t" + da1, false, gfxKitty},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var p graphicsProbe
			var d uv.EventDecoder
			buf := []byte(c.reply)
			for len(buf) > 0 {
				n, ev := d.Decode(buf)
				if n <= 0 {
					break
				}
				buf = buf[n:]
				if multi, ok := ev.(uv.MultiEvent); ok {
					for _, e := range multi {
						p.observe(e)
					}
					continue
				}
				p.observe(ev)
			}
			if c.timeout {
				p.observe(probeTimeoutMsg{})
			}
			if !p.done || p.result != c.want {
				t.Errorf("done=%v result=%v, want done with %v", p.done, p.result, c.want)
			}
			// The cell size the image is fitted to: the terminal's when
			// it said it, else the fallback for the protocol.
			want := [2]int{8, 16}
			switch {
			case strings.Contains(c.reply, "\x1b[6;20;10t"):
				want = [2]int{10, 20}
			case c.want == gfxSixel:
				want = [2]int{6, 12}
			}
			if w, h := p.cell(); w != want[0] || h != want[1] {
				t.Errorf("cell %d×%d, want %d×%d", w, h, want[0], want[1])
			}
		})
	}
}

// TestGraphicsQueryOnlyAtAFullScreen: the query goes out once, at a full
// screen showing a PNG that verified; never in plain mode or CI, never for
// a pack with no image to draw.
func TestGraphicsQueryOnlyAtAFullScreen(t *testing.T) {
	full := verified(t, tuitest.Common(80, 24), mediaPack())
	full.media.asked = false
	raw := settleOne(full.startProbe())
	if len(raw) != 1 || raw[0] != graphicsQuery {
		t.Fatalf("the full screen sent %q, want the graphics query", raw)
	}
	if full.startProbe() != nil {
		t.Error("the query was sent twice")
	}
	for name, c := range map[string]tui.Common{"plain": {Width: 80, Height: 24, Plain: true}, "ci": {Width: 80, Height: 24, CI: true}} {
		m := verified(t, c, mediaPack())
		if m.media.asked || m.startProbe() != nil {
			t.Errorf("%s mode asked the terminal", name)
		}
	}
	if m := verified(t, tuitest.Common(80, 24), demo("pack")); m.media.asked {
		t.Error("a pack with no image to draw asked the terminal")
	}
}

// settleOne runs a batch's commands that do not wait (the timer is left),
// returning the raw sequences.
func settleOne(cmd tea.Cmd) []string {
	var raw []string
	if b, ok := cmd().(tea.BatchMsg); ok {
		for _, c := range b {
			if c == nil {
				continue
			}
			if r, ok := c().(tea.RawMsg); ok {
				raw = append(raw, fmt.Sprint(r.Msg))
			}
			break // the second is the timeout's tick
		}
	}
	return raw
}

// TestPackMediaDrawsByKitty: the image sent is exactly the pack's bytes,
// as base64 PNG chunks, and leaving the viewer deletes it.
func TestPackMediaDrawsByKitty(t *testing.T) {
	opts := mediaPack()
	m := answered(t, opts, gfxKitty)
	onRow(m, rowScreenshot)
	raw := press(m, tuitest.Key("enter"))
	if len(raw) != 1 || !strings.HasPrefix(raw[0], "\x1b7\x1b[3;1H\x1b_Ga=T,f=100,t=d,i=3131,") || !strings.HasSuffix(raw[0], "\x1b8") {
		t.Fatalf("enter did not draw the image by kitty at row 3: %q", raw)
	}
	var payload strings.Builder
	for _, chunk := range strings.Split(raw[0], "\x1b_G")[1:] {
		payload.WriteString(strings.TrimSuffix(chunk[strings.Index(chunk, ";")+1:], "\x1b\\\x1b8"))
	}
	got, err := base64.StdEncoding.DecodeString(strings.ReplaceAll(payload.String(), "\x1b\\", ""))
	want, _ := os.ReadFile(filepath.Join(opts.Dir, "artifacts", "screens", "1.png"))
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("the image sent is not the pack's bytes (%v)", err)
	}
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "drawn by the kitty graphics protocol") {
		t.Errorf("the viewer does not say how it drew the image:\n%s", v)
	}
	if raw := press(m, tuitest.Key("esc")); len(raw) != 1 || raw[0] != kittyDelete(kittyImageID) {
		t.Errorf("leaving the viewer sent %q, want the image deleted", raw)
	}
}

// TestPackMediaDrawsBySixel: a terminal that lists sixel gets a sixel
// image at row 3.
func TestPackMediaDrawsBySixel(t *testing.T) {
	m := answered(t, mediaPack(), gfxSixel)
	onRow(m, rowScreenshot)
	raw := press(m, tuitest.Key("enter"))
	if len(raw) != 1 || !strings.HasPrefix(raw[0], "\x1b7\x1b[3;1H\x1bP0;1;0q\"1;1;48;24#") {
		t.Fatalf("enter did not draw the 48×24 image by sixel at row 3: %q", raw)
	}
}

// TestPackMediaTamperedIsNeverShown: bytes that no longer match the pack
// (changed after verification, or before it) are never drawn, never
// handed to the system viewer; the refusal is in words.
func TestPackMediaTamperedIsNeverShown(t *testing.T) {
	for _, when := range []string{"after verification", "before verification"} {
		t.Run(when, func(t *testing.T) {
			opts := mediaCopy(t)
			shot := filepath.Join(opts.Dir, "artifacts", "screens", "1.png")
			tamper := func() {
				b, err := os.ReadFile(shot)
				if err != nil {
					t.Fatal(err)
				}
				b[len(b)/2] ^= 0x01
				if err := os.WriteFile(shot, b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if when == "before verification" {
				tamper()
			}
			m := answered(t, opts, gfxKitty)
			if when == "after verification" {
				tamper()
			}
			o := &opener{}
			m.media.opener = o.open
			onRow(m, rowScreenshot)
			for _, k := range []string{"enter", "o"} {
				if raw := press(m, tuitest.Key(k)); len(raw) != 0 {
					t.Fatalf("%s sent %d sequences to the terminal for tampered bytes", k, len(raw))
				}
			}
			if len(o.opened) != 0 {
				t.Fatal("tampered bytes were handed to the system viewer")
			}
			v := ansi.Strip(m.View().Content)
			flat := strings.Join(strings.Fields(v), " ")
			for _, want := range []string{"not shown: screens/1.png does not match the sha256 and size pack.json records for it", "neither shows nor opens it", "not opened: screens/1.png does not match"} {
				if !strings.Contains(flat, want) {
					t.Errorf("the viewer does not say %q:\n%s", want, v)
				}
			}
		})
	}
}

// TestPackMediaOpensACheckedCopy: o hands the system viewer a private copy
// whose bytes are the pack's, and the copy goes when the screen closes.
func TestPackMediaOpensACheckedCopy(t *testing.T) {
	opts := mediaPack()
	m := verified(t, tuitest.Common(80, 24), opts)
	o := &opener{}
	m.media.opener = o.open
	onRow(m, rowRecording)
	press(m, tuitest.Key("o"))
	want, _ := os.ReadFile(filepath.Join(opts.Dir, "artifacts", "recordings", "1.webm"))
	if len(o.opened) != 1 || sha(o.opened[0]) != sha(want) {
		t.Fatalf("o did not hand over the pack's bytes (%d opened)", len(o.opened))
	}
	if v := ansi.Strip(m.View().Content); !strings.Contains(strings.Join(strings.Fields(v), " "), "opened recordings/1.webm (sha256 checked)") {
		t.Errorf("the screen does not say what was opened:\n%s", v)
	}
	if len(m.media.copies) != 1 {
		t.Fatalf("copies: %v", m.media.copies)
	}
	copies := m.media.copies[0]
	if fi, err := os.Stat(copies); err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("the copy's folder is not private: %v %v", fi, err)
	}
	m.Close()
	if _, err := os.Stat(copies); !os.IsNotExist(err) {
		t.Errorf("the copy outlived the screen: %v", err)
	}
}

// TestPackMediaInTheBucketSaysNotFetched: o and enter on a screenshot kept
// in the media bucket say it was not fetched, and open nothing.
func TestPackMediaInTheBucketSaysNotFetched(t *testing.T) {
	m := answered(t, mediaPack(), gfxKitty)
	o := &opener{}
	m.media.opener = o.open
	onRow(m, rowBucket)
	press(m, tuitest.Key("o"))
	if raw := press(m, tuitest.Key("enter")); len(raw) != 0 || len(o.opened) != 0 {
		t.Fatalf("a bucket object that was not fetched was shown or opened")
	}
	flat := strings.Join(strings.Fields(ansi.Strip(m.View().Content)), " ")
	if !strings.Contains(flat, "screens/2.png is in the media bucket, not fetched") {
		t.Errorf("the viewer does not say the object was not fetched:\n%s", flat)
	}
}

// TestPackMediaNamesAreNeutralised: a media path or kind holding control
// sequences reaches the screen and the plain lines neutralised.
func TestPackMediaNamesAreNeutralised(t *testing.T) {
	inFolder := artifactResult("screens/\x1b]52;c;ZXZpbA==\x07x.png", "screenshot\x1b[2J")
	inBucket := artifactResult("screens/2.png", "screenshot")
	inBucket.Artifact.Store, inBucket.Artifact.Object = proof.StoreBucket, "key\x1b]0;pwned\x07\u202e"
	inBucket.Verdict, inBucket.Reason = proof.VerdictUnchecked, "in the media bucket, not fetched\x1b[2J"
	for _, r := range []proof.ArtifactResult{inFolder, inBucket} {
		line := mediaLine(r, "dir\x1b[31m") + mediaDetail(r)
		if strings.ContainsAny(line, "\x1b\x07\u202e") {
			t.Errorf("a control character reached the line: %q", line)
		}
	}
}

func TestSixelEncoding(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 2, 6))
	for y := range 6 {
		img.Set(0, y, color.RGBA{255, 0, 0, 255})
		img.Set(1, y, color.RGBA{0, 0, 255, 255})
	}
	want := "\x1bP0;1;0q\"1;1;2;6#5;2;0;0;100#180;2;100;0;0#5?~$#180~?$-\x1b\\"
	if got := sixelImage(img, 100, 100); got != want {
		t.Errorf("sixel:\n got %q\nwant %q", got, want)
	}
	wide := image.NewRGBA(image.Rect(0, 0, 8, 1))
	for x := range 8 {
		wide.Set(x, 0, color.RGBA{0, 0, 255, 255})
	}
	if got := sixelImage(wide, 100, 100); !strings.Contains(got, "#5!8@$") {
		t.Errorf("a run of eight was not written as one: %q", got)
	}
	if got := sixelImage(image.NewRGBA(image.Rect(0, 0, 400, 100)), 40, 40); !strings.Contains(got, "\"1;1;40;10") {
		t.Errorf("a 400×100 image in 40×40 is not 40×10: %q", got[:40])
	}
}

func artifactResult(p, kind string) proof.ArtifactResult {
	return proof.ArtifactResult{Artifact: proof.Artifact{Path: p, Kind: kind, Size: 3, Store: proof.StoreNone}, Verdict: proof.VerdictVerified}
}

// TestPackMediaTranscriptReadsAsText: enter on a screen-reader transcript
// shows its words, its bytes checked.
func TestPackMediaTranscriptReadsAsText(t *testing.T) {
	m := verified(t, tuitest.Common(80, 24), mediaPack())
	onRow(m, rowRecording+1)
	press(m, tuitest.Key("enter"))
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "Dental deductible: 50 dollars") {
		t.Errorf("the transcript is not shown as text:\n%s", v)
	}
}

// TestPackMediaKittyThroughTheProgram: a whole Bubble Tea program whose
// terminal answers the graphics query with bytes, as kitty does, draws
// the screenshot by the kitty protocol: the answer reaches the screen
// through Bubble Tea's own input decoder.
func TestPackMediaKittyThroughTheProgram(t *testing.T) {
	in, feed := io.Pipe()
	out := &syncbuf.Buffer{}
	m := New(context.Background(), tuitest.Common(80, 24), mediaPack())
	p := tea.NewProgram(m, tea.WithInput(in), tea.WithOutput(out), tea.WithWindowSize(80, 24))
	done := make(chan error, 1)
	go func() { _, err := p.Run(); done <- err }()
	waitOut := func(want string) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for !strings.Contains(out.String(), want) {
			if time.Now().After(deadline) {
				p.Kill()
				t.Fatalf("the program never wrote %q", want)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	waitOut(graphicsQuery)
	_, _ = io.WriteString(feed, "\x1b_Gi=31;OK\x1b\\\x1b[?62;4;22c")
	waitOut("floors hold")
	_, _ = io.WriteString(feed, "2"+strings.Repeat("\x1b[B", rowScreenshot))
	time.Sleep(100 * time.Millisecond)
	_, _ = io.WriteString(feed, "\r")
	waitOut("\x1b_Ga=T,f=100,t=d,i=3131,")
	_, _ = io.WriteString(feed, "qq")
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// TestKittyImageChunks: a PNG larger than one chunk goes as base64 chunks
// of 4096, m=1 on all but the last, each quiet (q=2), the keys only on the
// first, and reassembles to the same bytes.
func TestKittyImageChunks(t *testing.T) {
	data := bytes.Repeat([]byte{0x89, 'P', 'N', 'G', 7}, 2000) // 10,000 bytes
	seq := kittyImage(data, 3131, 40, 10)
	chunks := strings.Split(strings.TrimSuffix(seq, "\x1b\\"), "\x1b\\")
	if len(chunks) != 4 {
		t.Fatalf("%d chunks, want 4", len(chunks))
	}
	var payload strings.Builder
	for i, c := range chunks {
		ctl, data, _ := strings.Cut(strings.TrimPrefix(c, "\x1b_G"), ";")
		want := "q=2,m=1"
		if i == 0 {
			want = "a=T,f=100,t=d,i=3131,c=40,r=10,C=1,q=2,m=1"
		} else if i == len(chunks)-1 {
			want = "q=2,m=0"
		}
		if ctl != want || len(data) > 4096 {
			t.Errorf("chunk %d: %q (%d bytes of data), want %q", i, ctl, len(data), want)
		}
		payload.WriteString(data)
	}
	if got, err := base64.StdEncoding.DecodeString(payload.String()); err != nil || !bytes.Equal(got, data) {
		t.Errorf("the chunks do not reassemble to the PNG (%v)", err)
	}
}

// TestPackMediaQuitDeletesTheImage: quitting with a kitty image on the
// screen deletes it first.
func TestPackMediaQuitDeletesTheImage(t *testing.T) {
	m := answered(t, mediaPack(), gfxKitty)
	onRow(m, rowScreenshot)
	press(m, tuitest.Key("enter"))
	_, cmd := m.Update(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	if cmd == nil {
		t.Fatal("ctrl+c did nothing")
	}
	// tea.Sequence's message is its commands, in order.
	seq := reflect.ValueOf(cmd())
	if seq.Kind() != reflect.Slice || seq.Len() != 2 {
		t.Fatalf("ctrl+c gave %T, want a sequence of the delete, then quit", cmd())
	}
	first := seq.Index(0).Interface().(tea.Cmd)()
	if r, ok := first.(tea.RawMsg); !ok || r.Msg != kittyDelete(kittyImageID) {
		t.Errorf("quitting did not first delete the kitty image: %#v", first)
	}
	if _, ok := seq.Index(1).Interface().(tea.Cmd)().(tea.QuitMsg); !ok {
		t.Error("the sequence does not end in quit")
	}
}

// TestSixelRoundTrip: the screenshot encoded as sixel and read back by a
// plain sixel reader gives, pixel by pixel, its colours on the palette.
func TestSixelRoundTrip(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "media", "artifacts", "screens", "1.png"))
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	seq := sixelImage(img, 1000, 1000)
	body := strings.TrimSuffix(seq[strings.Index(seq, "q")+1:], "\x1b\\")
	w, h := img.Bounds().Dx(), img.Bounds().Dy()
	got := readSixel(t, body, w, h)
	for y := range h {
		for x := range w {
			r, g, b, _ := img.At(x, y).RGBA()
			if want := cube(r)*36 + cube(g)*6 + cube(b); got[y*w+x] != want {
				t.Fatalf("pixel %d,%d reads back as colour %d, want %d", x, y, got[y*w+x], want)
			}
		}
	}
}

// readSixel reads sixel data (raster, colours, bands) into each pixel's
// colour number, -1 where nothing was drawn.
func readSixel(t *testing.T, s string, w, h int) []int {
	t.Helper()
	px := make([]int, w*h)
	for i := range px {
		px[i] = -1
	}
	num := func(i int) (int, int) {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			n = n*10 + int(s[i]-'0')
			i++
		}
		return n, i
	}
	x, top, colour := 0, 0, 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '"':
			for i++; i < len(s) && (s[i] == ';' || s[i] >= '0' && s[i] <= '9'); i++ {
			}
		case c == '#':
			n, j := num(i + 1)
			if j < len(s) && s[j] == ';' { // a colour's definition
				for j++; j < len(s) && (s[j] == ';' || s[j] >= '0' && s[j] <= '9'); j++ {
				}
			}
			colour, i = n, j
		case c == '$':
			x, i = 0, i+1
		case c == '-':
			x, top, i = 0, top+6, i+1
		case c == '!' || (c >= 63 && c <= 126):
			n := 1
			if c == '!' {
				n, i = num(i + 1)
				c = s[i]
			}
			for range n {
				for k := range 6 {
					if (c-63)&(1<<k) != 0 && top+k < h && x < w {
						px[(top+k)*w+x] = colour
					}
				}
				x++
			}
			i++
		default:
			t.Fatalf("unexpected %q at %d", c, i)
		}
	}
	return px
}
