package pack

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"image/png"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/aayudha/aayu/proof"
	"github.com/aayudha/aayu/tui"
)

// mediaMaxBytes bounds a media file the viewer reads to show or open: a
// larger one is refused in words, never read whole into memory.
const mediaMaxBytes = 128 << 20

// maxImagePixels bounds a PNG's declared size before it is decoded, so a
// small file claiming a huge image cannot take the memory.
const maxImagePixels = 40 << 20

// errMediaMismatch is wrapped by every refusal of bytes that are not the
// ones pack.json records: they are never shown or opened.
var errMediaMismatch = errors.New("does not match the sha256 and size pack.json records for it")

// errNotInPack: the artifact's file is not in the pack folder.
var errNotInPack = errors.New("not in the pack folder")

// isMedia is proof's one rule for media (kind screenshot, recording or
// sr-transcript, or an image, video, audio or PDF file), never a second
// copy of it here.
func isMedia(a proof.Artifact) bool { return proof.IsMedia(a) }

// isPNG says whether the artifact's path names a PNG, the one image kind
// the viewer draws inline; its bytes are decoded as PNG before that.
func isPNG(a proof.Artifact) bool { return strings.EqualFold(path.Ext(a.Path), ".png") }

// mediaMsg brings a media artifact's bytes, checked against the pack, or
// why there are none to show.
type mediaMsg struct {
	path string
	data []byte
	err  error
}

// openedMsg says how handing a media artifact to the system opener went.
type openedMsg struct {
	path   string
	tmpDir string // the folder holding the checked copy; removed on Close
	said   string
	err    error
}

// drawMsg asks for the inline image once the frame around it is drawn.
type drawMsg struct{ path string }

// readChecked reads a media artifact's bytes from the pack folder and
// returns them only when their size and sha256 are the ones pack.json
// records: what is shown or opened is exactly what was verified, even if
// the file changed after verification.
func readChecked(dir string, a proof.Artifact) ([]byte, error) {
	if a.Size > mediaMaxBytes {
		return nil, fmt.Errorf("%s is %s, more than the %s aayu reads to show or open a file", a.Path, tui.HumanBytes(a.Size), tui.HumanBytes(mediaMaxBytes))
	}
	data, err := readInRootN(dir, a.Path, a.Size+1)
	if errors.Is(err, errNotInPack) {
		return nil, notHere(a)
	}
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(data)
	if int64(len(data)) != a.Size || hex.EncodeToString(sum[:]) != a.SHA256 {
		return nil, fmt.Errorf("%s %w (tampered or damaged), so aayu neither shows nor opens it", a.Path, errMediaMismatch)
	}
	return data, nil
}

// notHere says why an artifact's bytes are not in the pack folder, by
// where the pack says they are kept.
func notHere(a proof.Artifact) error {
	switch {
	case a.Store == proof.StoreBucket:
		return fmt.Errorf("%s is in the media bucket, not fetched: only its hash is here, so there is nothing to show or open", a.Path)
	case a.Store == proof.StoreNone || a.Tombstone != nil:
		return fmt.Errorf("%s is not stored here: only its hash and size are kept; its bytes are in the merge gate's run artifact until it expires", a.Path)
	}
	return fmt.Errorf("%s is %w", a.Path, errNotInPack)
}

// readMedia is the tea.Cmd reading a media artifact for the viewer.
func readMedia(dir string, a proof.Artifact) tea.Cmd {
	return func() tea.Msg {
		data, err := readChecked(dir, a)
		if err == nil && isPNG(a) {
			err = checkPNG(data)
		}
		return mediaMsg{path: a.Path, data: data, err: err}
	}
}

// readCheckedText reads a media artifact that is text for the text
// viewer, its bytes checked as any media's.
func readCheckedText(dir string, a proof.Artifact) tea.Cmd {
	return func() tea.Msg {
		data, err := readChecked(dir, a)
		return artifactMsg{path: a.Path, data: data, err: err}
	}
}

// checkPNG refuses bytes that do not decode as a PNG of a sane size.
func checkPNG(data []byte) error {
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("its bytes match the pack but are not a PNG image (%v)", err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width*cfg.Height > maxImagePixels {
		return fmt.Errorf("it declares a %d×%d image, larger than aayu draws", cfg.Width, cfg.Height)
	}
	return nil
}

// openMedia writes a media artifact's checked bytes to a new private
// temporary file, hashes that file again, and hands it to opener: the
// system's viewer never reads a byte that does not match the pack.
func openMedia(dir string, a proof.Artifact, opener func(string) error) tea.Cmd {
	return func() tea.Msg {
		msg := openedMsg{path: a.Path}
		data, err := readChecked(dir, a)
		if err != nil {
			msg.err = err
			return msg
		}
		msg.tmpDir, err = os.MkdirTemp("", "aayu-media-*")
		if err != nil {
			msg.err = fmt.Errorf("preparing a folder for a copy of %s: %w", a.Path, err)
			return msg
		}
		file := filepath.Join(msg.tmpDir, "artifact"+safeExt(a.Path))
		if err := os.WriteFile(file, data, 0o600); err != nil {
			msg.err = fmt.Errorf("writing a copy of %s: %w", a.Path, err)
			return msg
		}
		copied, err := os.ReadFile(file)
		if err != nil {
			msg.err = fmt.Errorf("reading back the copy of %s: %w", a.Path, err)
			return msg
		}
		if sum := sha256.Sum256(copied); hex.EncodeToString(sum[:]) != a.SHA256 {
			msg.err = fmt.Errorf("the copy of %s %w, so it was not opened", a.Path, errMediaMismatch)
			return msg
		}
		if err := opener(file); err != nil {
			msg.err = fmt.Errorf("%w; its checked copy is %s", err, file)
			return msg
		}
		msg.said = fmt.Sprintf("opened %s (sha256 checked) in the system viewer, from its copy %s", a.Path, file)
		return msg
	}
}

// safeExt is the artifact's extension when it is a plain one (letters and
// digits), so the system picks its viewer by it; else none. The name of
// the copy never carries anything else from the pack.
func safeExt(p string) string {
	ext := strings.ToLower(path.Ext(p))
	if len(ext) < 2 || len(ext) > 6 {
		return ""
	}
	for _, r := range ext[1:] {
		if (r < 'a' || r > 'z') && (r < '0' || r > '9') {
			return ""
		}
	}
	return ext
}

// systemOpener hands a file to the desktop's opener: open on macOS,
// xdg-open elsewhere on Unix, the shell's file handler on Windows. It
// starts it and does not wait: the viewer lives on after aayu. Its output
// goes nowhere, so it never draws over the screen.
func systemOpener(file string) error {
	name, args := "xdg-open", []string{file}
	switch runtime.GOOS {
	case "darwin":
		name = "open"
	case "windows":
		name, args = "rundll32", []string{"url.dll,FileProtocolHandler", file}
	}
	bin, err := exec.LookPath(name)
	if err != nil {
		return fmt.Errorf("no system opener: %s is not on PATH", name)
	}
	cmd := exec.Command(bin, args...)
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting %s: %w", name, err)
	}
	go func() { _ = cmd.Wait() }()
	return nil
}

// hashState says in words whether a media artifact's bytes were checked.
func hashState(r proof.ArtifactResult) string {
	switch r.Verdict {
	case proof.VerdictVerified:
		return "hash checked"
	case proof.VerdictNotStored:
		return "not stored, only its hash and size are kept"
	case proof.VerdictUnchecked:
		return "hash not checked, " + tui.SanitizeLine(r.Reason)
	}
	return "does not match its hash: " + tui.SanitizeLine(r.Reason)
}

// mediaWhere says where a media artifact's bytes are: its file in the pack
// folder, its object in the media bucket, or nowhere here.
func mediaWhere(r proof.ArtifactResult, dir string) string {
	a := r.Artifact
	switch {
	case r.Verdict == proof.VerdictVerified || r.Verdict == proof.VerdictFailed:
		return "file " + tui.SanitizeLine(filepath.Join(dir, "artifacts", filepath.FromSlash(a.Path)))
	case a.Store == proof.StoreBucket && a.Object != "":
		return "in the media bucket as object " + tui.SanitizeLine(a.Object)
	case a.Store == proof.StoreBucket:
		return "in the media bucket"
	}
	return "its bytes are in the merge gate's run artifact until it expires"
}

// mediaLine is one media artifact in words: its path, kind, size, hash
// state and where it is. Every field from the pack is sanitised.
func mediaLine(r proof.ArtifactResult, dir string) string {
	a := r.Artifact
	return fmt.Sprintf("media %s: %s, %s, %s; %s", tui.SanitizeLine(a.Path), tui.SanitizeLine(a.Kind),
		tui.HumanBytes(a.Size), hashState(r), mediaWhere(r, dir))
}

// mediaLines are the report's media artifacts, one line each.
func mediaLines(r *proof.Report, dir string) []string {
	if r == nil {
		return nil
	}
	var out []string
	for _, a := range r.Artifacts {
		if isMedia(a.Artifact) {
			out = append(out, mediaLine(a, dir))
		}
	}
	return out
}

// hasMedia says whether the report lists a media artifact whose bytes are
// here and matched: one o can open.
func hasMedia(r *proof.Report) bool {
	if r == nil {
		return false
	}
	for _, a := range r.Artifacts {
		if isMedia(a.Artifact) && a.Verdict == proof.VerdictVerified {
			return true
		}
	}
	return false
}

// hasDrawable says whether the report holds a PNG the viewer could draw:
// only then is the terminal asked whether it can.
func hasDrawable(r *proof.Report) bool {
	if r == nil {
		return false
	}
	for _, a := range r.Artifacts {
		if isMedia(a.Artifact) && isPNG(a.Artifact) && a.Verdict == proof.VerdictVerified {
			return true
		}
	}
	return false
}
