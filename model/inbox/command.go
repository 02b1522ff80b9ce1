package inbox

import "fmt"

// Command is the command a person runs for a card outside the inbox, as
// the seed's table names each step's verb: a Decision's is aayu decide
// with its recommendation (for one half done, the option already
// commented, which finishes it), a Story PR ready to ship's is aayu ship
// (with --solo-bypass in solo mode, as its choice is worded), a Story
// waiting for its Ready snapshot's is aayu ready, a pull request waiting
// for its plan review's is aayu plan on its Story. A step no
// other command does is done in the inbox; a Decision whose body does not
// parse has none ("": it is fixed on GitHub).
func Command(st Step) string {
	switch st.Kind {
	case KindDecision:
		if st.Problem != "" || st.Recommendation.Key == "" {
			return ""
		}
		return fmt.Sprintf("aayu decide %d --accept %s", st.Item.Number, st.Recommendation.Key)
	case KindReadyToShip, KindShipStopped:
		for _, w := range st.Recommendation.Writes {
			if w.Kind == WriteOpenShip {
				return ShipCommand(w.Number, w.Solo)
			}
		}
	case KindNeedsReady, KindNeedsPlanReview:
		for _, w := range st.Recommendation.Writes {
			if line := w.CommandLine(); line != "" {
				return line
			}
		}
	}
	return "aayu inbox"
}

// Next is the one line aayu next prints, in the seed's home-screen words:
// "Waiting in your inbox" with the count, naming aayu inbox whenever it has
// steps (seed 001, "The inbox").
func Next(steps []Step) string {
	if len(steps) == 0 {
		return "Nothing is waiting in your inbox: no command to run now."
	}
	needs := 0
	for _, st := range steps {
		if st.Group == NeedsYou {
			needs++
		}
	}
	count := fmt.Sprintf("%d steps", len(steps))
	if len(steps) == 1 {
		count = "1 step"
	}
	if needs != len(steps) {
		count += fmt.Sprintf(" (%d %s you, %d housekeeping)", needs, map[bool]string{true: "needs", false: "need"}[needs == 1], len(steps)-needs)
	}
	return "Waiting in your inbox: " + count + " — run aayu inbox"
}
