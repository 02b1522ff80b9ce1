package ledgerpack

import (
	"context"
	"crypto/sha1" // git names blobs by SHA-1; used only to compare with the ledger's tree
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions"
	"github.com/aayudha/aayu/actions/gatecomment"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/gitsha"
	"github.com/aayudha/aayu/proof"
)

// ErrCIPush is matched when a push is asked for under --ci: CI writes
// nothing to the ledger.
var ErrCIPush = errors.New("aayu proof push refuses --ci: CI writes nothing to the ledger")

// ErrPackIntegrity is matched when the local pack's own bytes or paths do
// not hold up, so there is nothing honest to land.
var ErrPackIntegrity = errors.New("the local pack does not hold together")

// PushOptions shape an advisory push.
type PushOptions struct {
	CI bool // --ci: always refused
	// MediaBucket is [proof] media. Without one, a pack whose media would be
	// stored (git, lfs or bucket) is refused with proof.ErrMediaRefused.
	// Without Media, media land on the ledger as store none (hash and size
	// only), as ship lands them.
	MediaBucket string
	// Media, when set (aayu proof push --media with a bucket), receives a
	// copy of every media file the local pack holds, before the ledger
	// commit; the ledger copy then says store bucket and names the object.
	// Media whose bytes the local pack lacks stay store none.
	Media MediaStore
	// Login is who pushes; "" asks GitHub (gatecomment.Login).
	Login string
	// Log, when set, gets one record of the push.
	Log *actions.Log
	// Trailers end the ledger commit's message: ghx.HumanFallbackTrailer
	// when an agent lane pushes under the person's token (seed 001, "the
	// fallback tag is not decoration"), so aayu audit lists the write.
	Trailers []string
	Now      func() time.Time
}

// MediaStore is where --media copies media: a private bucket. Put stores
// one artifact's bytes (already checked against sha256) and returns the
// object key.
type MediaStore interface {
	Put(ctx context.Context, story int, head, artifact string, body []byte, sha256 string) (key string, err error)
}

// Pushed is what landed.
type Pushed struct {
	Path   string // proof/STORY/HEAD/advisory on the ledger
	Commit string // the ledger commit
	Files  int    // files written (pack.json and data artifacts)
	// Unchanged: the ledger already held exactly these files there, so no
	// commit was made (Commit is empty).
	Unchanged bool
	// Media are the objects copied to the bucket, artifact path → key.
	Media      map[string]string
	Removed    int    // stale files of an earlier push to the same folder
	PackSHA256 string // of the pack.json that landed
	Report     *proof.Report
	Comment    gatecomment.Upserted
	// CommentProblem says why no comment was kept, when none was; the
	// pack has landed all the same.
	CommentProblem string
}

// integrityCodes are the problems that mean the local pack's own bytes or
// paths are wrong. Criteria, goal and head problems are not among them: an
// advisory pack is a preview and may land without verifying.
var integrityCodes = map[proof.Code]bool{
	proof.CodeHashMismatch: true, proof.CodeSizeMismatch: true, proof.CodeMissingFile: true,
	proof.CodeDuplicatePath: true, proof.CodeUncleanPath: true, proof.CodeAbsolutePath: true,
	proof.CodeBackslashPath: true, proof.CodeEscapingPath: true, proof.CodeNotRegular: true,
	proof.CodeTooLarge: true, proof.CodeNewerSchema: true, proof.CodeSchema: true,
	proof.CodeDuplicateKey: true, proof.CodeMalformed: true, proof.CodeBadHash: true,
}

// PushAdvisory lands the local pack folder dir on the ledger as advisory:
// proof/STORY/HEAD/advisory/pack.json and artifacts/P for each data
// artifact, in one commit through the Git Data API (never forced), with
// authority advisory and the writer "LOGIN (aayu proof push)" whatever the
// local pack claimed, in its ledger form (media as store none). Files of an
// earlier push to the same folder that this pack no longer lists are
// removed in the same commit. Before anything is written it refuses --ci
// (ErrCIPush), media that would be stored without a bucket
// (proof.ErrMediaRefused), and a pack whose bytes or paths do not hold up
// (ErrPackIntegrity). Then it keeps its own comment on the pull request
// the pack names, under gatecomment.AdvisoryMarker, so it never replaces
// the merge gate's comment.
func PushAdvisory(ctx context.Context, client *github.Client, owner, repo, dir string, opts PushOptions) (*Pushed, error) {
	if opts.CI {
		return nil, ErrCIPush
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	p, _, err := proof.ReadPackDir(dir, proof.Limits{})
	if err != nil {
		return nil, fmt.Errorf("%w: %s/pack.json cannot be read: %v; nothing was pushed", ErrPackIntegrity, dir, err)
	}
	if p.Story <= 0 || !headName().MatchString(p.PRHeadSHA) {
		return nil, fmt.Errorf("%w: the pack names story %d and head %q; a ledger folder needs a story and a 40-digit head; nothing was pushed", ErrPackIntegrity, p.Story, gitsha.Short(p.PRHeadSHA))
	}
	if opts.Media == nil {
		if err := proof.CheckMediaStore(p.Artifacts, opts.MediaBucket); err != nil {
			return nil, fmt.Errorf("%w; nothing was pushed", err)
		}
	}
	check, err := proof.VerifyDir(ctx, dir, proof.Options{})
	if err != nil {
		return nil, fmt.Errorf("checking the local pack %s: %w; nothing was pushed", dir, err)
	}
	var broken []string
	for _, pr := range check.Problems {
		if integrityCodes[pr.Code] {
			broken = append(broken, pr.Message)
		}
	}
	if len(broken) > 0 {
		return nil, fmt.Errorf("%w: %s; nothing was pushed", ErrPackIntegrity, strings.Join(broken, " "))
	}
	login := opts.Login
	if login == "" {
		if login, err = gatecomment.Login(ctx, client); err != nil {
			return nil, err
		}
	}

	landed := proof.LedgerCopy(*p)
	landed.Authority = proof.Authority{Kind: proof.AuthorityAdvisory, Writer: login + " (aayu proof push)"}
	media, err := copyMedia(ctx, opts.Media, dir, p, &landed)
	if err != nil {
		return nil, err
	}
	raw, err := proof.Encode(&landed)
	if err != nil {
		return nil, fmt.Errorf("encoding the ledger copy of the pack: %w; nothing was pushed", err)
	}
	prefix := fmt.Sprintf("proof/%d/%s/advisory", landed.Story, landed.PRHeadSHA)
	files, err := dataFiles(dir, prefix, landed)
	if err != nil {
		return nil, err
	}
	files[prefix+"/pack.json"] = raw
	out := &Pushed{Path: prefix, Files: len(files), Media: media}
	stale, err := walkFiles(ctx, client, owner, repo, LedgerBranch, prefix, proof.DefaultArtifacts+16)
	if err != nil {
		return nil, fmt.Errorf("reading the ledger's earlier copy of %s: %s Nothing was pushed", prefix, ghx.Describe(err))
	}
	if sameOnLedger(files, stale, prefix) {
		// The same pack pushed again: a commit would change nothing but
		// the ledger's history, so none is made; the comment is still kept.
		raw := files[prefix+"/pack.json"]
		sum := sha256.Sum256(raw)
		out.PackSHA256, out.Unchanged = hex.EncodeToString(sum[:]), true
		logPush(opts, owner, repo, landed, login, out, nil)
		out.Report, out.Comment, out.CommentProblem = advisoryComment(ctx, client, owner, repo, dir, &landed, raw, login)
		return out, nil
	}
	for rel := range stale {
		if _, keep := files[prefix+"/"+rel]; !keep {
			files[prefix+"/"+rel] = nil
			out.Removed++
		}
	}
	msg := fmt.Sprintf("ledger: advisory pack for story %d (head %s)\n\nPushed by %s with aayu proof push. Advisory: it never counts for ship.", landed.Story, gitsha.Short(landed.PRHeadSHA), login)
	out.Commit, err = ghx.CommitFiles(ctx, client, owner, repo, LedgerBranch, files, msg, ghx.CommitOptions{Trailers: opts.Trailers})
	sum := sha256.Sum256(raw)
	out.PackSHA256 = hex.EncodeToString(sum[:])
	logPush(opts, owner, repo, landed, login, out, err)
	if err != nil {
		return nil, fmt.Errorf("landing the advisory pack on the ledger: %s", ghx.Describe(err))
	}
	out.Report, out.Comment, out.CommentProblem = advisoryComment(ctx, client, owner, repo, dir, &landed, raw, login)
	return out, nil
}

// copyMedia copies every media file the local pack holds to the bucket,
// each read through an os.Root and checked against its hash as it is read,
// and makes the ledger copy say store bucket with the object's key. It
// runs before the ledger commit: an object without a ledger record is
// harmless (the bucket's lifecycle rule expires it), a ledger record
// naming an object that never landed is not.
func copyMedia(ctx context.Context, store MediaStore, dir string, local *proof.Pack, landed *proof.Pack) (map[string]string, error) {
	if store == nil {
		return nil, nil
	}
	root, err := os.OpenRoot(path.Join(dir, "artifacts"))
	if err != nil {
		return nil, nil // no artifacts folder: no media bytes to copy
	}
	defer root.Close()
	copied := map[string]string{}
	for i, a := range local.Artifacts {
		if !proof.IsMedia(a) || a.Tombstone != nil {
			continue
		}
		if _, err := root.Lstat(a.Path); errors.Is(err, fs.ErrNotExist) {
			continue // kept by hash only, as the pack says
		}
		b, err := readArtifact(root, a)
		if err != nil {
			return nil, fmt.Errorf("%w: %v; nothing was pushed", ErrPackIntegrity, err)
		}
		key, err := store.Put(ctx, local.Story, local.PRHeadSHA, a.Path, b, a.SHA256)
		if err != nil {
			return nil, fmt.Errorf("%w; the ledger was not touched", err)
		}
		landed.Artifacts[i].Store, landed.Artifacts[i].Object = proof.StoreBucket, key
		copied[a.Path] = key
	}
	return copied, nil
}

// sameOnLedger reports whether every file to write is already on the
// ledger with the same bytes (compared by git blob SHA) and nothing else
// is in the folder.
func sameOnLedger(files map[string][]byte, onLedger map[string]ghx.TreeEntry, prefix string) bool {
	if len(files) != len(onLedger) {
		return false
	}
	for name, b := range files {
		e, ok := onLedger[strings.TrimPrefix(name, prefix+"/")]
		if !ok || e.SHA != gitBlobSHA(b) {
			return false
		}
	}
	return true
}

// gitBlobSHA is the SHA-1 git names a blob of b by.
func gitBlobSHA(b []byte) string {
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", len(b))
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil))
}

// dataFiles reads the bytes of every data artifact the ledger copy stores
// (git or lfs), through an os.Root, regular files only, each checked
// against its hash again as it is read.
func dataFiles(dir, prefix string, landed proof.Pack) (map[string][]byte, error) {
	root, err := os.OpenRoot(path.Join(dir, "artifacts"))
	if err != nil && len(landed.Artifacts) > 0 {
		return nil, fmt.Errorf("%w: opening %s/artifacts: %v; nothing was pushed", ErrPackIntegrity, dir, err)
	}
	files := map[string][]byte{}
	if root == nil {
		return files, nil
	}
	defer root.Close()
	for _, a := range landed.Artifacts {
		if a.Store != proof.StoreGit && a.Store != proof.StoreLFS {
			continue
		}
		b, err := readArtifact(root, a)
		if err != nil {
			return nil, fmt.Errorf("%w: %v; nothing was pushed", ErrPackIntegrity, err)
		}
		files[prefix+"/artifacts/"+a.Path] = b
	}
	return files, nil
}

func readArtifact(root *os.Root, a proof.Artifact) ([]byte, error) {
	fi, err := root.Lstat(a.Path)
	if err != nil {
		return nil, fmt.Errorf("artifact %s: %v", a.Path, err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("artifact %s is not a regular file", a.Path)
	}
	f, err := root.Open(a.Path)
	if err != nil {
		return nil, fmt.Errorf("artifact %s: %v", a.Path, err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, a.Size+1))
	if err != nil {
		return nil, fmt.Errorf("artifact %s: %v", a.Path, err)
	}
	sum := sha256.Sum256(b)
	if int64(len(b)) != a.Size || hex.EncodeToString(sum[:]) != a.SHA256 {
		return nil, fmt.Errorf("artifact %s changed while it was being pushed", a.Path)
	}
	return b, nil
}

// advisoryComment verifies the pack as it landed against the ledger's
// Ready snapshot and the pull request's current head, and keeps the
// advisory comment on the pull request. Failing here never undoes the
// push; the reason comes back in words.
func advisoryComment(ctx context.Context, client *github.Client, owner, repo, dir string, landed *proof.Pack, raw []byte, login string) (*proof.Report, gatecomment.Upserted, string) {
	if landed.PR <= 0 {
		return nil, gatecomment.Upserted{}, "the pack names no pull request, so no comment was written"
	}
	ready, _, err := ReadReady(ctx, client, owner, repo, landed.Story)
	if err != nil {
		return nil, gatecomment.Upserted{}, "no comment was written: " + err.Error()
	}
	head, _, err := prHead(ctx, client, owner, repo, landed.PR)
	if err != nil {
		return nil, gatecomment.Upserted{}, "no comment was written: " + err.Error()
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, gatecomment.Upserted{}, "no comment was written: " + err.Error()
	}
	defer root.Close()
	report, err := proof.Verify(ctx, landed, raw, fs.FS(root.FS()), proof.Options{Ready: ready, HeadSHA: head, Story: landed.Story, PR: landed.PR})
	if err != nil {
		return nil, gatecomment.Upserted{}, "no comment was written: " + err.Error()
	}
	body := gatecomment.Body(report, gatecomment.BodyOptions{
		Marker:  gatecomment.AdvisoryMarker,
		Heading: "Advisory pack (aayu proof push)",
		Note: "Pushed by " + login + " from a laptop or an agent lane. An advisory pack is a preview: it never counts for ship, " +
			"and the merge gate's own comment is the one that decides.",
	})
	up, err := gatecomment.Upsert(ctx, client, owner, repo, landed.PR, gatecomment.AdvisoryMarker, body, login)
	if err != nil {
		return report, gatecomment.Upserted{}, "no comment was written: " + err.Error()
	}
	return report, up, ""
}

func logPush(opts PushOptions, owner, repo string, p proof.Pack, login string, out *Pushed, err error) {
	if opts.Log == nil {
		return
	}
	rec := actions.Record{Time: opts.Now(), Command: fmt.Sprintf("proof push %d", p.Story), Repo: owner + "/" + repo,
		Item: fmt.Sprintf("#%d", p.PR), Who: login, Outcome: actions.OutcomeDone,
		Writes: []string{fmt.Sprintf("ledger: %d files under %s (advisory), %d stale removed", out.Files, out.Path, out.Removed)}}
	if out.Unchanged {
		rec.Writes = []string{"ledger: " + out.Path + " already held this pack; nothing committed"}
	}
	if len(out.Media) > 0 {
		rec.Writes = append(rec.Writes, fmt.Sprintf("media bucket: %d objects copied", len(out.Media)))
	}
	if err != nil {
		rec.Outcome, rec.Writes, rec.Detail = actions.OutcomeFailed, nil, ghx.Describe(err)
	}
	_ = opts.Log.Append(rec) // the push stands or fails on its own; a log that cannot be written is not a reason to undo it
}
