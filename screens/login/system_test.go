package login

import "testing"

// A browser is only started where one can show: never from SSH or a bare
// console, where xdg-open could start a text browser on this very terminal.
func TestOpener(t *testing.T) {
	cases := []struct {
		goos string
		env  map[string]string
		want string // "" means refused
	}{
		{"linux", map[string]string{"DISPLAY": ":0"}, "xdg-open"},
		{"linux", map[string]string{"WAYLAND_DISPLAY": "wayland-0"}, "xdg-open"},
		{"linux", map[string]string{"SSH_CONNECTION": "1 2 3 4"}, ""},
		{"linux", nil, ""},
		{"linux", map[string]string{"WSL_DISTRO_NAME": "Ubuntu"}, "wslview"},
		{"darwin", nil, "open"},
		{"darwin", map[string]string{"SSH_CONNECTION": "1 2 3 4"}, ""},
		{"windows", nil, "rundll32"},
	}
	for _, c := range cases {
		name, _, err := opener(c.goos, func(k string) string { return c.env[k] })
		if name != c.want || (err == nil) != (c.want != "") {
			t.Errorf("%s %v: got %q, %v; want %q", c.goos, c.env, name, err, c.want)
		}
	}
}
