package cli

import (
	"errors"
	"fmt"

	"github.com/aayudha/aayu/tui"
)

// openError is why a screen could not be built, with the exit code the
// command ends with when it was the command's own screen. Its words follow
// "aayu COMMAND: " on standard error, and are shown on the inbox's message
// line when the screen was to open on top of the inbox.
type openError struct {
	code  int
	words string
}

func (e *openError) Error() string { return e.words }

func openErr(code int, format string, args ...any) error {
	return &openError{code: code, words: fmt.Sprintf(format, args...)}
}

// reportOpen prints why command's screen did not open and returns the exit
// code; an error that is not an openError is a failure (exit 1).
func reportOpen(e env, command string, err error) int {
	var oe *openError
	if errors.As(err, &oe) {
		if oe.words != "" { // "" when the refusal was printed where it happened
			fmt.Fprintf(e.stderr, "aayu %s: %s\n", command, oe.words)
		}
		return oe.code
	}
	fmt.Fprintf(e.stderr, "aayu %s: %v\n", command, err)
	return tui.ExitFailed
}
