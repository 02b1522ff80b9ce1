package ship

import (
	"strings"
	"testing"
)

// TestShipNeverRefusesAStricterCheckoutConfig: a checkout's
// .aayudha/config.toml that only tightens the base branch's policy (a
// longer streak, one more never layer) and leaves autonomy.approver out is
// not refused: the approver it does not set is not "unset" by it. A looser
// value the same file does set still stops ship, naming only that key.
func TestShipNeverRefusesAStricterCheckoutConfig(t *testing.T) {
	t.Parallel()
	f := newBotFixture(t)
	f.review("founder", 4, "APPROVE", "")
	cfg := f.batchConfig(&Approval{Login: "founder"})
	cfg.CheckOnly = true
	cfg.Local.Repo = []byte("[autonomy]\nstreak = 50\nnever = [\"L04\", \"L07\", \"L09\", \"L01\"]\n")
	res, events, err := f.ship(cfg, 4)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Refusals) > 0 || res.Plan == nil {
		t.Fatalf("a stricter checkout config was refused: %q (passed over %v, events %v)", res.Refusals, res.Passed, lastEvent(events))
	}

	cfg.Local.Repo = []byte("[autonomy]\nstreak = 1\n")
	res, _, err = f.ship(cfg, 4)
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(res.Refusals, "\n")
	if res.Plan != nil || !strings.Contains(all, "your checkout's .aayudha/config.toml sets autonomy.streak to 1") {
		t.Fatalf("a lower streak in the checkout was not refused by name: %q", res.Refusals)
	}
	if strings.Contains(all, "autonomy.approver") || strings.Contains(all, "autonomy.never") {
		t.Errorf("the refusal names a key the checkout's file does not set: %q", res.Refusals)
	}
}
