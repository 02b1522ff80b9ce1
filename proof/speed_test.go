package proof

import (
	"crypto/sha256"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// TestSpeedAgainstTwoCoreSha256sum compares, in one run on the same files,
// the whole command `aayu pack DIR --plain` with the bare limit of hashing
// those files on two cores (sha256sum in two parallel processes through
// xargs -P2), and reports each side's wall time and the peak RSS of aayu.
// It is a measurement, not a check: it fails only when a command fails.
//
//	AAYU_SPEED=1 go test -run TestSpeedAgainstTwoCoreSha256sum -v ./proof/
//
// AAYU_SPEED_FILES (default 1000), AAYU_SPEED_MIB (default 256) and
// AAYU_SPEED_ROUNDS (default 5) change the shape and the number of
// alternating rounds. AAYU_SPEED_BIN runs that aayu binary instead of one
// built from this tree, and AAYU_SPEED_VS_BIN adds a second binary to
// every round, so two builds (before and after a change) are measured
// side by side against the same bare hash.
func TestSpeedAgainstTwoCoreSha256sum(t *testing.T) {
	if os.Getenv("AAYU_SPEED") != "1" {
		t.Skip("set AAYU_SPEED=1 to measure verify against a two-core sha256sum")
	}
	for _, tool := range []string{"sha256sum", "xargs", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed", tool)
		}
	}
	shape := benchShape{files: envInt("AAYU_SPEED_FILES", 1000), bytes: int64(envInt("AAYU_SPEED_MIB", 256)) << 20}
	shape.name = fmt.Sprintf("%dx%dMiB", shape.files, shape.bytes>>20)
	rounds := envInt("AAYU_SPEED_ROUNDS", 5)
	root := t.TempDir()
	fixtures := root
	if dir := os.Getenv("AAYU_BENCH_DIR"); dir != "" {
		fixtures = dir // kept and reused, as by the benchmarks
	}
	pack, err := loadOrBuildBenchPack(fixtures, shape)
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(root, "bin", "aayu")
	home := filepath.Join(root, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	if given := os.Getenv("AAYU_SPEED_BIN"); given != "" {
		bin = given
	} else {
		build := exec.Command("go", "build", "-o", bin, "github.com/aayudha/aayu")
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("building aayu: %v\n%s", err, out)
		}
	}
	vsBin := os.Getenv("AAYU_SPEED_VS_BIN")
	// Half as many files per sha256sum as there are, in small batches, so
	// the two processes share the work evenly whatever the sizes.
	sums := exec.Command("sh", "-c", `cd "$1/artifacts" && find . -type f -print0 | xargs -0 -P2 -n 32 sha256sum >/dev/null`, "sh", pack.dir)
	verifyWith := func(bin string) *exec.Cmd {
		return exec.Command(bin, "pack", pack.dir, "--plain", "--ready", pack.dir+".ready.md", "--head", benchHead)
	}
	verify := func() *exec.Cmd { return verifyWith(bin) }
	// The bare limit in Go: the test binary itself, re-run to do nothing
	// but hash every file on two goroutines with the same SHA-256 code.
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	goHash := func() *exec.Cmd {
		c := exec.Command(self, "-test.run", "^TestHelperBareSha256$")
		c.Env = append(os.Environ(), "AAYU_BARE_SHA256_DIR="+filepath.Join(pack.dir, artifactsDir))
		return c
	}
	var bare, goBare, aayu, vs []time.Duration
	var goBareCPU, aayuCPU, vsCPU []time.Duration
	var rss []int64
	var lastCPU time.Duration // the last run's user + system CPU time
	run := func(c *exec.Cmd) (time.Duration, int64) {
		c.Env = append(c.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+home, "NO_COLOR=1")
		start := time.Now()
		out, err := c.CombinedOutput()
		took := time.Since(start)
		if err != nil {
			t.Fatalf("%s: %v\n%s", c.Args, err, out)
		}
		var maxRSS int64
		if ru, ok := c.ProcessState.SysUsage().(*syscall.Rusage); ok {
			maxRSS = int64(ru.Maxrss) // KiB on Linux
		}
		lastCPU = c.ProcessState.UserTime() + c.ProcessState.SystemTime()
		return took, maxRSS
	}
	// A round of each to warm the page cache, then alternate.
	run(exec.Command(sums.Args[0], sums.Args[1:]...))
	run(goHash())
	run(verify())
	if vsBin != "" {
		run(verifyWith(vsBin))
	}
	for range rounds {
		if vsBin != "" {
			d, _ := run(verifyWith(vsBin))
			vs = append(vs, d)
			vsCPU = append(vsCPU, lastCPU)
		}
		d, _ := run(exec.Command(sums.Args[0], sums.Args[1:]...))
		bare = append(bare, d)
		d, _ = run(goHash())
		goBare = append(goBare, d)
		goBareCPU = append(goBareCPU, lastCPU)
		d, kib := run(verify())
		aayu = append(aayu, d)
		aayuCPU = append(aayuCPU, lastCPU)
		rss = append(rss, kib)
	}
	ratio := func(base []time.Duration) []float64 {
		r := make([]float64, rounds)
		for i := range r {
			r[i] = float64(aayu[i]) / float64(base[i])
		}
		slices.Sort(r)
		return r
	}
	load, _ := os.ReadFile("/proc/loadavg")
	t.Logf("%s (%d bytes), %d rounds, GOMAXPROCS %d, load %s", shape.name, pack.bytes, rounds, runtime.GOMAXPROCS(0), string(load))
	t.Logf("sha256sum, xargs -P2: %v (median %v)", bare, median(bare))
	t.Logf("Go SHA-256, 2 goroutines, own process: %v (median %v)", goBare, median(goBare))
	t.Logf("aayu pack DIR --plain: %v (median %v)", aayu, median(aayu))
	r1, r2 := ratio(bare), ratio(goBare)
	t.Logf("aayu / sha256sum -P2 per round, sorted: %.2f (median %.2f)", r1, r1[rounds/2])
	t.Logf("aayu / Go two-goroutine SHA-256 per round, sorted: %.2f (median %.2f)", r2, r2[rounds/2])
	// CPU time (user + system, from getrusage) is what a busy shared
	// machine disturbs least: wall time waits for other processes, CPU
	// time mostly does not.
	c2 := make([]float64, rounds)
	for i := range c2 {
		c2[i] = float64(aayuCPU[i]) / float64(goBareCPU[i])
	}
	slices.Sort(c2)
	t.Logf("CPU time (user+sys): Go SHA-256 %v (median %v); aayu %v (median %v)", goBareCPU, median(goBareCPU), aayuCPU, median(aayuCPU))
	t.Logf("aayu / Go two-goroutine SHA-256 CPU time per round, sorted: %.2f (median %.2f)", c2, c2[rounds/2])
	t.Logf("aayu peak RSS: %v KiB (max %.1f MiB)", rss, float64(slices.Max(rss))/1024)
	if vsBin != "" {
		w, c := make([]float64, rounds), make([]float64, rounds)
		for i := range w {
			w[i] = float64(vs[i]) / float64(goBare[i])
			c[i] = float64(vsCPU[i]) / float64(goBareCPU[i])
		}
		slices.Sort(w)
		slices.Sort(c)
		t.Logf("%s pack DIR --plain: %v (median %v); CPU %v (median %v)", vsBin, vs, median(vs), vsCPU, median(vsCPU))
		t.Logf("%s / Go two-goroutine SHA-256 per round, sorted: wall %.2f (median %.2f), CPU %.2f (median %.2f)", vsBin, w, w[rounds/2], c, c[rounds/2])
	}
}

// TestHelperBareSha256 is not a test: re-run by the speed comparison with
// AAYU_BARE_SHA256_DIR set, it hashes every file under that folder on two
// goroutines, each through its own 256 KiB buffer, and does nothing else.
func TestHelperBareSha256(t *testing.T) {
	dir := os.Getenv("AAYU_BARE_SHA256_DIR")
	if dir == "" {
		t.Skip("run by TestSpeedAgainstTwoCoreSha256sum")
	}
	var files []string
	if err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			files = append(files, p)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			buf := make([]byte, 256<<10)
			for {
				k := int(next.Add(1) - 1)
				if k >= len(files) {
					return
				}
				f, err := os.Open(files[k])
				if err != nil {
					t.Error(err)
					return
				}
				h := sha256.New()
				_, err = io.CopyBuffer(h, f, buf)
				f.Close()
				if err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}
