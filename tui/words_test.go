package tui

import "testing"

func TestPlural(t *testing.T) {
	cases := []struct {
		n    int
		want string
	}{{0, "problems"}, {1, "problem"}, {2, "problems"}, {-1, "problems"}}
	for _, c := range cases {
		if got := Plural(c.n, "problem", "problems"); got != c.want {
			t.Errorf("Plural(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}

func TestHumanBytes(t *testing.T) {
	cases := []struct {
		n    int64
		want string
	}{
		{0, "0 B"},
		{1023, "1023 B"},
		{1024, "1.0 KiB"},
		{1536, "1.5 KiB"},
		{1<<20 - 1, "1024.0 KiB"},
		{1 << 20, "1.0 MiB"},
		{256 << 20, "256.0 MiB"},
		{64 << 30, "64.0 GiB"},
		{1 << 62, "4.0 EiB"},
	}
	for _, c := range cases {
		if got := HumanBytes(c.n); got != c.want {
			t.Errorf("HumanBytes(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}

func TestResultWord(t *testing.T) {
	cases := []struct{ result, want string }{
		{"pass", "passed"},
		{"fail", "failed"},
		{"skipped", "skipped"},
		{"waived", "waived"},
		{"blocked", "blocked"},
		{"green\x1b]52;c;aGk=\a", "green^[]52;c;aGk=^G"},
	}
	for _, c := range cases {
		if got := ResultWord(c.result); got != c.want {
			t.Errorf("ResultWord(%q) = %q, want %q", c.result, got, c.want)
		}
	}
}
