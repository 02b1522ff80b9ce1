package config

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	gotoml "github.com/pelletier/go-toml/v2"
)

// normalize checks one parsed TOML value against its kind and returns it
// in the one shape Config reads: string, int64, float64, bool, or []any of
// strings.
func normalize(where, key string, kind Kind, v any) (any, error) {
	switch kind {
	case KindString:
		if s, ok := v.(string); ok {
			return s, nil
		}
	case KindInt:
		if n, ok := v.(int64); ok {
			return n, nil
		}
	case KindNumber:
		switch n := v.(type) {
		case int64:
			return n, nil
		case float64:
			if !math.IsNaN(n) && !math.IsInf(n, 0) {
				return n, nil
			}
		}
	case KindBool:
		if b, ok := v.(bool); ok {
			return b, nil
		}
	case KindDate:
		switch d := v.(type) {
		case gotoml.LocalDate:
			return d.String(), nil
		case string:
			if _, err := time.Parse(time.DateOnly, d); err == nil {
				return d, nil
			}
		}
	case KindStrings:
		list, ok := v.([]any)
		if !ok {
			break
		}
		out := make([]any, 0, len(list))
		for i, e := range list {
			s, ok := e.(string)
			if !ok {
				return nil, &KeyError{Where: where, Key: key, Why: fmt.Sprintf("must be %s, but item %d is %s", kind, i+1, describe(e))}
			}
			out = append(out, s)
		}
		return out, nil
	}
	return nil, wrongKind(where, key, kind, v)
}

// fromText reads a value given as text (an AAYU_* variable, a --set flag)
// as its kind. A list may be written as TOML (["a", "b"]) or as words
// separated by commas (a,b); a single word is a list of one, never an empty
// list.
func fromText(where, key string, kind Kind, raw string) (any, error) {
	if len(raw) > MaxTOMLBytes {
		return nil, &KeyError{Where: where, Key: key, Why: fmt.Sprintf("is %d bytes long; at most %d KiB", len(raw), MaxTOMLBytes>>10)}
	}
	text := strings.TrimSpace(raw)
	switch kind {
	case KindString:
		if v, ok := tomlValue(text); ok {
			if s, ok := v.(string); ok {
				return s, nil
			}
		}
		return raw, nil
	case KindInt:
		n, err := strconv.ParseInt(text, 10, 64)
		if err != nil {
			return nil, wrongKind(where, key, kind, raw)
		}
		return n, nil
	case KindNumber:
		f, err := strconv.ParseFloat(text, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, wrongKind(where, key, kind, raw)
		}
		if n, err := strconv.ParseInt(text, 10, 64); err == nil {
			return n, nil
		}
		return f, nil
	case KindBool:
		switch strings.ToLower(text) {
		case "true", "1":
			return true, nil
		case "false", "0":
			return false, nil
		}
		return nil, wrongKind(where, key, kind, raw)
	case KindDate:
		if v, ok := tomlValue(text); ok {
			return normalize(where, key, kind, v)
		}
		return normalize(where, key, kind, text)
	case KindStrings:
		if strings.HasPrefix(text, "[") {
			v, ok := tomlValue(text)
			if !ok {
				return nil, &KeyError{Where: where, Key: key, Why: fmt.Sprintf("%q is not a valid list; write it as [\"a\", \"b\"] or a,b", raw)}
			}
			return normalize(where, key, kind, v)
		}
		if v, ok := tomlValue(text); ok {
			if s, ok := v.(string); ok {
				text = s
			}
		}
		out := []any{}
		for _, part := range strings.Split(text, ",") {
			if part = strings.TrimSpace(part); part != "" {
				out = append(out, part)
			}
		}
		if len(out) == 0 {
			// Blank text (spaces, a tab, a lone comma) would otherwise clear a
			// list such as autonomy.never without anyone meaning to; clearing
			// one takes the explicit [].
			return nil, &KeyError{Where: where, Key: key, Why: fmt.Sprintf("%q holds no items; write [] to empty the list", raw)}
		}
		return out, nil
	}
	return nil, wrongKind(where, key, kind, raw)
}

// tomlValue parses text as one TOML value, within the same limits as a
// file.
func tomlValue(text string) (any, bool) {
	doc := []byte("v = " + text)
	if CheckTOML(doc) != nil {
		return nil, false
	}
	var m map[string]any
	if err := gotoml.Unmarshal(doc, &m); err != nil {
		return nil, false
	}
	v, ok := m["v"]
	return v, ok
}
