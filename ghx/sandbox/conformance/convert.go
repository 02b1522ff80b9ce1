package conformance

import "strings"

// convert turns an OpenAPI 3.0 schema into JSON Schema 2020-12: component
// refs point into $defs, and `nullable: true` admits null (by adding
// "null" to a type, or with anyOf where there is no type).
func convert(v any) any {
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = convert(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			switch k {
			case "nullable", "discriminator", "example", "examples", "xml", "externalDocs":
				continue
			case "$ref":
				if s, ok := e.(string); ok {
					out[k] = strings.Replace(s, "#/components/schemas/", "#/$defs/", 1)
					continue
				}
			case "properties", "patternProperties", "$defs":
				// keys here are names, not keywords: convert only the values
				if m, ok := e.(map[string]any); ok {
					props := make(map[string]any, len(m))
					for pk, pv := range m {
						props[pk] = convert(pv)
					}
					out[k] = props
					continue
				}
			}
			out[k] = convert(e)
		}
		if nullable, _ := x["nullable"].(bool); nullable {
			return admitNull(out)
		}
		return out
	}
	return v
}

func admitNull(s map[string]any) map[string]any {
	if enum, ok := s["enum"].([]any); ok {
		s["enum"] = append(enum, nil)
	}
	switch t := s["type"].(type) {
	case string:
		s["type"] = []any{t, "null"}
		return s
	case []any:
		s["type"] = append(t, "null")
		return s
	}
	return map[string]any{"anyOf": []any{s, map[string]any{"type": "null"}}}
}
