package main

import (
	"os"
	"runtime/pprof"
	"testing"
	"time"

	"github.com/aayudha/aayu/ghx/sandbox"
)

func TestI13ProfCold(t *testing.T) {
	srv, _ := sandbox.New(sandbox.Options{Scale: 10000, Faults: sandbox.FaultSpec{Latency: 50 * time.Millisecond}})
	base, _ := srv.Start("")
	home := t.TempDir()
	f, _ := os.Create("/tmp/i13-cold.prof")
	pprof.StartCPUProfile(f)
	took, _ := listOnce(t, base, home)
	pprof.StopCPUProfile()
	t.Log("cold", took)
}
