package main

import (
	"io"
	"os"
)

// readCapped reads at most limit+1 bytes of a file, so a file far over
// the limit is refused by its checker without being read whole.
func readCapped(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, limit+1))
}
