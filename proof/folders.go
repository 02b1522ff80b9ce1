package proof

import (
	"io/fs"
	"os"
	"strings"
	"sync"
)

// maxOpenFolders bounds how many of a pack's folders are held open at once
// during one verification; artifacts in further folders are read through
// the pack's root as before, only slower.
const maxOpenFolders = 256

// packFolders holds the folders of a pack folder opened as roots of their
// own, so each artifact costs one lstat and one open where it is, not a walk
// from the pack's root through every folder above it, twice (os.Root opens
// and closes each folder on a path in turn). A folder is opened only after
// every element of its path was found a real folder (lstatNoSymlinks, the
// same look the slow path takes), and the folder opened must be the very
// folder looked at (os.SameFile), or it is not used.
type packFolders struct {
	root *os.Root
	mu   sync.Mutex
	open map[string]*openFolder // by folder path; nil: this folder is read the slow way
}

type openFolder struct {
	root *os.Root
	fsys fs.FS
}

func newPackFolders(root *os.Root) *packFolders {
	return &packFolders{root: root, open: map[string]*openFolder{}}
}

// folder returns the open folder dir (a path inside the pack, such as
// "artifacts/evidence"), or nil when it is not a real folder, could not be
// opened, or too many are open: the caller then takes the slow path, whose
// findings say why.
func (pf *packFolders) folder(fsys fs.FS, dir string, realDirs *sync.Map) fs.FS {
	pf.mu.Lock()
	defer pf.mu.Unlock()
	if f, ok := pf.open[dir]; ok {
		if f == nil {
			return nil
		}
		return f.fsys
	}
	if len(pf.open) >= maxOpenFolders {
		return nil
	}
	pf.open[dir] = nil
	seen, ok := realFolder(fsys, dir, realDirs)
	if !ok {
		return nil
	}
	r, err := pf.root.OpenRoot(dir)
	if err != nil {
		return nil
	}
	if opened, err := r.Stat("."); err != nil || !os.SameFile(seen, opened) {
		_ = r.Close()
		return nil
	}
	f := &openFolder{root: r, fsys: r.FS()}
	pf.open[dir] = f
	return f.fsys
}

// realFolder checks, with Lstat, that every element of dir is a real
// folder and no symlink, as lstatNoSymlinks does for a file's folders, and
// returns what it found for dir itself.
func realFolder(fsys fs.FS, dir string, realDirs *sync.Map) (fs.FileInfo, bool) {
	var info fs.FileInfo
	for i := 0; i <= len(dir); i++ {
		if i < len(dir) && dir[i] != '/' {
			continue
		}
		prefix := dir[:i]
		if seen, ok := realDirs.Load(prefix); ok {
			info = seen.(fs.FileInfo)
			continue
		}
		fi, err := fs.Lstat(fsys, prefix)
		if err != nil || !fi.Mode().IsDir() {
			return nil, false
		}
		realDirs.Store(prefix, fi)
		info = fi
	}
	return info, info != nil
}

// close closes every folder opened.
func (pf *packFolders) close() {
	if pf == nil {
		return
	}
	pf.mu.Lock()
	defer pf.mu.Unlock()
	for _, f := range pf.open {
		if f != nil {
			_ = f.root.Close()
		}
	}
	clear(pf.open)
}

// splitFolder splits an artifact's name in the pack into its folder and
// its file name; ok is false for a name with no folder.
func splitFolder(name string) (dir, base string, ok bool) {
	i := strings.LastIndexByte(name, '/')
	if i <= 0 {
		return "", name, false
	}
	return name[:i], name[i+1:], true
}
