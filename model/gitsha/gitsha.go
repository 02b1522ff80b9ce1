// Package gitsha shortens commit SHAs for people to read, one way
// everywhere: a head named in ship's refusal, the gate's comment, the
// inbox and audit is the same 12 characters, so a person can match them
// by eye and search for one in another.
package gitsha

// Len is how many characters of a SHA aayu shows. Twelve, not git's
// default seven: at this length a collision in one repository is
// unlikely enough that the short form names one commit.
const Len = 12

// Short is the first Len characters of sha, or sha whole when it is
// shorter (never a slice past its end).
func Short(sha string) string {
	if len(sha) > Len {
		return sha[:Len]
	}
	return sha
}
