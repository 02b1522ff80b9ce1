package e2e

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// startupHeavy are packages aayu once linked for one small use, each with
// a package init that ran on every start, `aayu --version` included, and
// what replaced the use. Go runs the init of every package linked into the
// binary before main, whatever the command, so what a command does not
// pay for is decided by what links what.
var startupHeavy = map[string]string{
	// The sandbox's transparency log came from sigstore-go's test CA,
	// which also builds a timestamp authority and checks keys as a CA
	// does; ghx/sandbox/vsigstore/tlog.go is the log alone.
	"github.com/sigstore/sigstore-go/pkg/testing/ca":      "vsigstore's own log (tlog.go)",
	"github.com/letsencrypt/boulder":                      "vsigstore's own log (tlog.go)",
	"github.com/titanous/rocacheck":                       "vsigstore's own log (tlog.go)",
	"github.com/sigstore/timestamp-authority/v2/pkg/x509": "vsigstore's own log (tlog.go)",
	"github.com/sigstore/rekor/pkg/pki/pgp":               "vsigstore's own log (tlog.go)",
	"github.com/sigstore/rekor/pkg/pki/minisign":          "vsigstore's own log (tlog.go)",
	"github.com/sigstore/rekor/pkg/pki/ssh":               "vsigstore's own log (tlog.go)",
	"github.com/sigstore/rekor/pkg/pki/tuf":               "vsigstore's own log (tlog.go)",
	"github.com/sigstore/rekor/pkg/types/rekord":          "vsigstore's own log (tlog.go)",
	"expvar":                                "vsigstore's own log (tlog.go)",
	"github.com/santhosh-tekuri/jsonschema": "proof.validatePackV1 (see TestBinaryLeavesOutWhatPackDoesNotNeed)",
	// The media push's three S3 requests came from minio-go, whose
	// s3utils regular expressions, xid and compression tables ran at
	// every start; actions/proofpush/s3.go signs them itself.
	"github.com/minio/minio-go": "actions/proofpush's own SigV4 client (s3.go)",
	"github.com/rs/xid":         "actions/proofpush's own SigV4 client (s3.go)",
	// Attestations were verified with sigstore-go, which linked rekor's
	// generated models (go-openapi, govalidator's regular expressions),
	// rekor-tiles and grpc, protobuf registrations, go-containerregistry
	// and go-tuf; the sandbox signed with rekor's and protobuf-specs'
	// types, and the Statement was in-toto's protobuf messages. aayu's own
	// verifier, TUF client and signer are on the standard library.
	"github.com/sigstore/sigstore-go":               "proof/sigstore (aayu's own Sigstore verifier and TUF client; vsigstore signs, proof/attest writes the Statement, on the standard library)",
	"github.com/sigstore/rekor":                     "proof/sigstore (aayu's own Sigstore verifier and TUF client; vsigstore signs, proof/attest writes the Statement, on the standard library)",
	"github.com/sigstore/rekor-tiles":               "proof/sigstore (aayu's own Sigstore verifier and TUF client; vsigstore signs, proof/attest writes the Statement, on the standard library)",
	"github.com/sigstore/protobuf-specs":            "proof/sigstore (aayu's own Sigstore verifier and TUF client; vsigstore signs, proof/attest writes the Statement, on the standard library)",
	"github.com/sigstore/sigstore":                  "proof/sigstore (aayu's own Sigstore verifier and TUF client; vsigstore signs, proof/attest writes the Statement, on the standard library)",
	"github.com/sigstore/timestamp-authority":       "proof/sigstore (aayu's own Sigstore verifier and TUF client; vsigstore signs, proof/attest writes the Statement, on the standard library)",
	"github.com/theupdateframework/go-tuf":          "proof/sigstore (aayu's own Sigstore verifier and TUF client; vsigstore signs, proof/attest writes the Statement, on the standard library)",
	"github.com/transparency-dev/merkle":            "proof/sigstore (aayu's own Sigstore verifier and TUF client; vsigstore signs, proof/attest writes the Statement, on the standard library)",
	"github.com/transparency-dev/formats":           "proof/sigstore (aayu's own Sigstore verifier and TUF client; vsigstore signs, proof/attest writes the Statement, on the standard library)",
	"github.com/google/certificate-transparency-go": "proof/sigstore (aayu's own Sigstore verifier and TUF client; vsigstore signs, proof/attest writes the Statement, on the standard library)",
	"github.com/in-toto/attestation":                "proof/sigstore (aayu's own Sigstore verifier and TUF client; vsigstore signs, proof/attest writes the Statement, on the standard library)",
	"github.com/in-toto/in-toto-golang":             "proof/sigstore (aayu's own Sigstore verifier and TUF client; vsigstore signs, proof/attest writes the Statement, on the standard library)",
	"github.com/digitorus/pkcs7":                    "proof/sigstore (aayu's own Sigstore verifier and TUF client; vsigstore signs, proof/attest writes the Statement, on the standard library)",
	"github.com/digitorus/timestamp":                "proof/sigstore (aayu's own Sigstore verifier and TUF client; vsigstore signs, proof/attest writes the Statement, on the standard library)",
	"github.com/go-openapi":                         "proof/sigstore (aayu's own Sigstore verifier and TUF client; vsigstore signs, proof/attest writes the Statement, on the standard library)",
	"github.com/asaskevich/govalidator":             "proof/sigstore (aayu's own Sigstore verifier and TUF client; vsigstore signs, proof/attest writes the Statement, on the standard library)",
	"github.com/google/go-containerregistry":        "proof/sigstore (aayu's own Sigstore verifier and TUF client; vsigstore signs, proof/attest writes the Statement, on the standard library)",
	"github.com/opencontainers/go-digest":           "proof/sigstore (aayu's own Sigstore verifier and TUF client; vsigstore signs, proof/attest writes the Statement, on the standard library)",
	"google.golang.org/grpc":                        "proof/sigstore (aayu's own Sigstore verifier and TUF client; vsigstore signs, proof/attest writes the Statement, on the standard library)",
	"github.com/grpc-ecosystem/grpc-gateway":        "proof/sigstore (aayu's own Sigstore verifier and TUF client; vsigstore signs, proof/attest writes the Statement, on the standard library)",
	"google.golang.org/genproto":                    "proof/sigstore (aayu's own Sigstore verifier and TUF client; vsigstore signs, proof/attest writes the Statement, on the standard library)",
	"google.golang.org/protobuf":                    "proof/sigstore (aayu's own Sigstore verifier and TUF client; vsigstore signs, proof/attest writes the Statement, on the standard library)",
	"go.opentelemetry.io/otel":                      "proof/sigstore (aayu's own Sigstore verifier and TUF client; vsigstore signs, proof/attest writes the Statement, on the standard library)",
	"github.com/cyberphone/json-canonicalization":   "proof/sigstore (aayu's own Sigstore verifier and TUF client; vsigstore signs, proof/attest writes the Statement, on the standard library)",
}

// TestAayuLinksNoneOfTheStartupHeavyPackages: `go list -deps` of the
// binary names none of startupHeavy (a package or anything under it).
func TestAayuLinksNoneOfTheStartupHeavyPackages(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not installed")
	}
	out, err := exec.Command("go", "list", "-deps", "github.com/aayudha/aayu").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 100 {
		t.Fatalf("go list -deps named %d packages; the listing is not aayu's", len(deps))
	}
	for _, dep := range deps {
		for heavy, instead := range startupHeavy {
			if dep == heavy || strings.HasPrefix(dep, heavy+"/") {
				t.Errorf("aayu links %s, whose init runs on every start; its use has %s", dep, instead)
			}
		}
	}
}

// initTotals is what GODEBUG=inittrace=1 reports of one run's package
// inits, summed: how many, their wall-clock milliseconds, the bytes and
// the allocations they made.
type initTotals struct {
	inits         int
	ms            float64
	bytes, allocs int64
}

func parseInitTrace(stderr []byte) (initTotals, error) {
	var tot initTotals
	sc := bufio.NewScanner(bytes.NewReader(stderr))
	for sc.Scan() {
		// init PKG @0.5 ms, 0.12 ms clock, 1234 bytes, 5 allocs
		f := strings.Fields(sc.Text())
		if len(f) != 11 || f[0] != "init" || f[5] != "ms" || f[6] != "clock," || f[8] != "bytes," || f[10] != "allocs" {
			continue
		}
		ms, err1 := strconv.ParseFloat(f[4], 64)
		b, err2 := strconv.ParseInt(f[7], 10, 64)
		a, err3 := strconv.ParseInt(f[9], 10, 64)
		if err1 != nil || err2 != nil || err3 != nil {
			return tot, fmt.Errorf("an inittrace line that does not read: %q", sc.Text())
		}
		tot.inits++
		tot.ms += ms
		tot.bytes += b
		tot.allocs += a
	}
	return tot, sc.Err()
}

// The bounds on what aayu's package inits allocate before main: measured
// (GODEBUG=inittrace=1 aayu --version) at 4,228 allocations and 519 kB
// once attestations were verified by aayu's own proof/sigstore, against
// 14,506 and 2.18 MB while sigstore-go, rekor, grpc and protobuf were
// linked, 24,004 and 3.3 MB while aayu's own regular expressions compiled
// at init and minio-go was linked. The bounds are that plus about a tenth,
// so the next package that does real work at init (a regular expression
// table is about 100 allocations) fails here rather than adding up unseen.
// Allocations, not time, are held: they are the same on every run of the
// same build, where the time on this shared machine is not; the time is
// logged beside them.
const (
	maxInitAllocs = 4_700
	maxInitBytes  = 580_000
)

// TestAayuStartupAllocatesUnderItsBound: the package inits of `aayu
// --version` (every init in the binary, since Go runs them all before
// main) allocate at most maxInitAllocs times and maxInitBytes bytes. A new
// dependency with a heavy init, or one of ours that builds a table at
// init, shows here; the fix is to leave it out of the binary or build it
// at first use.
func TestAayuStartupAllocatesUnderItsBound(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not installed")
	}
	bin := buildAayu(t)
	cmd := exec.Command(bin, "--version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("aayu --version: %v\n%s", err, stderr.Bytes())
	}
	tot, err := parseInitTrace(stderr.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if tot.inits < 50 {
		t.Fatalf("inittrace named %d package inits; GODEBUG=inittrace=1 did not reach aayu:\n%s", tot.inits, stderr.Bytes())
	}
	t.Logf("aayu --version: %d package inits, %.1f ms, %d bytes, %d allocations", tot.inits, tot.ms, tot.bytes, tot.allocs)
	if tot.allocs > maxInitAllocs || tot.bytes > maxInitBytes {
		t.Errorf("aayu's package inits allocate %d times and %d bytes before main, more than %d and %d: a package linked since does work at init (run GODEBUG=inittrace=1 aayu --version to see which)",
			tot.allocs, tot.bytes, maxInitAllocs, maxInitBytes)
	}
}

func TestParseInitTraceSumsTheInitLines(t *testing.T) {
	t.Parallel()
	tot, err := parseInitTrace([]byte("init runtime @0.01 ms, 0.05 ms clock, 0 bytes, 0 allocs\nsomething else\ninit a/b @1 ms, 1.5 ms clock, 100 bytes, 3 allocs\n"))
	if err != nil {
		t.Fatal(err)
	}
	if tot.inits != 2 || tot.ms < 1.549 || tot.ms > 1.551 || tot.bytes != 100 || tot.allocs != 3 {
		t.Fatalf("got %+v", tot)
	}
}
