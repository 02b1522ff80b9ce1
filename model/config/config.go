package config

import (
	"fmt"
	"sort"
	"strings"

	"github.com/knadh/koanf/parsers/toml/v2"
	"github.com/knadh/koanf/providers/rawbytes"
	"github.com/knadh/koanf/v2"
)

// Layer names where a value came from; ship names it when a layer loosens
// policy.
type Layer string

const (
	LayerDefaults Layer = "built-in defaults"
	LayerRepo     Layer = "the repository's .aayudha/config.toml"
	LayerUser     Layer = "your config file"
	LayerEnv      Layer = "an AAYU_* environment variable"
	LayerFlag     Layer = "a --set flag"
)

// Sources are the raw inputs, lowest layer first after the defaults.
type Sources struct {
	Repo     []byte   // the repository's .aayudha/config.toml, or nil
	User     []byte   // $XDG_CONFIG_HOME/aayu/config.toml, or nil
	UserPath string   // for error messages only
	Environ  []string // os.Environ()-style KEY=VALUE
	Set      []string // --set key=value, in order
}

// Config is the merged result, plus which layer set each key.
type Config struct {
	k      *koanf.Koanf
	origin map[string]Layer
}

// sections are the tables SPEC §9 defines; AAYU_<SECTION>_<KEY> maps onto
// them and nothing else, so AAYU_GITHUB_TOKEN is never read as config.
var sections = []string{"verify", "proof", "autonomy", "approvals", "identity", "seats", "ui"}

// Defaults returns the built-in defaults of SPEC §9.
func Defaults() map[string]any {
	return map[string]any{
		"verify.coverage_threshold":        90,
		"verify.red_on_base_blocking_from": "2026-11-13",
		"proof.retention_days":             30,
		"proof.media":                      "",
		"autonomy.approver":                "",
		"autonomy.never":                   []any{"L04", "L07", "L09"},
		"autonomy.streak":                  10,
		"autonomy.proof":                   false,
		"autonomy.proof_rungs":             []any{"A", "B", "C"},
		"autonomy.always_person":           []any{".aayudha/config.toml", ".github/**"},
		"autonomy.integration_branch":      "dev",
		"approvals.approvers":              []any{},
		"approvals.device_for":             []any{"one-way"},
		"seats.engineering_manager":        "",
		"ui.plain":                         false,
		"ui.motion":                        true,

		// The floors a pack must have, each passing, for its floors to
		// hold: the ones aayu verify writes for every Go story
		// (proof.DefaultRequiredFloors). Ship reads the base branch's.
		"verify.required_floors": []any{"tests", "coverage", "vet"},
	}
}

// Load merges the layers. A malformed layer is an error that names it.
func Load(src Sources) (*Config, error) {
	c := &Config{k: koanf.New("."), origin: map[string]Layer{}}
	if err := c.loadMap(Defaults(), LayerDefaults); err != nil {
		return nil, err
	}
	if err := c.loadTOML(src.Repo, LayerRepo); err != nil {
		return nil, err
	}
	if err := c.loadTOML(src.User, LayerUser); err != nil {
		if src.UserPath != "" {
			return nil, fmt.Errorf("%s: %w", src.UserPath, err)
		}
		return nil, err
	}
	env, err := envValues(src.Environ)
	if err != nil {
		return nil, err
	}
	if err := c.loadMap(env, LayerEnv); err != nil {
		return nil, err
	}
	set, err := setValues(src.Set)
	if err != nil {
		return nil, err
	}
	if err := c.loadMap(set, LayerFlag); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *Config) loadTOML(b []byte, layer Layer) error {
	if len(b) == 0 {
		return nil
	}
	k := koanf.New(".")
	if err := k.Load(rawbytes.Provider(b), toml.Parser()); err != nil {
		return fmt.Errorf("reading %s: %w", layer, err)
	}
	for _, key := range k.Keys() {
		c.origin[key] = layer
	}
	return c.k.Merge(k)
}

func (c *Config) loadMap(m map[string]any, layer Layer) error {
	if len(m) == 0 {
		return nil
	}
	k := koanf.New(".")
	if err := k.Load(mapProvider(m), nil); err != nil {
		return fmt.Errorf("reading %s: %w", layer, err)
	}
	for key := range m {
		c.origin[key] = layer
	}
	return c.k.Merge(k)
}

// envValues maps AAYU_PROOF_RETENTION_DAYS to proof.retention_days.
func envValues(environ []string) (map[string]any, error) {
	out := map[string]any{}
	for _, kv := range environ {
		name, val, ok := strings.Cut(kv, "=")
		if !ok || !strings.HasPrefix(name, "AAYU_") {
			continue
		}
		rest := strings.ToLower(strings.TrimPrefix(name, "AAYU_"))
		for _, s := range sections {
			if key, ok := strings.CutPrefix(rest, s+"_"); ok && key != "" {
				v, err := parseValue(val)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", name, err)
				}
				out[s+"."+key] = v
			}
		}
	}
	return out, nil
}

func setValues(sets []string) (map[string]any, error) {
	out := map[string]any{}
	for _, s := range sets {
		key, val, ok := strings.Cut(s, "=")
		key = strings.TrimSpace(key)
		if !ok || !strings.Contains(key, ".") {
			return nil, fmt.Errorf("--set %q: want section.key=value, e.g. --set ui.motion=false", s)
		}
		v, err := parseValue(val)
		if err != nil {
			return nil, fmt.Errorf("--set %s: %w", key, err)
		}
		out[key] = v
	}
	return out, nil
}

// parseValue reads a value as TOML when it is one (numbers, booleans,
// arrays, quoted strings) and as a bare string otherwise.
func parseValue(s string) (any, error) {
	k := koanf.New(".")
	if err := k.Load(rawbytes.Provider([]byte("v = "+s)), toml.Parser()); err == nil {
		return k.Get("v"), nil
	}
	if strings.HasPrefix(strings.TrimSpace(s), "[") {
		return nil, fmt.Errorf("%q is not a valid list; write it as [\"a\", \"b\"]", s)
	}
	return s, nil
}

// String, Int, Bool and Strings read one merged key.
func (c *Config) String(key string) string    { return c.k.String(key) }
func (c *Config) Int(key string) int          { return c.k.Int(key) }
func (c *Config) Bool(key string) bool        { return c.k.Bool(key) }
func (c *Config) Strings(key string) []string { return c.k.Strings(key) }

// Origin says which layer set key last.
func (c *Config) Origin(key string) Layer {
	if l, ok := c.origin[key]; ok {
		return l
	}
	return LayerDefaults
}

// Keys lists every key set by any layer, sorted.
func (c *Config) Keys() []string {
	keys := c.k.Keys()
	sort.Strings(keys)
	return keys
}

type mapProvider map[string]any

func (m mapProvider) ReadBytes() ([]byte, error) { return nil, fmt.Errorf("not supported") }

func (m mapProvider) Read() (map[string]any, error) {
	out := map[string]any{}
	for k, v := range m {
		out[k] = v
	}
	return unflatten(out), nil
}

// unflatten turns {"a.b": 1} into {"a": {"b": 1}} as koanf expects from a
// provider.
func unflatten(flat map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range flat {
		parts := strings.Split(k, ".")
		cur := out
		for _, p := range parts[:len(parts)-1] {
			next, ok := cur[p].(map[string]any)
			if !ok {
				next = map[string]any{}
				cur[p] = next
			}
			cur = next
		}
		cur[parts[len(parts)-1]] = v
	}
	return out
}
