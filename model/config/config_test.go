package config

import (
	"reflect"
	"testing"
)

func TestLayersOverrideInOrder(t *testing.T) {
	cfg, err := Load(Sources{
		Repo:    []byte("[proof]\nretention_days = 60\n[ui]\nmotion = true\n"),
		User:    []byte("[proof]\nretention_days = 45\n"),
		Environ: []string{"AAYU_PROOF_RETENTION_DAYS=20", "AAYU_GITHUB_TOKEN=secret-not-config", "PATH=/bin"},
		Set:     []string{"ui.motion=false", `autonomy.never=["L01"]`},
	})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		key    string
		got    any
		want   any
		origin Layer
	}{
		{"proof.retention_days", cfg.Int("proof.retention_days"), 20, LayerEnv},
		{"ui.motion", cfg.Bool("ui.motion"), false, LayerFlag},
		{"autonomy.never", cfg.Strings("autonomy.never"), []string{"L01"}, LayerFlag},
		{"verify.coverage_threshold", cfg.Int("verify.coverage_threshold"), 90, LayerDefaults},
	}
	for _, c := range cases {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s = %v, want %v", c.key, c.got, c.want)
		}
		if o := cfg.Origin(c.key); o != c.origin {
			t.Errorf("%s origin = %q, want %q", c.key, o, c.origin)
		}
	}
	for _, k := range cfg.Keys() {
		if k == "github.token" || k == "github_token" {
			t.Fatalf("AAYU_GITHUB_TOKEN leaked into config as %q", k)
		}
	}
}

func TestLoadRefusesMalformedLayers(t *testing.T) {
	cases := map[string]Sources{
		"user toml":    {User: []byte("[ui\nplain = true"), UserPath: "/home/x/.config/aayu/config.toml"},
		"set no dot":   {Set: []string{"motion=false"}},
		"set bad list": {Set: []string{"autonomy.never=[L01"}},
	}
	for name, src := range cases {
		if _, err := Load(src); err == nil {
			t.Errorf("%s: Load accepted a malformed layer", name)
		}
	}
}
