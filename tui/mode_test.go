package tui

import "testing"

func envOf(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestDecidePlain(t *testing.T) {
	tests := []struct {
		name                 string
		flag, config, isTerm bool
		env                  map[string]string
		want                 bool
		why                  string
	}{
		{"terminal, nothing set", false, false, true, map[string]string{"TERM": "xterm-256color"}, false, "standard output is a terminal"},
		{"--plain", true, false, true, nil, true, "--plain was given"},
		{"TERM=dumb", false, false, true, map[string]string{"TERM": "dumb"}, true, "TERM is dumb"},
		{"NO_COLOR keeps the full screen", false, false, true, map[string]string{"NO_COLOR": "1"}, false, "standard output is a terminal"},
		{"NO_COLOR with TERM=dumb is plain for TERM", false, false, true, map[string]string{"NO_COLOR": "1", "TERM": "dumb"}, true, "TERM is dumb"},
		{"[ui] plain", false, true, true, nil, true, "[ui] plain is true in the configuration"},
		{"not a terminal", false, false, false, nil, true, "standard output is not a terminal"},
		{"flag reason comes first", true, true, false, map[string]string{"TERM": "dumb", "NO_COLOR": "1"}, true, "--plain was given"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, why := DecidePlain(tt.flag, tt.config, envOf(tt.env), tt.isTerm)
			if got != tt.want || why != tt.why {
				t.Errorf("DecidePlain = %v, %q; want %v, %q", got, why, tt.want, tt.why)
			}
		})
	}
}

func TestMotion(t *testing.T) {
	tests := []struct {
		name          string
		config, plain bool
		env           map[string]string
		want          bool
	}{
		{"allowed", true, false, nil, true},
		{"config off", false, false, nil, false},
		{"plain", true, true, nil, false},
		{"NO_COLOR any value", true, false, map[string]string{"NO_COLOR": "0"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Motion(tt.config, tt.plain, envOf(tt.env)); got != tt.want {
				t.Errorf("Motion(%v, %v, %v) = %v, want %v", tt.config, tt.plain, tt.env, got, tt.want)
			}
		})
	}
}

func TestNoColorAnyNonEmptyValue(t *testing.T) {
	for v, want := range map[string]bool{"": false, "1": true, "0": true, "false": true, "yes": true} {
		if got := NoColor(envOf(map[string]string{"NO_COLOR": v})); got != want {
			t.Errorf("NoColor(NO_COLOR=%q) = %v, want %v", v, got, want)
		}
	}
}
