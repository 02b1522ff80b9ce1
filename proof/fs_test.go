package proof

import (
	"context"
	"io/fs"
	"testing"
	"testing/fstest"
	"time"
)

func fixtureMapFS(t *testing.T, p *Pack, files map[string][]byte) fstest.MapFS {
	t.Helper()
	data, err := Encode(p)
	if err != nil {
		t.Fatal(err)
	}
	m := fstest.MapFS{packFile: {Data: data}}
	for name, b := range files {
		m[artifactsDir+"/"+name] = &fstest.MapFile{Data: b}
	}
	return m
}

func TestVerifyFSAndVerifyAgree(t *testing.T) {
	files := fixtureFiles()
	p := fixturePack(files)
	m := fixtureMapFS(t, p, files)
	r, err := verifyFS(context.Background(), m, fixtureOptions(), false)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Verified() {
		t.Fatalf("VerifyFS refused a sound pack:%s", describeProblems(r))
	}
	// Verify takes an already decoded pack, as ship has after its own checks.
	r2, err := Verify(context.Background(), r.Pack, m[packFile].Data, m, fixtureOptions())
	if err != nil {
		t.Fatal(err)
	}
	if !r2.Verified() || r2.PackSHA256 != r.PackSHA256 {
		t.Fatalf("Verify disagrees with VerifyFS:%s", describeProblems(r2))
	}
	// Without bytes every stored artifact is missing.
	r3, err := Verify(context.Background(), r.Pack, m[packFile].Data, nil, fixtureOptions())
	if err != nil {
		t.Fatal(err)
	}
	if !sameCodes(problemCodes(r3), []Code{CodeMissingFile, CodeMissingFile, CodeMissingFile}) {
		t.Fatalf("problems without bytes = %v, want three missing files", problemCodes(r3))
	}
}

func TestVerifyFSRefusesSymlinkEntry(t *testing.T) {
	files := fixtureFiles()
	m := fixtureMapFS(t, fixturePack(files), files)
	m[artifactsDir+"/reports/coverage.txt"] = &fstest.MapFile{Data: []byte("../../pack.json"), Mode: fs.ModeSymlink}
	r, err := verifyFS(context.Background(), m, fixtureOptions(), false)
	if err != nil {
		t.Fatal(err)
	}
	if !sameCodes(problemCodes(r), []Code{CodeNotRegular}) {
		t.Fatalf("problems = %v, want not_regular_file:%s", problemCodes(r), describeProblems(r))
	}
}

// lyingFS reports the declared size but serves more bytes, as a file that
// grows between stat and read would: the hash must stop at size+1.
type lyingFS struct {
	fstest.MapFS
	name string
	size int64
	read *int64 // bytes handed out from the lying file
}

type lyingInfo struct {
	fs.FileInfo
	size int64
}

func (l lyingInfo) Size() int64 { return l.size }

type lyingFile struct {
	fs.File
	size int64
	read *int64
}

func (f lyingFile) Read(b []byte) (int, error) {
	n, err := f.File.Read(b)
	*f.read += int64(n)
	return n, err
}

func (f lyingFile) Stat() (fs.FileInfo, error) {
	info, err := f.File.Stat()
	return lyingInfo{info, f.size}, err
}

func (l lyingFS) Open(name string) (fs.File, error) {
	f, err := l.MapFS.Open(name)
	if err != nil || name != l.name {
		return f, err
	}
	return lyingFile{f, l.size, l.read}, nil
}

func (l lyingFS) Lstat(name string) (fs.FileInfo, error) {
	info, err := l.MapFS.Lstat(name)
	if err != nil || name != l.name {
		return info, err
	}
	return lyingInfo{info, l.size}, nil
}

func (l lyingFS) ReadLink(name string) (string, error) { return l.MapFS.ReadLink(name) }

func TestVerifyReadsNoMoreThanDeclared(t *testing.T) {
	files := fixtureFiles()
	p := fixturePack(files)
	m := fixtureMapFS(t, p, files)
	name := artifactsDir + "/reports/coverage.txt"
	declared := p.Artifacts[2].Size
	m[name] = &fstest.MapFile{Data: make([]byte, 1<<20), ModTime: time.Unix(0, 0)}
	var read int64
	r, err := verifyFS(context.Background(), lyingFS{MapFS: m, name: name, size: declared, read: &read}, fixtureOptions(), false)
	if err != nil {
		t.Fatal(err)
	}
	if !sameCodes(problemCodes(r), []Code{CodeSizeMismatch}) {
		t.Fatalf("problems = %v, want size_mismatch:%s", problemCodes(r), describeProblems(r))
	}
	if read != declared+1 {
		t.Errorf("read %d bytes of a file declared as %d, want exactly %d", read, declared, declared+1)
	}
}

func TestReadPackDir(t *testing.T) {
	files := fixtureFiles()
	p := fixturePack(files)
	dir := writeFixtureDir(t, p, files)
	got, raw, err := ReadPackDir(dir, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Story != p.Story || len(got.Artifacts) != len(p.Artifacts) {
		t.Errorf("ReadPackDir = %+v", got)
	}
	want, _ := Encode(p)
	if string(raw) != string(want) {
		t.Error("ReadPackDir did not return pack.json's bytes as written")
	}
	if _, _, err := ReadPackDir(dir, Limits{PackJSONBytes: 64}); err == nil || err.(*DecodeError).Code != CodeTooLarge {
		t.Errorf("ReadPackDir over the cap: err = %v, want too_large", err)
	}
}
