package tui

import "testing"

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
