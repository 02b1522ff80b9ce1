package inbox

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/aayudha/aayu/model/untrusted"
)

// TestStepJSONKnowsEveryListedField: every field JSONFields names (and so
// every field --json accepts and the README documents) is one JSON gives,
// and a field it does not list is refused, never given as null.
func TestStepJSONKnowsEveryListedField(t *testing.T) {
	st := Step{Kind: KindReadyToShip, Group: NeedsYou, Item: Item{Number: 4, Title: "Show\x1b[2J", IsPR: true},
		Head: "b046d1a", Links: []Link{{Number: 3, Title: "Story", Role: "links Story"}},
		Choices: []Choice{{Key: "1", Label: "ship it", Recommended: true}}, Recommendation: Choice{Label: "ship it"}}
	obj, err := st.JSON(JSONFields())
	if err != nil {
		t.Fatal(err)
	}
	if len(obj) != len(JSONFields()) {
		t.Errorf("JSON gave %d fields for the %d listed", len(obj), len(JSONFields()))
	}
	b, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back["id"] != "ready-to-ship#4" || back["title"] != "Show\x1b[2J" || back["isPR"] != true || back["group"] != "needs you" {
		t.Errorf("JSON = %s", b)
	}
	if _, err := st.JSON([]string{"number", "author"}); err == nil {
		t.Error(`the unlisted field "author" was accepted`)
	}
}

// TestJSONChoiceLabelIsGitHubsText: a Decision option's title reaches
// --json as GitHub has it, in its choice's label and the recommendation,
// as the title field does; the screen's label keeps it neutralised.
func TestJSONChoiceLabelIsGitHubsText(t *testing.T) {
	s := base()
	s.Issues = append(s.Issues, Issue{Number: 7, Title: "Queue", State: "open", Labels: []untrusted.Label{LabelDecision}, Author: agent,
		Body: "## Options\n1. Keep\x1b[2J it (recommended)\n2. Drop it\n\nDoor: two-way\n"})
	st := Derive(s)[0]
	obj, err := st.JSON([]string{"choices", "recommendation"})
	if err != nil {
		t.Fatal(err)
	}
	if got := obj["choices"].([]JSONChoice)[0].Label; got != "accept option 1: Keep\x1b[2J it" {
		t.Errorf("--json label = %q, want GitHub's text", got)
	}
	if got := obj["recommendation"]; got != "accept option 1: Keep\x1b[2J it" {
		t.Errorf("--json recommendation = %q, want GitHub's text", got)
	}
	if strings.Contains(st.Choices[0].Label, "\x1b") {
		t.Errorf("the screen's label carries an escape: %q", st.Choices[0].Label)
	}
}
