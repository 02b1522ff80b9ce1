package pass

import "fmt"

// MaxListedFiles is how many files GitHub lists for a pull request (its
// "list pull request files" endpoint stops at 3,000).
const MaxListedFiles = 3000

// UnlistedFiles is the one rule ship and the protected-paths gate count a
// pull request's files by: the list is complete only when it is shorter
// than GitHub's cap and holds at least as many files as the pull request
// says it changes. Otherwise it says why in words, and both fail closed (a
// person must pass it); "" means every file was seen.
func UnlistedFiles(listed, declared int) string {
	if listed < MaxListedFiles && listed >= declared {
		return ""
	}
	return fmt.Sprintf("it changes more files than GitHub lists (%d of %d listed, at most %d), so not every file can be seen", listed, max(declared, listed), MaxListedFiles)
}
