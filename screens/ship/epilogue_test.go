package ship

import (
	"strings"
	"testing"

	"github.com/aayudha/aayu/tui"
)

// TestShipRefusalReasonOutlivesTheFullScreen: once the full screen closes,
// a refused ship leaves each refusing gate's reason behind, not only its
// exit code; a shipped one leaves its outcome.
func TestShipRefusalReasonOutlivesTheFullScreen(t *testing.T) {
	c := tui.Common{Width: 80, Height: 24, Styles: tui.NewStyles(true)}
	var ep []string
	if e, ok := tui.Screen(finished(t, c, refused)).(tui.Epilogue); ok {
		ep = e.Epilogue()
	}
	got := strings.Join(ep, "\n")
	for _, want := range []string{"no merge-gate run qualifies for head 735b66b00b1c", "criterion 2 has no evidence", "no review of head 735b66b00b1c by @founder", "refused: nothing was merged", "result: exit 4"} {
		if !strings.Contains(got, want) {
			t.Errorf("the refusal leaves behind no %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "not reached") || strings.Contains(got, "policy from the base branch") {
		t.Errorf("only what refused and the outcome stay behind:\n%s", got)
	}
	ep = finished(t, c, shipped).Epilogue()
	if len(ep) != 2 || !strings.HasPrefix(ep[0], "shipped: #4 merged as") || ep[1] != "result: exit 0" {
		t.Errorf("a ship leaves behind %q", ep)
	}
}
