package tui

import (
	"strings"
	"testing"
)

func TestFrame(t *testing.T) {
	cases := []struct {
		name          string
		body          []string
		width, height int
		want          string
	}{
		{"padded so help stays at the bottom", []string{"a"}, 5, 4, "a\n\n\nkeys"},
		{"cut to the height", []string{"1", "2", "3", "4"}, 5, 3, "1\n2\nkeys"},
		{"each line cut to the width", []string{"abcdefgh"}, 5, 2, "abcd…\nkeys"},
		{"exactly full", []string{"1", "2"}, 5, 3, "1\n2\nkeys"},
		{"a one-line screen shows only help", []string{"1"}, 5, 1, "keys"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Frame(c.body, c.width, c.height, "keys")
			if got != c.want {
				t.Errorf("Frame = %q, want %q", got, c.want)
			}
			if n := strings.Count(got, "\n") + 1; n != max(c.height, 1) {
				t.Errorf("%d lines, want %d", n, c.height)
			}
		})
	}
	body := []string{"keep me"}
	Frame(body, 2, 3, "keys")
	if body[0] != "keep me" {
		t.Errorf("Frame changed its caller's lines: %q", body[0])
	}
}
