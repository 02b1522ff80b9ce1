package proof

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func BenchmarkDecode(b *testing.B) {
	raw := mustReadTestdata(b, "packs/story131.json")
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		if _, err := Decode(raw); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkVerifyDir verifies a pack of 200 artifacts of 64 KiB each.
func BenchmarkVerifyDir(b *testing.B) {
	files := map[string][]byte{}
	p := fixturePack(nil)
	p.Artifacts = nil
	var total int64
	for i := range 200 {
		name := fmt.Sprintf("reports/r-%03d.txt", i)
		data := make([]byte, 64<<10)
		for j := range data {
			data[j] = byte(i + j)
		}
		files[name] = data
		p.Artifacts = append(p.Artifacts, fixtureArtifact(name, KindReport, StoreGit, data))
		total += int64(len(data))
	}
	// The criteria cite test events beside the reports, as a pack must.
	events := fixtureFiles()["evidence/criterion-1.jsonl"]
	files["evidence/criterion-1.jsonl"] = events
	p.Artifacts = append(p.Artifacts, fixtureArtifact("evidence/criterion-1.jsonl", KindAPITrace, StoreGit, events))
	p.Criteria = []Criterion{{ID: 1, Evidence: []string{"reports/r-000.txt", "evidence/criterion-1.jsonl"}},
		{ID: 2, Evidence: []string{"reports/r-001.txt", "evidence/criterion-1.jsonl"}}}
	dir := writeFixtureDir(b, p, files)
	b.SetBytes(total)
	for b.Loop() {
		r, err := VerifyDir(context.Background(), dir, fixtureOptions())
		if err != nil || !r.Verified() {
			b.Fatalf("not verified: %v%s", err, describeProblems(r))
		}
	}
}

// The large benchmarks compare aayu with `sha256sum -c` over the same files
// in one run:
//
//	go test -run '^$' -bench 256MiB -benchtime=3x ./proof/
//
// Each fixture is written once per test binary and removed when it exits.
// With AAYU_BENCH_DIR set they are written there instead, kept, and reused
// by later runs, so the same files can be timed as whole commands
// (`aayu pack DIR/1000x256MiB --ready DIR/1000x256MiB.ready.md --head …`).

func BenchmarkVerifyDir1000x256MiB(b *testing.B)  { benchVerifyDir(b, benchMany) }
func BenchmarkSha256sumC1000x256MiB(b *testing.B) { benchSha256sumC(b, benchMany) }
func BenchmarkVerifyDir1x256MiB(b *testing.B)     { benchVerifyDir(b, benchOne) }

// At the cap: 10,000 artifacts (9,998 files, the criteria's trace and the coverage report) of
// 256 MiB in all, where per-artifact costs show against the bare hash.
func BenchmarkVerifyDir10000x256MiB(b *testing.B) { benchVerifyDir(b, benchCap) }

// BenchmarkBareSha256TwoCores1000x256MiB is the limit VerifyDir is held to:
// the same files hashed on two goroutines and nothing else (no pack.json,
// no checks), in the same process and run.
func BenchmarkBareSha256TwoCores1000x256MiB(b *testing.B) { benchBareSha256(b, benchMany) }

// BenchmarkBareSha256TwoCores10000x256MiB is the same limit at the cap.
func BenchmarkBareSha256TwoCores10000x256MiB(b *testing.B) { benchBareSha256(b, benchCap) }

func benchBareSha256(b *testing.B, shape benchShape) {
	pack := benchFixtures.get(b, shape)
	var files []string
	if err := filepath.WalkDir(filepath.Join(pack.dir, artifactsDir), func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			files = append(files, p)
		}
		return err
	}); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(pack.bytes)
	for b.Loop() {
		var next atomic.Int64
		var wg sync.WaitGroup
		for range 2 {
			wg.Go(func() {
				buf := make([]byte, hashBufferSize)
				for k := int(next.Add(1) - 1); k < len(files); k = int(next.Add(1) - 1) {
					f, err := os.Open(files[k])
					if err != nil {
						b.Error(err)
						return
					}
					_, err = io.CopyBuffer(sha256.New(), f, buf)
					f.Close()
					if err != nil {
						b.Error(err)
						return
					}
				}
			})
		}
		wg.Wait()
	}
}
func BenchmarkSha256sumC1x256MiB(b *testing.B) { benchSha256sumC(b, benchOne) }

// BenchmarkVerifyDirPeakHeap reports the most memory the Go runtime held
// while verifying each shape. It is apart from the timed benchmarks because
// sampling costs a little CPU.
func BenchmarkVerifyDirPeakHeap(b *testing.B) {
	for _, shape := range []benchShape{benchMany, benchOne} {
		b.Run(shape.name, func(b *testing.B) {
			pack := benchFixtures.get(b, shape)
			var peak memoryPeak
			for b.Loop() {
				runtime.GC()
				stop := peak.sample(time.Millisecond)
				verifyBenchPack(b, pack)
				stop()
			}
			b.ReportMetric(float64(peak.heap)/(1<<20), "peak-heap-MiB")
			b.ReportMetric(float64(peak.total)/(1<<20), "peak-go-MiB")
		})
	}
}

func benchVerifyDir(b *testing.B, shape benchShape) {
	pack := benchFixtures.get(b, shape)
	b.SetBytes(pack.bytes)
	b.ReportAllocs()
	for b.Loop() {
		verifyBenchPack(b, pack)
	}
}

func benchSha256sumC(b *testing.B, shape benchShape) {
	if _, err := exec.LookPath("sha256sum"); err != nil {
		b.Skip("sha256sum is not installed")
	}
	pack := benchFixtures.get(b, shape)
	b.SetBytes(pack.bytes)
	for b.Loop() {
		cmd := exec.Command("sha256sum", "-c", "--quiet", pack.sums)
		cmd.Dir = filepath.Join(pack.dir, artifactsDir)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("sha256sum -c: %v\n%s", err, out)
		}
	}
}

func verifyBenchPack(b *testing.B, pack *benchPack) {
	r, err := VerifyDir(context.Background(), pack.dir, pack.opts)
	if err != nil || !r.Verified() {
		b.Fatalf("not verified: %v%s", err, describeProblems(r))
	}
}

// memoryPeak keeps the largest heap and total Go memory seen while sampling.
type memoryPeak struct{ heap, total uint64 }

// sample reads runtime/metrics every interval (which, unlike ReadMemStats,
// does not stop the world) until the returned stop is called.
func (m *memoryPeak) sample(interval time.Duration) (stop func()) {
	samples := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/total:bytes"}}
	read := func() {
		metrics.Read(samples)
		m.heap = max(m.heap, samples[0].Value.Uint64())
		m.total = max(m.total, samples[1].Value.Uint64())
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for {
			read()
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	return func() {
		close(done)
		<-finished
		read()
	}
}

// benchShape is the size and count of a large fixture.
type benchShape struct {
	name  string
	files int
	bytes int64
}

var (
	benchMany = benchShape{name: "1000x256MiB", files: 1000, bytes: 256 << 20}
	benchOne  = benchShape{name: "1x256MiB", files: 1, bytes: 256 << 20}
	// benchCap is 10,000 artifacts: its files and the trace and coverage
	// report the pack adds.
	benchCap = benchShape{name: "10000x256MiB", files: 9998, bytes: 256 << 20}
)

// benchPack is a large pack folder on disk, with the checksum file that
// sha256sum -c reads and the options that make it verify.
type benchPack struct {
	dir   string
	sums  string // "<sha256>  <path>" lines, paths relative to dir/artifacts
	bytes int64
	opts  Options
}

// benchFixtureSet builds each shape at most once per test binary.
type benchFixtureSet struct {
	mu    sync.Mutex
	root  string // where the shapes live
	temp  bool   // root was made for this process and is removed on exit
	packs map[string]*benchPack
}

var benchFixtures = &benchFixtureSet{packs: map[string]*benchPack{}}

func TestMain(m *testing.M) {
	code := m.Run()
	benchFixtures.removeTemp()
	os.Exit(code)
}

func (s *benchFixtureSet) get(b *testing.B, shape benchShape) *benchPack {
	b.Helper()
	if testing.Short() {
		b.Skip("the 256 MiB fixtures are not built in short mode")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if p, ok := s.packs[shape.name]; ok {
		return p
	}
	if s.root == "" {
		if dir := os.Getenv("AAYU_BENCH_DIR"); dir != "" {
			s.root = dir
		} else {
			dir, err := os.MkdirTemp("", "aayu-proof-bench-")
			if err != nil {
				b.Fatal(err)
			}
			s.root, s.temp = dir, true
		}
	}
	p, err := loadOrBuildBenchPack(s.root, shape)
	if err != nil {
		b.Fatalf("building the %s fixture: %v", shape.name, err)
	}
	s.packs[shape.name] = p
	return p
}

func (s *benchFixtureSet) removeTemp() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.temp {
		_ = os.RemoveAll(s.root)
	}
}

const benchHead = "3d1f0c9e8b7a69584736251403f2e1d0c9b8a796"

// loadOrBuildBenchPack reuses root/NAME when a complete fixture is there
// (its ready.md is written last) and otherwise writes it afresh.
func loadOrBuildBenchPack(root string, shape benchShape) (*benchPack, error) {
	dir := filepath.Join(root, shape.name)
	pack := &benchPack{dir: dir, sums: dir + ".sha256sums"}
	readyFile := dir + ".ready.md"
	readyText, err := os.ReadFile(readyFile)
	if errors.Is(err, os.ErrNotExist) {
		if err := os.RemoveAll(dir); err != nil {
			return nil, err
		}
		if readyText, err = buildBenchPack(dir, pack.sums, shape); err != nil {
			return nil, err
		}
		err = os.WriteFile(readyFile, readyText, 0o644)
	}
	if err != nil {
		return nil, err
	}
	ready, err := ParseReady(readyText)
	if err != nil {
		return nil, err
	}
	p, _, err := ReadPackDir(dir, Limits{})
	if err != nil {
		return nil, err
	}
	for _, a := range p.Artifacts {
		pack.bytes += a.Size
	}
	pack.opts = Options{Ready: ready, HeadSHA: benchHead}
	return pack, nil
}

// buildBenchPack writes shape's artifacts (pseudo-random bytes, sizes spread
// log-uniformly over three orders of magnitude, in nested folders), its
// pack.json and the checksum file, streaming so memory stays small. It
// returns the Ready snapshot the pack was built for.
func buildBenchPack(dir, sumsFile string, shape benchShape) ([]byte, error) {
	rng := rand.New(rand.NewPCG(1, uint64(shape.files)))
	weights := make([]float64, shape.files)
	var sum float64
	for i := range weights {
		weights[i] = math.Exp(rng.Float64() * math.Log(4096))
		sum += weights[i]
	}
	readyText := RenderReady(9, "benchmark pack", time.Date(2026, 10, 12, 7, 30, 0, 0, time.UTC),
		[]string{"The first artifact is intact.", "The last artifact is intact."})
	ready, err := ParseReady(readyText)
	if err != nil {
		return nil, err
	}
	p := &Pack{
		Schema: SchemaVersion, Repo: "acme/benefits", Story: 9, PR: 40, PRHeadSHA: benchHead,
		Seat: "ai-native-engineer", Host: "cli", Identity: IdentityCI,
		Authority: Authority{Kind: AuthorityAdvisory}, CompletionGoalHash: ready.RecordedHash,
		Checks:    benchChecks(),
		CreatedAt: "2026-10-12T09:48:42Z",
	}
	var sums strings.Builder
	stream := rand.NewChaCha8([32]byte{7})
	buf := make([]byte, 1<<20)
	left := shape.bytes
	for i := range shape.files {
		size := int64(float64(shape.bytes) * weights[i] / sum)
		if i == shape.files-1 {
			size = left
		}
		left -= size
		name := fmt.Sprintf("evidence/batch-%02d/trace-%04d.jsonl", i%25, i)
		if shape.files == 1 {
			name = "reports/trace.jsonl"
		}
		digest, err := writeRandomFile(filepath.Join(dir, artifactsDir, filepath.FromSlash(name)), size, stream, buf)
		if err != nil {
			return nil, err
		}
		// Random bytes are no test events: the bulk is a report, and the
		// criteria cite one small events file beside it.
		p.Artifacts = append(p.Artifacts, Artifact{Path: name, Kind: KindReport, SHA256: digest, Size: size, Store: StoreGit})
		fmt.Fprintf(&sums, "%s  %s\n", digest, name)
	}
	first, last := p.Artifacts[0].Path, p.Artifacts[len(p.Artifacts)-1].Path
	const eventsPath = "tests/criteria.jsonl"
	events := []byte(`{"Action":"run","Package":"example.com/x","Test":"TestOne"}` + "\n" + `{"Action":"pass","Package":"example.com/x","Test":"TestOne"}` + "\n")
	if err := os.MkdirAll(filepath.Join(dir, artifactsDir, "tests"), 0o755); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, artifactsDir, eventsPath), events, 0o644); err != nil {
		return nil, err
	}
	p.Artifacts = append(p.Artifacts, ArtifactFromBytes(eventsPath, KindAPITrace, events))
	fmt.Fprintf(&sums, "%s  %s\n", p.Artifacts[len(p.Artifacts)-1].SHA256, eventsPath)
	if err := os.MkdirAll(filepath.Join(dir, artifactsDir, "reports"), 0o755); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, artifactsDir, filepath.FromSlash(CoverageReportPath)), benchCoverage, 0o644); err != nil {
		return nil, err
	}
	p.Artifacts = append(p.Artifacts, ArtifactFromBytes(CoverageReportPath, KindReport, benchCoverage))
	fmt.Fprintf(&sums, "%s  %s\n", p.Artifacts[len(p.Artifacts)-1].SHA256, CoverageReportPath)
	p.Criteria = []Criterion{{ID: 1, Evidence: []string{first, eventsPath}}, {ID: 2, Evidence: []string{last, eventsPath}}}
	packJSON, err := Encode(p)
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, packFile), packJSON, 0o644); err != nil {
		return nil, err
	}
	if err := os.WriteFile(sumsFile, []byte(sums.String()), 0o644); err != nil {
		return nil, err
	}
	return readyText, nil
}

// writeRandomFile writes size pseudo-random bytes to name through buf and
// returns their SHA-256.
func writeRandomFile(name string, size int64, stream io.Reader, buf []byte) (string, error) {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return "", err
	}
	f, err := os.Create(name)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	if _, err := io.CopyBuffer(io.MultiWriter(f, h), io.LimitReader(stream, size), buf); err != nil {
		_ = f.Close()
		return "", err
	}
	if err := f.Close(); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// benchChecks are the floors the default policy requires, all holding, so
// the whole command exits 0 on the fixture: the tests floor counts the one
// test in the fixture's events, the coverage floor matches its coverage
// report (benchCoverage), and vet has its count of findings.
func benchChecks() []Check {
	passed, value, threshold := 1.0, 95.0, 90.0
	findings, none := 0.0, 0.0
	return []Check{
		{Floor: "tests", Result: ResultPass, Value: &passed, Network: NetworkIsolated},
		{Floor: "coverage", Result: ResultPass, Value: &value, Threshold: &threshold, Network: NetworkIsolated},
		{Floor: "vet", Result: ResultPass, Value: &findings, Threshold: &none, Network: NetworkIsolated},
	}
}

// benchCoverage is the fixture's coverage report: 95 %, as benchChecks says.
var benchCoverage = []byte("x.go: 19 of 20 changed executable lines covered\n")
