package syncbuf

import (
	"strings"
	"sync"
	"testing"
)

// TestBufferKeepsEveryWriteWhileRead: eight writers and a reader at once
// lose no byte (and, under -race, show no race).
func TestBufferKeepsEveryWriteWhileRead(t *testing.T) {
	t.Parallel()
	var b Buffer
	var wg sync.WaitGroup
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 200 {
			_ = b.String()
		}
	}()
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 500 {
				if n, err := b.Write([]byte("ab")); n != 2 || err != nil {
					t.Errorf("Write = %d, %v", n, err)
				}
			}
		}()
	}
	wg.Wait()
	<-done
	if got := b.String(); got != strings.Repeat("ab", 8*500) {
		t.Errorf("after 4,000 writes of %q the buffer holds %d bytes, want 8,000 in order pairs", "ab", len(got))
	}
}
