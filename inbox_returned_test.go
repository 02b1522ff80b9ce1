package main

import "testing"

// TestShipEndedNamesWhyInOneLine: back in the inbox after a ship, the
// message line names the gate that refused and why, or the outcome.
func TestShipEndedNamesWhyInOneLine(t *testing.T) {
	declined := []string{
		"human pass: passed — solo-mode bypass by @founder",
		"your confirmation: refused — you did not answer yes; nothing was written",
		"  you did not answer yes; nothing was written",
		"refused: nothing was merged and nothing landed (exit 4).",
		"result: exit 4",
	}
	if got, want := shipEnded(4, declined), "aayu ship 4 did not ship: your confirmation: refused — you did not answer yes; nothing was written"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	shipped := []string{"squash merge: passed — squash-merged", "shipped: #4 merged as 5966; the record is on the ledger.", "result: exit 0"}
	if got, want := shipEnded(4, shipped), "aayu ship 4 ended: shipped: #4 merged as 5966; the record is on the ledger."; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
