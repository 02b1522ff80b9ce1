package inbox

import "fmt"

// JSONFields lists the fields `aayu inbox --json` knows, in the order the
// README documents them. The schema is stable: a field keeps its name, type
// and meaning; new fields may be added, none is removed.
func JSONFields() []string {
	return []string{"id", "number", "kind", "group", "title", "isPR", "head", "links",
		"recommendation", "choices", "problem", "halfDone", "counsel", "command"}
}

// JSONLink is one link of a step in `--json` output.
type JSONLink struct {
	Number int    `json:"number"`
	Title  string `json:"title"`
	IsPR   bool   `json:"isPR"`
	Role   string `json:"role"`
}

// JSONChoice is one choice of a step in `--json` output.
type JSONChoice struct {
	Key         string `json:"key"`
	Label       string `json:"label"`
	Recommended bool   `json:"recommended"`
	OneWay      bool   `json:"oneWay"`
	Disabled    string `json:"disabled"` // why it cannot be taken; "" when it can
}

// JSON returns the named fields of the step, for `aayu inbox --json`.
// Text from GitHub is given as GitHub has it: the caller's encoder must
// escape it (aayu writes ASCII-only JSON), since it is data here, not
// words on a screen.
func (s Step) JSON(fields []string) (map[string]any, error) {
	out := make(map[string]any, len(fields))
	for _, f := range fields {
		switch f {
		case "id":
			out[f] = s.ID()
		case "number":
			out[f] = s.Item.Number
		case "kind":
			out[f] = string(s.Kind)
		case "group":
			out[f] = s.Group.String()
		case "title":
			out[f] = s.Item.Title.Raw()
		case "isPR":
			out[f] = s.Item.IsPR
		case "head":
			out[f] = s.Head
		case "links":
			links := make([]JSONLink, 0, len(s.Links))
			for _, l := range s.Links {
				links = append(links, JSONLink{Number: l.Number, Title: l.Title.Raw(), IsPR: l.IsPR, Role: l.Role})
			}
			out[f] = links
		case "recommendation":
			out[f] = s.Recommendation.JSONLabel()
		case "choices":
			choices := make([]JSONChoice, 0, len(s.Choices))
			for _, c := range s.Choices {
				choices = append(choices, JSONChoice{Key: c.Key, Label: c.JSONLabel(), Recommended: c.Recommended, OneWay: c.OneWay, Disabled: c.Disabled})
			}
			out[f] = choices
		case "problem":
			out[f] = s.Problem
		case "halfDone":
			out[f] = s.HalfDone
		case "counsel":
			out[f] = s.Counsel.Raw()
		case "command":
			out[f] = Command(s)
		default:
			return nil, fmt.Errorf("inbox --json has no field %q", f)
		}
	}
	return out, nil
}
