package pack

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/aayudha/aayu/tui/tuitest"
)

// TestPackMediaRecordingGolden: enter on the web floor's recording,
// recordings/1.webm, shows its kind and size and that o opens it (a
// terminal draws no video inline).
func TestPackMediaRecordingGolden(t *testing.T) {
	for _, w := range []int{40, 80, 120} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			m := verified(t, tuitest.Common(w, 24), mediaPack())
			m.media.asked, m.media.probe = true, graphicsProbe{done: true, result: gfxKitty}
			onRow(m, rowRecording)
			if raw := press(m, tuitest.Key("enter")); len(raw) != 0 {
				t.Fatalf("a recording was sent to the terminal as %d sequences", len(raw))
			}
			flat := strings.Join(strings.Fields(ansi.Strip(m.View().Content)), " ")
			if !strings.Contains(flat, "recordings/1.webm") {
				t.Errorf("the viewer does not name the recording:\n%s", flat)
			}
			tuitest.GoldenView(t, m.View().Content, w, 24)
		})
	}
}

// TestPackMediaTamperedRecordingIsNeverOpened: a recording whose bytes
// changed after verification is not handed to the system viewer, and the
// screen says why.
func TestPackMediaTamperedRecordingIsNeverOpened(t *testing.T) {
	opts := mediaCopy(t)
	m := answered(t, opts, gfxKitty)
	rec := filepath.Join(opts.Dir, "artifacts", "recordings", "1.webm")
	b, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)-2] ^= 0x01
	if err := os.WriteFile(rec, b, 0o644); err != nil {
		t.Fatal(err)
	}
	o := &opener{}
	m.media.opener = o.open
	onRow(m, rowRecording)
	press(m, tuitest.Key("o"))
	if len(o.opened) != 0 {
		t.Fatal("a tampered recording was handed to the system viewer")
	}
	flat := strings.Join(strings.Fields(ansi.Strip(m.View().Content)), " ")
	if !strings.Contains(flat, "not opened: recordings/1.webm does not match the sha256 and size pack.json records for it") {
		t.Errorf("the viewer does not say why the recording was not opened:\n%s", flat)
	}
}
