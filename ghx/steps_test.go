package ghx

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestStepsRetryIsTheOneRetryPolicy: the policy every loop above the
// transport uses (issue #21 counted eight, each with its own count, wait
// and rule) repeats a step only while its failure deserves another try,
// within Attempts, waiting StepDelay between tries and never after the
// last, and gives back the last try's error.
func TestStepsRetryIsTheOneRetryPolicy(t *testing.T) {
	t.Parallel()
	transient := errors.New("GitHub answered 502")
	refused := errors.New("422 the head moved")
	lost := &MayHaveLandedError{Method: "PUT", URL: "/merge", Status: 502}
	for _, c := range []struct {
		name     string
		attempts int
		again    func(error) bool
		fails    []error // the step's answer at each try; nil after them
		tries    int
		waits    []time.Duration
		err      error
	}{
		{"success at once", 3, nil, nil, 1, nil, nil},
		{"a read fails twice, then works", 3, nil, []error{transient, transient}, 3, []time.Duration{200 * time.Millisecond, 400 * time.Millisecond}, nil},
		{"a read fails every time", 3, nil, []error{transient, transient, transient, transient}, 3, []time.Duration{200 * time.Millisecond, 400 * time.Millisecond}, transient},
		{"a refusal is not repeated", 8, Retryable, []error{refused}, 1, nil, refused},
		{"a lost answer is retryable", 8, Retryable, []error{lost}, 2, []time.Duration{200 * time.Millisecond}, nil},
		{"the wait stops at a second", 8, nil, []error{transient, transient, transient, transient, transient, transient}, 7,
			[]time.Duration{200 * time.Millisecond, 400 * time.Millisecond, 600 * time.Millisecond, 800 * time.Millisecond, time.Second, time.Second}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			var waits []time.Duration
			tries := 0
			p := Steps{Attempts: c.attempts, Sleep: func(_ context.Context, d time.Duration) error {
				waits = append(waits, d)
				return nil
			}}
			err := p.Retry(t.Context(), c.again, func() error {
				tries++
				if tries <= len(c.fails) {
					return c.fails[tries-1]
				}
				return nil
			})
			if !errors.Is(err, c.err) || (c.err == nil && err != nil) {
				t.Errorf("error %v, want %v", err, c.err)
			}
			if tries != c.tries || len(waits) != len(c.waits) {
				t.Fatalf("%d tries and waits %v, want %d and %v", tries, waits, c.tries, c.waits)
			}
			for i := range waits {
				if waits[i] != c.waits[i] {
					t.Errorf("waits %v, want %v", waits, c.waits)
				}
			}
		})
	}
}

// TestStepsRetryStopsWhenTheContextEnds: a wait cut short by the context
// ends the loop with the step's own error, which says what failed.
func TestStepsRetryStopsWhenTheContextEnds(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	transient := errors.New("GitHub answered 503")
	tries := 0
	err := Steps{Attempts: 5}.Retry(ctx, nil, func() error { tries++; return transient })
	if tries != 1 || !errors.Is(err, transient) {
		t.Fatalf("%d tries, error %v; want one try and the step's error", tries, err)
	}
}

// TestWriteAgainOnlyAfterAReadShowsTheWriteIsNotThere: a write that may
// have landed is sent again only when a re-read worked and shows it did
// not land; a failed re-read, a write that is there, and any other failure
// are not repeated.
func TestWriteAgainOnlyAfterAReadShowsTheWriteIsNotThere(t *testing.T) {
	t.Parallel()
	lost := &MayHaveLandedError{Method: "POST", URL: "/comments", Status: 504}
	readFailed := errors.New("GitHub answered 502 to the re-read")
	for _, c := range []struct {
		name  string
		err   error
		there bool
		rerr  error
		reads int
		want  bool
	}{
		{"lost, and not there", lost, false, nil, 1, true},
		{"lost, and there", lost, true, nil, 1, false},
		{"lost, and the re-read failed", lost, false, readFailed, 1, false},
		{"refused: not this rule's", errors.New("422"), false, nil, 0, false},
	} {
		reads := 0
		got := WriteAgain(c.err, func() (bool, error) { reads++; return c.there, c.rerr })
		if got != c.want || reads != c.reads {
			t.Errorf("%s: WriteAgain = %v after %d reads, want %v after %d", c.name, got, reads, c.want, c.reads)
		}
	}
}
