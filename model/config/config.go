package config

import (
	"fmt"
	"sort"
	"strings"

	"github.com/knadh/koanf/parsers/toml/v2"
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
	RepoName string   // how errors name Repo, e.g. "the base branch's .aayudha/config.toml"
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
var sections = []string{"verify", "proof", "autonomy", "approvals", "identity", "seats", "ui", "update", "inspect"}

// Defaults returns the built-in defaults of SPEC §9.
func Defaults() map[string]any {
	return map[string]any{
		"verify.coverage_threshold":        90,
		"verify.red_on_base_blocking_from": "2026-11-13",
		"proof.retention_days":             30,
		"proof.media":                      "",
		// Off for repositories set up before signed provenance; aayu init
		// writes it on for every repository it sets up (SPEC §9).
		"proof.require_attestation":   false,
		"proof.trusted_root":          "",
		"autonomy.approver":           "",
		"autonomy.never":              []any{"L04", "L07", "L09"},
		"autonomy.streak":             10,
		"autonomy.proof":              false,
		"autonomy.proof_rungs":        []any{"A", "B", "C"},
		"autonomy.always_person":      []any{".aayudha/config.toml", ".github/**"},
		"autonomy.integration_branch": "dev",
		"approvals.approvers":         []any{},
		"approvals.device_for":        []any{"one-way"},
		"seats.engineering_manager":   "",
		"ui.plain":                    false,
		"ui.motion":                   true,
		// The repository whose releases aayu self-update installs: aayu's
		// own (a mirror on GitHub Enterprise Server may name another).
		"update.repository": "aayudha/aayu",
		// No reviewer: the merge gate's inspect waits at the human rung.
		"inspect.reviewer": "",
		"inspect.endpoint": "",
		"inspect.model":    "",

		// The floors a pack must have, each passing, for its floors to
		// hold: the ones aayu verify writes for every Go story
		// (proof.DefaultRequiredFloors). Ship reads the base branch's.
		"verify.required_floors": []any{"tests", "coverage", "vet"},
		// No scanner unless the base branch names one (govulncheck,
		// staticcheck); each named is a required floor. vulndb "" is
		// govulncheck's own database (https://vuln.go.dev).
		"verify.scanners": []any{},
		"verify.vulndb":   "",
	}
}

// Load merges the layers. Every layer is checked against Schema: a
// malformed layer, an unknown key or a value of the wrong kind is an error
// that names the file, variable or flag, the key and the kind expected.
func Load(src Sources) (*Config, error) {
	c := &Config{k: koanf.New("."), origin: map[string]Layer{}}
	if err := c.loadMap(Defaults(), LayerDefaults); err != nil {
		return nil, err
	}
	repoName := src.RepoName
	if repoName == "" {
		repoName = string(LayerRepo)
	}
	if err := c.loadTOML(src.Repo, LayerRepo, repoName); err != nil {
		return nil, err
	}
	userName := src.UserPath
	if userName == "" {
		userName = string(LayerUser)
	}
	if err := c.loadTOML(src.User, LayerUser, userName); err != nil {
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

func (c *Config) loadTOML(b []byte, layer Layer, where string) error {
	if len(b) == 0 {
		return nil
	}
	flat, err := DecodeTOML(b, where)
	if err != nil {
		return err
	}
	return c.loadMap(flat, layer)
}

// DecodeTOML reads one configuration file into its settings, keyed
// section.key, each checked against Schema and normalised (lists as []any
// of strings, dates as "2006-01-02"). where names the file in errors. The
// bytes are checked against MaxTOMLBytes and MaxDepth before parsing.
func DecodeTOML(b []byte, where string) (map[string]any, error) {
	if err := CheckTOML(b); err != nil {
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	tree, err := toml.Parser().Unmarshal(b)
	if err != nil {
		return nil, fmt.Errorf("%s is not valid TOML: %w", where, err)
	}
	out := map[string]any{}
	for section, v := range tree {
		table, ok := v.(map[string]any)
		if !ok {
			return nil, unknownKey(where, section)
		}
		for name, v := range table {
			key := section + "." + name
			kind, ok := Schema[key]
			if !ok {
				return nil, unknownKey(where, key)
			}
			val, err := normalize(where, key, kind, v)
			if err != nil {
				return nil, err
			}
			if err := checkRange(where, key, val); err != nil {
				return nil, err
			}
			out[key] = val
		}
	}
	return out, nil
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

// envValues maps AAYU_PROOF_RETENTION_DAYS to proof.retention_days. A
// variable that starts with a section's name must name a setting; other
// AAYU_* variables (AAYU_GITHUB_TOKEN, AAYU_AGENT) are not configuration.
func envValues(environ []string) (map[string]any, error) {
	out := map[string]any{}
	for _, kv := range environ {
		name, val, ok := strings.Cut(kv, "=")
		if !ok || !strings.HasPrefix(name, "AAYU_") {
			continue
		}
		rest := strings.ToLower(strings.TrimPrefix(name, "AAYU_"))
		for _, s := range sections {
			key, ok := strings.CutPrefix(rest, s+"_")
			if !ok {
				continue
			}
			full := s + "." + key
			kind, known := Schema[full]
			if !known {
				return nil, unknownKey(name, full)
			}
			v, err := fromText(name, full, kind, val)
			if err != nil {
				return nil, err
			}
			if err := checkRange(name, full, v); err != nil {
				return nil, err
			}
			out[full] = v
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
		where := "--set " + key
		kind, known := Schema[key]
		if !known {
			return nil, unknownKey(where, key)
		}
		v, err := fromText(where, key, kind, val)
		if err != nil {
			return nil, err
		}
		if err := checkRange(where, key, v); err != nil {
			return nil, err
		}
		out[key] = v
	}
	return out, nil
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
