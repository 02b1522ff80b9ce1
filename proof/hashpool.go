package proof

import (
	"crypto/sha256"
	"hash"
	"runtime"
	"sync"
	"sync/atomic"
)

// Hashing is bound by SHA-256 on the CPU, so the artifacts of a pack are
// checked by one worker per usable core, at most maxHashWorkers. Each worker streams every file it
// checks through its own buffer, so memory stays a few buffers' worth
// whatever the sizes: a single 256 MiB artifact costs no more than a
// thousand small ones.
const (
	// hashBufferSize is each worker's read buffer: large enough that the
	// system calls cost little next to hashing what they read.
	hashBufferSize = 256 << 10
	// hashBufferMin keeps a pack of empty files from asking for no buffer.
	hashBufferMin = 4 << 10
	// maxHashWorkers bounds the pool: two streams already keep a disk
	// and two cores busy, and each more costs a buffer and a file handle
	// while a screen and the decoder want the CPU too.
	maxHashWorkers = 2
)

// hashBuffer is one worker's own: the buffer every file it checks streams
// through, and the SHA-256 state it reuses (Reset) for each.
type hashBuffer struct {
	buf []byte
	h   hash.Hash
}

// finding is one worker's result for the artifact at index i.
type finding struct {
	i   int
	bc  byteCheck
	err error
}

// lookAtAll looks at the artifacts whose indexes are in toRead, several at a
// time, and returns what was found by artifact index, so the caller reports
// in pack order whatever order the workers finish in. done is called on the
// calling goroutine, never on a worker, as each artifact finishes. The error
// is non-nil only when ctx ended before every artifact was looked at.
func (v *verifier) lookAtAll(arts []Artifact, toRead []int, done func(i int)) ([]byteCheck, error) {
	if err := v.ctx.Err(); err != nil {
		return nil, err
	}
	checks := make([]byteCheck, len(arts))
	if len(toRead) == 0 {
		return checks, nil
	}
	bufSize := hashBufferMin
	for _, i := range toRead {
		// +1: the read limited to size+1 must be able to see one byte too many.
		bufSize = max(bufSize, int(min(arts[i].Size+1, hashBufferSize)))
	}

	var next atomic.Int64
	results := make(chan finding)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), maxHashWorkers, len(toRead)) {
		wg.Go(func() {
			buf := hashBuffer{buf: make([]byte, bufSize), h: sha256.New()}
			for {
				k := int(next.Add(1) - 1)
				if k >= len(toRead) || v.ctx.Err() != nil {
					return
				}
				i := toRead[k]
				bc, err := v.lookAt(arts[i], &buf)
				results <- finding{i: i, bc: bc, err: err}
			}
		})
	}
	go func() {
		wg.Wait()
		close(results)
	}()

	var firstErr error
	finished := 0
	for f := range results {
		if f.err != nil {
			if firstErr == nil {
				firstErr = f.err
			}
			continue
		}
		checks[f.i] = f.bc
		finished++
		done(f.i)
	}
	if firstErr != nil {
		return nil, firstErr
	}
	if finished < len(toRead) {
		// Workers stop taking artifacts once ctx ends; what they skipped
		// was never looked at and must not be reported as missing.
		return nil, v.ctx.Err()
	}
	return checks, nil
}
