package proof

import "strings"

// LocalPackFolder is where aayu verify keeps a story's local pack in a
// checkout (.aayudha/proof/STORY/). It is never committed: a local pack is
// the builder's own word, so one that rides into a pull request must never
// pass as proof, and the merge gate refuses a pull request that carries
// one (InLocalPackFolder).
const LocalPackFolder = ".aayudha/proof/"

// InLocalPackFolder says whether a repository path (as git and GitHub
// write it, slash-separated from the root) is inside LocalPackFolder. Case
// is folded: on a case-insensitive disk .Aayudha/Proof/ is the same folder.
func InLocalPackFolder(p string) bool {
	p = strings.TrimPrefix(p, "./")
	return len(p) > len(LocalPackFolder) && strings.EqualFold(p[:len(LocalPackFolder)], LocalPackFolder)
}
