package tui

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// goldenRoots are where the screens' and the shell's golden files live.
// Every golden is captured with colour stripped (ansi.Strip or the ASCII
// profile), so none may hold a byte a terminal would obey.
var goldenRoots = []string{"testdata", "../screens"}

// TestGoldensHoldNoTerminalControls: no golden view, full-screen or plain,
// holds ESC, BEL, another C0 control, DEL, a C1 control (U+0080–U+009F), a
// bidi control (U+202A–U+202E, U+2066–U+2069) or any other format
// character such as a zero-width space. The demo's hostile item carries
// each of them, so a view that shows it unsanitised fails here, whatever
// its golden says.
func TestGoldensHoldNoTerminalControls(t *testing.T) {
	files, hostile := 0, 0
	for _, root := range goldenRoots {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".golden") {
				return err
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			files++
			if strings.Contains(string(data), "^[]52;") {
				hostile++
			}
			if at, r, bad := firstControl(string(data)); bad {
				t.Errorf("%s holds %U at byte %d: a terminal would obey it", path, r, at)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if files < 50 {
		t.Fatalf("only %d golden files found under %v; the scan is not reading the goldens", files, goldenRoots)
	}
	// The hostile item's OSC 52 write shown in caret notation proves the
	// goldens carry it at all.
	if hostile < 10 {
		t.Fatalf("only %d goldens show the hostile item's neutralised OSC 52 write", hostile)
	}
	t.Logf("%d goldens scanned, %d show the hostile item", files, hostile)
}

// firstControl finds the first rune of s that is not printable text, a
// space, "\n" or "\t", or a byte that is not UTF-8.
func firstControl(s string) (int, rune, bool) {
	for i, r := range s {
		switch {
		case r == utf8.RuneError:
			return i, r, true
		case r == '\n' || r == '\t' || r == ' ':
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f):
			return i, r, true
		case unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Co, r):
			return i, r, true
		}
	}
	return 0, 0, false
}

func TestFirstControlFindsEachHostileClass(t *testing.T) {
	for _, s := range []string{"a\x1b[2J", "a\x07", "a\u009b6n", "a\u202eb", "a\u2066b", "a\u200bb", "a\xffb", "a\rb"} {
		if _, _, bad := firstControl(s); !bad {
			t.Errorf("firstControl(%q) found nothing", s)
		}
	}
	if at, r, bad := firstControl("ok ^[[2J <U+202E> …\n"); bad {
		t.Errorf("neutralised text reported: %U at %d", r, at)
	}
}
