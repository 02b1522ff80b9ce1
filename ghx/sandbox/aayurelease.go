package sandbox

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/aayudha/aayu/ghx/sandbox/vsigstore"
	"github.com/aayudha/aayu/model/gaterun"
)

// aayu's own repository, whose newest release `aayu self-update` reads:
// the sandbox serves one release of it, its files attested by the
// repository's release workflow at the release's tag through the virtual
// Sigstore, so the whole self-update runs offline against the same checks
// as on GitHub. Only the three reads self-update makes are served, for
// this one repository (a literal path, more specific than the demo's
// {owner}/{repo} routes, so either is served unchanged).
const (
	AayuOwner = "aayudha"
	AayuRepo  = "aayu"
	// AayuReleaseTag is the tag of the release served unless
	// Options.AayuRelease names another.
	AayuReleaseTag = "v0.99.0"
	// AayuReleaseWorkflow is the workflow that attests the release's files.
	AayuReleaseWorkflow = gaterun.ReleaseWorkflowPath
	aayuRepoID          = 70100
	aayuOwnerID         = 901
	aayuReleaseID       = 880001
	aayuAssetBase       = 8800010 // the first file's id; the others follow
	aayuRepoPath        = "/repos/" + AayuOwner + "/" + AayuRepo
)

// AayuRelease is the release of aayu the sandbox serves as aayudha/aayu's
// newest.
type AayuRelease struct {
	Tag string // "" is AayuReleaseTag
	// Files are the release's files by name (aayu_linux_amd64, …). Nil is
	// one file for this machine's platform holding the program the
	// sandbox runs in, so `aayu --sandbox self-update` finds aayu current.
	Files map[string][]byte
}

// aayuFile is one file of the served release: the bytes served (Tamper
// changes them), the digest GitHub recorded at upload, and the bundles
// listed under digests.
type aayuFile struct {
	id       int64
	name     string
	served   []byte
	recorded string // hex sha256 of the bytes uploaded
	bundles  map[string][][]byte
}

type aayuRel struct {
	tag     string
	created time.Time
	files   []*aayuFile
}

// aayuRelease builds the served release once, attesting each file as the
// release workflow's run at the tag would; call with s.mu held.
func (s *Server) aayuRelease() (*aayuRel, error) {
	if s.aayu != nil {
		return s.aayu, nil
	}
	spec := AayuRelease{}
	if s.opts.AayuRelease != nil {
		spec = *s.opts.AayuRelease
	}
	if spec.Tag == "" {
		spec.Tag = AayuReleaseTag
	}
	files := spec.Files
	if files == nil {
		exe, err := os.Executable()
		if err != nil {
			return nil, err
		}
		b, err := os.ReadFile(exe)
		if err != nil {
			return nil, err
		}
		files = map[string][]byte{aayuAssetName(runtime.GOOS, runtime.GOARCH): b}
	}
	rel := &aayuRel{tag: spec.Tag, created: s.now()}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	slices.Sort(names)
	for i, n := range names {
		sum := sha256.Sum256(files[n])
		f := &aayuFile{id: int64(aayuAssetBase + i), name: n, served: files[n], recorded: hex.EncodeToString(sum[:]), bundles: map[string][][]byte{}}
		if err := s.attestAayuFile(rel, f, nil); err != nil {
			return nil, err
		}
		rel.files = append(rel.files, f)
	}
	s.aayu = rel
	return rel, nil
}

func aayuAssetName(goos, goarch string) string {
	name := "aayu_" + goos + "_" + goarch
	if goos == "windows" {
		name += ".exe"
	}
	return name
}

// aayuClaims are the claims GitHub gives aayudha/aayu's release workflow
// run for the release's tag push.
func aayuClaims(tag string) vsigstore.Claims {
	return vsigstore.Claims{Repository: AayuOwner + "/" + AayuRepo, RepositoryID: aayuRepoID, OwnerID: aayuOwnerID,
		WorkflowPath: AayuReleaseWorkflow, Ref: "refs/tags/" + tag, SHA: strings.Repeat("a", 40), Event: "push",
		RunID: 40000000001, RunAttempt: 1, Visibility: "public"}
}

// attestAayuFile signs f's uploaded bytes as actions/attest-build-
// provenance does (SLSA provenance v1 naming the file and its sha256),
// with the claims changed by edit, in place of f's earlier bundles.
func (s *Server) attestAayuFile(rel *aayuRel, f *aayuFile, edit func(*vsigstore.Claims)) error {
	c := aayuClaims(rel.tag)
	if edit != nil {
		edit(&c)
	}
	predicate, err := json.Marshal(map[string]any{
		"buildDefinition": map[string]any{
			"buildType": "https://actions.github.io/buildtypes/workflow/v1",
			"externalParameters": map[string]any{"workflow": map[string]any{
				"ref": c.Ref, "repository": "https://github.com/" + c.Repository, "path": c.WorkflowPath}},
		},
		"runDetails": map[string]any{"builder": map[string]any{"id": "https://github.com/actions/runner/github-hosted"}},
	})
	if err != nil {
		return err
	}
	uploaded := f.served
	if sum := sha256.Sum256(uploaded); hex.EncodeToString(sum[:]) != f.recorded {
		return fmt.Errorf("the served bytes of %s were changed; attest before tampering", f.name)
	}
	st, err := vsigstore.ActionsStatement(f.name, uploaded, "https://slsa.dev/provenance/v1", predicate)
	if err != nil {
		return err
	}
	b, err := s.sig.Attest(st, c)
	if err != nil {
		return err
	}
	f.bundles = map[string][][]byte{"sha256:" + f.recorded: {b}}
	return nil
}

// aayuFileNamed is the served release's file called name; call with s.mu
// held.
func (s *Server) aayuFileNamed(name string) (*aayuRel, *aayuFile, error) {
	rel, err := s.aayuRelease()
	if err != nil {
		return nil, nil, err
	}
	for _, f := range rel.files {
		if f.name == name {
			return rel, f, nil
		}
	}
	return nil, nil, fmt.Errorf("the sandbox's aayu release has no file %s", name)
}

// AttestAayuRelease signs the served release's file name anew with the
// claims changed by edit, in place of its attestation: for tests of an
// attestation another repository, workflow or ref made.
func (s *Server) AttestAayuRelease(name string, edit func(*vsigstore.Claims)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	rel, f, err := s.aayuFileNamed(name)
	if err != nil {
		return err
	}
	return s.attestAayuFile(rel, f, edit)
}

// UnattestAayuRelease removes every attestation of the served release's
// file name: a release its workflow never attested.
func (s *Server) UnattestAayuRelease(name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, f, err := s.aayuFileNamed(name)
	if err != nil {
		return err
	}
	f.bundles = map[string][][]byte{}
	return nil
}

// TamperAayuRelease serves b as the file name from now on, while GitHub's
// record of the file (its digest) and its attestation stay those of the
// bytes uploaded: a file changed where it is stored.
func (s *Server) TamperAayuRelease(name string, b []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, f, err := s.aayuFileNamed(name)
	if err != nil {
		return err
	}
	f.served = b
	return nil
}

func (s *Server) routeAayuRelease(api, web *http.ServeMux) {
	api.HandleFunc("GET "+aayuRepoPath+"/releases/latest", s.getAayuLatestRelease)
	api.HandleFunc("GET "+aayuRepoPath+"/releases/assets/{asset_id}", s.getAayuReleaseAsset)
	api.HandleFunc("GET "+aayuRepoPath+"/attestations/{digest}", s.listAayuAttestations)
	web.HandleFunc("GET /_blob/releases/{id}", s.handleAayuBlob)
}

// getAayuLatestRelease answers repos/get-latest-release with the one
// release (a full release: not a draft, not a prerelease).
func (s *Server) getAayuLatestRelease(w http.ResponseWriter, r *http.Request) {
	rel, err := s.aayuRelease()
	if err != nil {
		writeError(w, http.StatusInternalServerError, "Server Error: "+err.Error())
		return
	}
	base := strings.TrimSuffix(baseURL(r), "/")
	api := base + aayuRepoPath
	web := base + "/" + AayuOwner + "/" + AayuRepo
	assets := make([]map[string]any, 0, len(rel.files))
	for _, f := range rel.files {
		assets = append(assets, s.aayuAssetJSON(base, web, rel, f))
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"url": fmt.Sprintf("%s/releases/%d", api, aayuReleaseID), "html_url": web + "/releases/tag/" + rel.tag,
		"assets_url":  fmt.Sprintf("%s/releases/%d/assets", api, aayuReleaseID),
		"upload_url":  fmt.Sprintf("%s/releases/%d/assets{?name,label}", api, aayuReleaseID),
		"tarball_url": api + "/tarball/" + rel.tag, "zipball_url": api + "/zipball/" + rel.tag,
		"id": aayuReleaseID, "node_id": nodeID("RE", aayuReleaseID), "tag_name": rel.tag, "target_commitish": "main",
		"name": "aayu " + rel.tag, "body": "aayu " + rel.tag, "draft": false, "prerelease": false,
		"created_at": ts(rel.created), "published_at": ts(rel.created),
		"author": userJSON(base, ActionsBotLogin), "assets": assets,
	})
}

// aayuAssetJSON is GitHub's release-asset for f; its digest is the one
// recorded at upload ("sha256:HEX").
func (s *Server) aayuAssetJSON(base, web string, rel *aayuRel, f *aayuFile) map[string]any {
	return map[string]any{
		"url": fmt.Sprintf("%s%s/releases/assets/%d", base, aayuRepoPath, f.id), "id": f.id, "node_id": nodeID("RA", f.id),
		"browser_download_url": web + "/releases/download/" + rel.tag + "/" + f.name,
		"name":                 f.name, "label": "", "state": "uploaded", "content_type": "application/octet-stream",
		"size": len(f.served), "digest": "sha256:" + f.recorded, "download_count": 0,
		"created_at": ts(rel.created), "updated_at": ts(rel.created), "uploader": userJSON(base, ActionsBotLogin),
	}
}

// getAayuReleaseAsset answers repos/get-release-asset: the asset's JSON,
// or with Accept: application/octet-stream a 302 to a signed download
// valid for a minute ("The API will either redirect the client to the
// location, or stream it directly if possible").
func (s *Server) getAayuReleaseAsset(w http.ResponseWriter, r *http.Request) {
	rel, err := s.aayuRelease()
	if err != nil {
		writeError(w, http.StatusInternalServerError, "Server Error: "+err.Error())
		return
	}
	id, _ := strconv.ParseInt(r.PathValue("asset_id"), 10, 64)
	base := strings.TrimSuffix(baseURL(r), "/")
	for _, f := range rel.files {
		if f.id != id {
			continue
		}
		if r.Header.Get("Accept") != "application/octet-stream" {
			writeJSON(w, http.StatusOK, s.aayuAssetJSON(base, base+"/"+AayuOwner+"/"+AayuRepo, rel, f))
			return
		}
		exp := s.now().Add(time.Minute).Unix()
		w.Header().Set("Location", fmt.Sprintf("%s/_blob/releases/%d?exp=%d&sig=%s", base, f.id, exp, s.blobSig(f.id, exp)))
		w.WriteHeader(http.StatusFound)
		return
	}
	notFound(w)
}

// handleAayuBlob serves a signed release download, as blob storage does:
// no GitHub token wanted, the signature and its expiry checked.
func (s *Server) handleAayuBlob(w http.ResponseWriter, r *http.Request) {
	id, ok := s.signedBlob(w, r)
	if !ok {
		return
	}
	rel, err := s.aayuRelease()
	if err != nil {
		blobText(w, http.StatusInternalServerError, err.Error())
		return
	}
	for _, f := range rel.files {
		if f.id == id {
			w.Header().Set("Content-Type", "application/octet-stream")
			w.Header().Set("Content-Length", strconv.Itoa(len(f.served)))
			_, _ = w.Write(f.served)
			return
		}
	}
	blobText(w, http.StatusNotFound, "BlobNotFound")
}

// listAayuAttestations answers repos/list-attestations for aayudha/aayu:
// the bundles listed under the digest, or GitHub's 404 for a digest
// nothing attests (as listAttestations).
func (s *Server) listAayuAttestations(w http.ResponseWriter, r *http.Request) {
	rel, err := s.aayuRelease()
	if err != nil {
		writeError(w, http.StatusInternalServerError, "Server Error: "+err.Error())
		return
	}
	digest := strings.ToLower(r.PathValue("digest"))
	out := []map[string]any{}
	for _, f := range rel.files {
		for _, b := range f.bundles[digest] {
			out = append(out, map[string]any{"bundle": json.RawMessage(b), "repository_id": aayuRepoID})
		}
	}
	if len(out) == 0 {
		writeErrorDoc(w, http.StatusNotFound, "Not Found", "https://docs.github.com/rest/repos/repos#list-attestations")
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"attestations": out})
}
