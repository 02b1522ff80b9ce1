package ghx

import (
	"context"
	"fmt"
	"sync"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/model/basepolicy"
)

// ReadBasePolicy is the one reader of a base branch's policy: it reads
// ref's tip and then the policy files at exactly that commit, and
// basepolicy.Parse judges them. Only GitHub's 404 means a file is absent
// (the defaults); any other failed read — no access, a server error, a
// folder where a file should be — is an error that refuses, never a
// missing file that would read as the looser defaults.
func ReadBasePolicy(ctx context.Context, gh *github.Client, owner, repo, ref string) (*basepolicy.Policy, error) {
	tip, _, err := gh.Git.GetRef(ctx, owner, repo, "heads/"+ref)
	if err != nil {
		return nil, fmt.Errorf("reading the tip of %s: %s", ref, Describe(err))
	}
	at := tip.GetObject().GetSHA()
	// The files are read side by side at the one tip (one round trip, not
	// one per file) and judged in the order they always were: the first
	// error in that order is the one returned, and the first CODEOWNERS
	// found is the one taken, whatever a later path held.
	paths := append([]string{basepolicy.ConfigPath, basepolicy.LayersPath}, basepolicy.CodeownersPaths()...)
	texts, errs := make([][]byte, len(paths)), make([]error, len(paths))
	var wg sync.WaitGroup
	for i, path := range paths {
		wg.Add(1)
		go func() {
			defer wg.Done()
			texts[i], errs[i] = readPolicyFile(ctx, gh, owner, repo, at, path)
			if errs[i] != nil {
				errs[i] = fmt.Errorf("reading %s on %s: %s", path, ref, Describe(errs[i]))
			}
		}()
	}
	wg.Wait()
	for _, err := range errs[:2] {
		if err != nil {
			return nil, err
		}
	}
	f := basepolicy.Files{Config: texts[0], Layers: texts[1]}
	for i, path := range basepolicy.CodeownersPaths() {
		if errs[2+i] != nil {
			return nil, errs[2+i]
		}
		if texts[2+i] != nil {
			f.CodeownersPath, f.Codeowners = path, texts[2+i]
			break
		}
	}
	return basepolicy.Parse(at, f), nil
}

// ReadBaseConfig reads only the config file, at ref as given (a branch, or
// "" for the default branch), for a consumer that judges by nothing else
// and reads many bases (the inbox, the presence check's App): the same
// parse, refusal and words as ReadBasePolicy, and the same rule that only
// a 404 is a missing file. An error wraps GitHub's, so the caller can tell
// a missing token from a network failure.
func ReadBaseConfig(ctx context.Context, gh *github.Client, owner, repo, ref string) (*basepolicy.Policy, error) {
	raw, err := readPolicyFile(ctx, gh, owner, repo, ref, basepolicy.ConfigPath)
	if err != nil {
		where := "the default branch"
		if ref != "" {
			where = ref
		}
		return nil, fmt.Errorf("reading %s on %s of %s/%s: %w", basepolicy.ConfigPath, where, owner, repo, err)
	}
	return basepolicy.ParseConfig(raw), nil
}

// readPolicyFile reads one policy file at ref: nil, nil only when GitHub
// answered 404 (the file does not exist there).
func readPolicyFile(ctx context.Context, gh *github.Client, owner, repo, ref, path string) ([]byte, error) {
	data, err := ReadFile(ctx, gh, owner, repo, ref, path)
	switch {
	case IsNotFound(err):
		return nil, nil
	case err != nil:
		return nil, err
	}
	return data, nil
}

// ReadBaseLayers reads LAYERS.md at ref as given (a branch) and judges it
// with config, the config file's bytes the caller already read there
// (ReadBaseConfig's Raw), for a consumer that judges a footprint and
// nothing else (the inbox's plan-review card): the same parse and
// refusals as ReadBasePolicy, one conditional read, no CODEOWNERS. ship
// and aayu plan read the whole policy at one pinned tip with
// ReadBasePolicy.
func ReadBaseLayers(ctx context.Context, gh *github.Client, owner, repo, ref string, config []byte) (*basepolicy.Policy, error) {
	layers, err := readPolicyFile(ctx, gh, owner, repo, ref, basepolicy.LayersPath)
	if err != nil {
		return nil, fmt.Errorf("reading %s on %s of %s/%s: %w", basepolicy.LayersPath, ref, owner, repo, err)
	}
	return basepolicy.Parse("", basepolicy.Files{Config: config, Layers: layers}), nil
}
