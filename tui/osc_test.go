package tui

import (
	"strings"
	"testing"
)

func TestHyperlink(t *testing.T) {
	tests := []struct {
		name, url, text, want string
	}{
		{"https link", "https://github.com/acme/benefits/pull/148", "#148",
			"\x1b]8;;https://github.com/acme/benefits/pull/148\x07#148\x1b]8;;\x07"},
		{"URL that would end the sequence is not linked", "https://x/\x07\x1b]52;c;aGk=\x07", "pr", "pr"},
		{"javascript scheme is not linked", "javascript:alert(1)", "pr", "pr"},
		{"relative URL is not linked", "/acme/benefits", "repo", "repo"},
		{"text is sanitised", "https://github.com", "\x1b]8;;http://evil\x1b\\x", "\x1b]8;;https://github.com\x07^[]8;;http://evil^[\\x\x1b]8;;\x07"},
		{"spaces in URL are not linked", "https://a b", "t", "t"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Hyperlink(tt.url, tt.text); got != tt.want {
				t.Errorf("Hyperlink(%q, %q) = %q, want %q", tt.url, tt.text, got, tt.want)
			}
		})
	}
}

func TestPlainLink(t *testing.T) {
	tests := []struct{ url, text, want string }{
		{"https://github.com/login/device", "github.com/login/device", "github.com/login/device <https://github.com/login/device>"},
		{"https://github.com", "", "https://github.com"},
		{"https://github.com", "https://github.com", "https://github.com"},
		{"https://x/\x1b[2J", "t\nu", "t⏎u <https://x/^[[2J>"},
	}
	for _, tt := range tests {
		got := PlainLink(tt.url, tt.text)
		if got != tt.want {
			t.Errorf("PlainLink(%q, %q) = %q, want %q", tt.url, tt.text, got, tt.want)
		}
		if strings.ContainsRune(got, 0x1b) {
			t.Errorf("PlainLink(%q, %q) holds ESC", tt.url, tt.text)
		}
	}
}
