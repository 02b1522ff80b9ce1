package config

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// Kind is the type a setting must have. Every layer is checked against it,
// so a value of the wrong type is an error instead of a silent zero (a
// string where a list is expected once read as "no never layers").
type Kind int

const (
	KindString  Kind = iota
	KindInt          // a whole number
	KindNumber       // a whole or decimal number (a percentage)
	KindBool         // true or false
	KindStrings      // a list of strings
	KindDate         // a date such as 2026-11-13, quoted or not
)

// String names the kind as an error message says it.
func (k Kind) String() string {
	switch k {
	case KindInt:
		return "a whole number"
	case KindNumber:
		return "a number"
	case KindBool:
		return "true or false"
	case KindStrings:
		return `a list of strings such as ["a", "b"]`
	case KindDate:
		return "a date such as 2026-11-13"
	}
	return "a string"
}

// Schema is every setting aayu reads (SPEC §9 and the seed's identity
// settings) and its kind. A key not here is an error in every layer.
var Schema = map[string]Kind{
	"verify.coverage_threshold":        KindNumber,
	"verify.red_on_base_blocking_from": KindDate,
	"verify.required_floors":           KindStrings,
	"verify.app":                       KindStrings,
	"verify.scanners":                  KindStrings,
	"verify.vulndb":                    KindString,
	"proof.retention_days":             KindInt,
	"proof.media":                      KindString,
	"proof.require_attestation":        KindBool,
	"proof.trusted_root":               KindString,
	"autonomy.approver":                KindString,
	"autonomy.never":                   KindStrings,
	"autonomy.streak":                  KindInt,
	"autonomy.proof":                   KindBool,
	"autonomy.proof_rungs":             KindStrings,
	"autonomy.always_person":           KindStrings,
	"autonomy.integration_branch":      KindString,
	"approvals.approvers":              KindStrings,
	"approvals.device_for":             KindStrings,
	"identity.app_id":                  KindInt,
	"identity.app_slug":                KindString,
	"identity.broker":                  KindString,
	"identity.machine_user":            KindString,
	"identity.machine_user_secret":     KindString,
	"identity.bot_logins":              KindStrings,
	"identity.device_client_id":        KindString,
	"seats.engineering_manager":        KindString,
	"ui.plain":                         KindBool,
	"ui.motion":                        KindBool,
	"update.repository":                KindString,
	"inspect.reviewer":                 KindString,
	"inspect.endpoint":                 KindString,
	"inspect.model":                    KindString,
}

// ranges bound the numeric settings a value of the right kind can still
// get wrong: a coverage threshold is a percentage, and a count is never
// negative. A threshold of -5 or 300 would make a floor that always holds
// or never can, so it is refused where it is read, never clamped.
var ranges = map[string]struct {
	lo, hi float64
	words  string
}{
	"verify.coverage_threshold": {0, 100, "a percentage from 0 to 100"},
	"proof.retention_days":      {0, math.MaxInt64, "a count of days, 0 or more"},
	"autonomy.streak":           {0, math.MaxInt64, "a count of merges, 0 or more"},
}

// checkRange refuses a number outside its setting's range.
func checkRange(where, key string, v any) error {
	r, ok := ranges[key]
	if !ok {
		return nil
	}
	var f float64
	switch n := v.(type) {
	case int64:
		f = float64(n)
	case float64:
		f = n
	default:
		return nil
	}
	if math.IsNaN(f) || f < r.lo || f > r.hi {
		return &KeyError{Where: where, Key: key, Why: fmt.Sprintf("must be %s, not %s", r.words, describe(v))}
	}
	return nil
}

// KeyError is a setting that cannot be taken: an unknown key or a value of
// the wrong kind. Its words name where it came from, the key and what was
// expected.
type KeyError struct {
	Where string // the file, variable or flag
	Key   string
	Why   string
}

func (e *KeyError) Error() string { return fmt.Sprintf("%s: %s %s", e.Where, e.Key, e.Why) }

// unknownKey words a key the schema does not declare, pointing at the
// lower-case spelling when that is what was meant.
func unknownKey(where, key string) error {
	why := "is not a setting aayu knows"
	if lower := strings.ToLower(key); lower != key {
		if _, ok := Schema[lower]; ok {
			return &KeyError{Where: where, Key: key, Why: fmt.Sprintf("is not a setting; keys are lower case: %s", lower)}
		}
	}
	section, _, _ := strings.Cut(key, ".")
	if known := sectionKeys(section); len(known) > 0 {
		why += fmt.Sprintf(" ([%s] has %s)", section, strings.Join(known, ", "))
	} else {
		why += fmt.Sprintf(" (the sections are %s)", strings.Join(sections, ", "))
	}
	return &KeyError{Where: where, Key: key, Why: why}
}

func sectionKeys(section string) []string {
	var out []string
	for k := range Schema {
		if s, name, _ := strings.Cut(k, "."); s == section {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// wrongKind words a value of another type than the schema's.
func wrongKind(where, key string, want Kind, got any) error {
	return &KeyError{Where: where, Key: key, Why: fmt.Sprintf("must be %s, not %s", want, describe(got))}
}

func describe(v any) string {
	switch x := v.(type) {
	case string:
		if len(x) > 40 {
			x = x[:40] + "…"
		}
		return fmt.Sprintf("the string %q", x)
	case bool:
		return fmt.Sprintf("the boolean %v", x)
	case int64, int, float64:
		return fmt.Sprintf("the number %v", x)
	case []any:
		return fmt.Sprintf("a list of %d values", len(x))
	case map[string]any:
		return "a table"
	}
	return fmt.Sprintf("a %T", v)
}
