package proof

import (
	"testing"
	"time"
)

func TestZZNum(t *testing.T) {
	for _, n := range []string{"1e99", "1e9999", "1e999999", "1e99999999"} {
		start := time.Now()
		done := make(chan struct{})
		go func() { Decode([]byte(`{"schema_version":1,"story":` + n + `}`)); close(done) }()
		select {
		case <-done:
			t.Logf("%s: %v", n, time.Since(start))
		case <-time.After(5 * time.Second):
			t.Logf("%s: still running after 5s", n)
		}
	}
}
