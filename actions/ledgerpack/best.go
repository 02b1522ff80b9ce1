package ledgerpack

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"sort"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/internal/lazyre"
	"github.com/aayudha/aayu/proof"
)

// LedgerBranch is the branch packs live on (SPEC §4).
const LedgerBranch = "ledger"

// ErrNoPack is matched when the ledger holds no pack for the story.
var ErrNoPack = errors.New("the ledger holds no pack for this story")

// Caps bound what Load reads from the ledger. Zero fields mean defaults.
type Caps struct {
	Heads      int   // head folders considered; default 200
	Entries    int   // entries walked under one pack's artifacts/; default proof.DefaultArtifacts
	TotalBytes int64 // artifact bytes fetched in all; default 256 MiB (the ledger holds text)
}

func (c Caps) withDefaults() Caps {
	if c.Heads <= 0 {
		c.Heads = 200
	}
	if c.Entries <= 0 {
		c.Entries = proof.DefaultArtifacts
	}
	if c.TotalBytes <= 0 {
		c.TotalBytes = 256 << 20
	}
	return c
}

// Candidate is one pack of the story on the ledger.
type Candidate struct {
	Head      string    // the head folder's name (the pull request head the pack proves)
	Kind      string    // proof.AuthorityAuthoritative or proof.AuthorityAdvisory
	Path      string    // proof/STORY/HEAD/KIND on the ledger
	CreatedAt time.Time // the pack's created_at; zero when unreadable
	Problem   string    // why pack.json could not be read, when it could not
}

var headName = lazyre.New(`^[0-9a-f]{40}$`)

// Find lists the story's packs on the ledger, best first: authoritative
// before advisory, then newest created_at first, then (same second) the
// head folder whose name sorts last. See the package doc for why.
func Find(ctx context.Context, client *github.Client, owner, repo string, story int, caps Caps) ([]Candidate, error) {
	caps = caps.withDefaults()
	base := fmt.Sprintf("proof/%d", story)
	heads, err := ghx.ListTree(ctx, client, owner, repo, LedgerBranch, base)
	if ghx.IsNotFound(err) {
		return nil, fmt.Errorf("story %d: %w (nothing under %s on the %s branch)", story, ErrNoPack, base, LedgerBranch)
	}
	if err != nil {
		return nil, fmt.Errorf("listing story %d's packs on the ledger: %s", story, ghx.Describe(err))
	}
	var out []Candidate
	for i, h := range heads {
		if i >= caps.Heads {
			break
		}
		if h.Type != "dir" || !headName().MatchString(h.Name) {
			continue
		}
		kinds, err := ghx.ListTree(ctx, client, owner, repo, LedgerBranch, path.Join(base, h.Name))
		if err != nil {
			return nil, fmt.Errorf("listing %s/%s on the ledger: %s", base, h.Name, ghx.Describe(err))
		}
		for _, k := range kinds {
			if k.Type != "dir" || (k.Name != proof.AuthorityAuthoritative && k.Name != proof.AuthorityAdvisory) {
				continue
			}
			c := Candidate{Head: h.Name, Kind: k.Name, Path: path.Join(base, h.Name, k.Name)}
			c.CreatedAt, c.Problem, err = createdAt(ctx, client, owner, repo, c.Path)
			if err != nil {
				return nil, err
			}
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("story %d: %w (no authoritative/ or advisory/ folder under %s)", story, ErrNoPack, base)
	}
	sort.SliceStable(out, func(i, j int) bool { return better(out[i], out[j]) })
	return out, nil
}

// better ranks a above b: authoritative first, then newer, then the head
// folder name that sorts last.
func better(a, b Candidate) bool {
	if (a.Kind == proof.AuthorityAuthoritative) != (b.Kind == proof.AuthorityAuthoritative) {
		return a.Kind == proof.AuthorityAuthoritative
	}
	if !a.CreatedAt.Equal(b.CreatedAt) {
		return a.CreatedAt.After(b.CreatedAt)
	}
	return a.Head > b.Head
}

// createdAt reads a candidate's pack.json for its created_at. A pack.json
// that is missing, too large or not a valid pack is a problem of that
// candidate, not an error: the ledger is read, never trusted.
func createdAt(ctx context.Context, client *github.Client, owner, repo, dir string) (time.Time, string, error) {
	raw, err := ghx.ReadFile(ctx, client, owner, repo, LedgerBranch, dir+"/pack.json")
	if ghx.IsNotFound(err) {
		return time.Time{}, "it has no pack.json", nil
	}
	if err != nil {
		return time.Time{}, "", fmt.Errorf("reading %s/pack.json on the ledger: %s", dir, ghx.Describe(err))
	}
	p, err := proof.Decode(raw)
	if err != nil {
		return time.Time{}, "its pack.json is not a valid pack: " + err.Error(), nil
	}
	t, err := time.Parse(time.RFC3339, p.CreatedAt)
	if err != nil {
		return time.Time{}, "its created_at is not a time", nil
	}
	return t, "", nil
}

// Loaded is a ledger pack fetched into a pack folder, with the outside
// facts it is verified against.
type Loaded struct {
	Candidate
	Dir    string      // the pack folder: pack.json and artifacts/…
	Others []Candidate // the story's other packs, best first
	// Ready is the story's Ready snapshot from the ledger; nil with
	// ReadyProblem saying why when it is missing or unreadable.
	Ready        *proof.Ready
	ReadyProblem string
	// PR is the pull request the pack names and PRHead its current head;
	// PRHead is "" with HeadProblem saying why when it cannot be read.
	PR          int
	PRHead      string
	HeadProblem string
}

// Load finds the story's best pack and fetches it into dir (created; it
// must not exist yet), with the Ready snapshot and the pull request's
// current head.
func Load(ctx context.Context, client *github.Client, owner, repo string, story int, dir string, caps Caps) (*Loaded, error) {
	caps = caps.withDefaults()
	all, err := Find(ctx, client, owner, repo, story, caps)
	if err != nil {
		return nil, err
	}
	l := &Loaded{Candidate: all[0], Dir: dir, Others: all[1:]}
	p, err := fetchPack(ctx, client, owner, repo, l.Path, dir, caps)
	if err != nil {
		return nil, err
	}
	l.Ready, l.ReadyProblem, err = ReadReady(ctx, client, owner, repo, story)
	if err != nil {
		return nil, err
	}
	if p != nil {
		l.PR = p.PR
	}
	l.PRHead, l.HeadProblem, err = prHead(ctx, client, owner, repo, l.PR)
	if err != nil {
		return nil, err
	}
	return l, nil
}

// ReadReady reads specs/STORY/ready.md from the ledger. A snapshot that is
// missing, too large or unreadable gives a nil Ready and the reason in
// words; only a failure to reach GitHub is an error.
func ReadReady(ctx context.Context, client *github.Client, owner, repo string, story int) (*proof.Ready, string, error) {
	name := fmt.Sprintf("specs/%d/ready.md", story)
	b, err := ghx.ReadFile(ctx, client, owner, repo, LedgerBranch, name)
	switch {
	case ghx.IsNotFound(err):
		return nil, fmt.Sprintf("The ledger has no Ready snapshot %s, so the criteria and the Completion Goal hash were not checked.", name), nil
	case err != nil:
		return nil, "", fmt.Errorf("reading %s on the ledger: %s", name, ghx.Describe(err))
	case len(b) > proof.MaxReadyBytes:
		return nil, fmt.Sprintf("The Ready snapshot %s is larger than %d bytes and was not read.", name, proof.MaxReadyBytes), nil
	}
	r, err := proof.ParseReady(b)
	if err != nil {
		return nil, fmt.Sprintf("The Ready snapshot %s is not valid (%v), so the criteria and the Completion Goal hash were not checked.", name, err), nil
	}
	return r, "", nil
}

// prHead reads the pull request's current head.
func prHead(ctx context.Context, client *github.Client, owner, repo string, pr int) (string, string, error) {
	if pr <= 0 {
		return "", "The pack names no pull request, so its head could not be compared with one.", nil
	}
	pull, _, err := client.PullRequests.Get(ctx, owner, repo, pr)
	if ghx.IsNotFound(err) {
		return "", fmt.Sprintf("Pull request #%d was not found, so the pack's head could not be compared with its current head.", pr), nil
	}
	if err != nil {
		return "", "", fmt.Errorf("reading pull request #%d: %s", pr, ghx.Describe(err))
	}
	return pull.GetHead().GetSHA(), "", nil
}

// fetchPack writes the ledger folder src into dir in the pack-folder
// layout. It returns the decoded pack, or nil when pack.json is not a
// valid pack (then only pack.json is written, and verification reports
// why). Artifacts are fetched only when their path is clean, their file is
// on the ledger, and the caps allow; one whose ledger file is larger than
// pack.json declares is not downloaded but stood in for by a sparse file of
// the ledger's size, so verification reports the size that lies without
// aayu reading it.
func fetchPack(ctx context.Context, client *github.Client, owner, repo, src, dir string, caps Caps) (*proof.Pack, error) {
	raw, err := ghx.ReadFile(ctx, client, owner, repo, LedgerBranch, src+"/pack.json")
	if err != nil {
		return nil, fmt.Errorf("reading %s/pack.json on the ledger: %s", src, ghx.Describe(err))
	}
	if _, err := os.Lstat(dir); err == nil {
		return nil, fmt.Errorf("fetching the ledger pack: %s already exists", dir)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("fetching the ledger pack: %w", err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("fetching the ledger pack: %w", err)
	}
	defer root.Close()
	if err := root.WriteFile("pack.json", raw, 0o600); err != nil {
		return nil, fmt.Errorf("fetching the ledger pack: %w", err)
	}
	p, err := proof.Decode(raw)
	if err != nil {
		return nil, nil
	}
	files, err := walkFiles(ctx, client, owner, repo, LedgerBranch, src+"/artifacts", caps.Entries)
	if err != nil {
		return nil, fmt.Errorf("listing %s/artifacts on the ledger: %s", src, ghx.Describe(err))
	}
	var total int64
	for _, a := range p.Artifacts {
		e, ok := files[a.Path]
		if !ok || e.Type != "file" || proof.CheckPath(a.Path) != nil {
			continue // verification reports it missing or refuses the path
		}
		name := "artifacts/" + a.Path
		if err := root.MkdirAll(path.Dir(name), 0o700); err != nil {
			return nil, fmt.Errorf("fetching %s: %w", name, err)
		}
		if e.Size > a.Size {
			if err := sparse(root, name, e.Size); err != nil {
				return nil, err
			}
			continue
		}
		total += e.Size
		if total > caps.TotalBytes {
			return nil, fmt.Errorf("the ledger pack %s holds more than %d bytes of artifacts; aayu fetches no more", src, caps.TotalBytes)
		}
		b, err := ghx.ReadFile(ctx, client, owner, repo, LedgerBranch, src+"/"+name)
		if err != nil {
			return nil, fmt.Errorf("reading %s/%s on the ledger: %s", src, name, ghx.Describe(err))
		}
		if int64(len(b)) > a.Size+1 {
			b = b[:a.Size+1] // enough to show the size lies; never more
		}
		if err := root.WriteFile(name, b, 0o600); err != nil {
			return nil, fmt.Errorf("fetching %s: %w", name, err)
		}
	}
	return p, nil
}

func sparse(root *os.Root, name string, size int64) error {
	f, err := root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("fetching %s: %w", name, err)
	}
	if err := f.Truncate(size); err != nil {
		f.Close()
		return fmt.Errorf("fetching %s: %w", name, err)
	}
	return f.Close()
}

// describeCandidate is one candidate in words, for the screen's notes.
func describeCandidate(c Candidate) string {
	s := c.Kind + " pack at " + c.Path
	if !c.CreatedAt.IsZero() {
		s += ", created " + c.CreatedAt.UTC().Format(time.RFC3339)
	}
	if c.Problem != "" {
		s += " (" + c.Problem + ")"
	}
	return s
}

// String is the candidate in words.
func (c Candidate) String() string { return describeCandidate(c) }
