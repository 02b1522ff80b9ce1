package ledgerpack

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
)

// walkFiles lists every file under dir at ref, recursively, as paths
// relative to dir. Folders are read one request each; the walk stops with
// an error past maxEntries entries so a hostile ledger cannot make it
// endless. A missing dir is an empty result, not an error.
func walkFiles(ctx context.Context, client *github.Client, owner, repo, ref, dir string, maxEntries int) (map[string]ghx.TreeEntry, error) {
	out := map[string]ghx.TreeEntry{}
	seen := 0
	queue := []string{""}
	for len(queue) > 0 {
		rel := queue[0]
		queue = queue[1:]
		entries, err := ghx.ListTree(ctx, client, owner, repo, ref, path.Join(dir, rel))
		if ghx.IsNotFound(err) && rel == "" {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			seen++
			if seen > maxEntries {
				return nil, fmt.Errorf("%s on the ledger holds more than %d entries; aayu reads no further", dir, maxEntries)
			}
			name := path.Join(rel, e.Name)
			if strings.Contains(e.Name, "/") || e.Name == "" || e.Name == "." || e.Name == ".." {
				continue // GitHub never names an entry so; skip rather than trust it
			}
			switch e.Type {
			case "dir":
				queue = append(queue, name)
			default:
				e.Path = name
				out[name] = e
			}
		}
	}
	return out, nil
}
