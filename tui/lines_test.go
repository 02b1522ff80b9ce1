package tui

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"
)

// TestPlainInputIsOneStreamAcrossScreens: screens run one after another on
// one LineReader; every typed line reaches exactly one screen, in order,
// whether it was typed before the first screen started, while one screen
// waited, or just as one screen finished.
func TestPlainInputIsOneStreamAcrossScreens(t *testing.T) {
	pr, pw := io.Pipe()
	lines := NewLineReader(pr)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	go func() {
		// Everything at once: the first screen's "q" and the lines meant for
		// the next screens arrive together, as when a person types ahead.
		_, _ = io.WriteString(pw, "1\nq\n2\nq\n")
		time.Sleep(50 * time.Millisecond)
		_, _ = io.WriteString(pw, "3\nq\n")
		_ = pw.Close()
	}()
	var got []string
	for range 3 {
		var out bytes.Buffer
		code, err := Run(ctx, fakeScreen{code: ExitOK}, RunOptions{Plain: true, Lines: lines, Out: &out})
		if err != nil || code != ExitOK {
			t.Fatalf("exit %d, %v", code, err)
		}
		got = append(got, strings.TrimSpace(out.String()))
	}
	want := []string{"size 80x24\nline 1\nline q", "size 80x24\nline 2\nline q", "size 80x24\nline 3\nline q"}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("screen %d saw:\n%s\nwant:\n%s", i+1, got[i], want[i])
		}
	}
	// After the input ended, the next screen hears so at once.
	var out bytes.Buffer
	if _, err := Run(ctx, fakeScreen{quitOnClose: true}, RunOptions{Plain: true, Lines: lines, Out: &out}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "input closed") {
		t.Errorf("a screen after the end of input was not told:\n%s", out.String())
	}
}
