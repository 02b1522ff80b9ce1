package proof

import (
	"fmt"
	"io"
	"os"
)

// Limits cap what verification will read before it allocates or hashes, so a
// hostile pack cannot exhaust memory or time. The zero value of a field means
// "use the default".
type Limits struct {
	PackJSONBytes int64 // largest pack.json accepted
	Artifacts     int   // most artifacts listed in one pack
	TotalBytes    int64 // sum of declared artifact sizes
}

// Default caps. A real pack.json is a few kilobytes and a run artifact with
// recordings a few hundred megabytes; these leave room without inviting abuse.
const (
	DefaultPackJSONBytes = 4 << 20
	DefaultArtifacts     = 10_000
	DefaultTotalBytes    = 4 << 30
)

// withDefaults fills every zero field with its default.
func (l Limits) withDefaults() Limits {
	if l.PackJSONBytes <= 0 {
		l.PackJSONBytes = DefaultPackJSONBytes
	}
	if l.Artifacts <= 0 {
		l.Artifacts = DefaultArtifacts
	}
	if l.TotalBytes <= 0 {
		l.TotalBytes = DefaultTotalBytes
	}
	return l
}

// ReadFileCapped reads a whole file that must not be larger than limit
// bytes, reading at most limit+1 so a lying or growing file never costs
// more memory than the cap. Only a regular file is read (see OpenRegular).
func ReadFileCapped(name string, limit int64) ([]byte, error) {
	f, err := OpenRegular(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%s is larger than %d bytes", name, limit)
	}
	return b, nil
}

// OpenRegular opens name for reading only if it is a regular file: a FIFO
// or device named by a flag or a config path would block or never end, so
// it is refused before it is opened, and opened without blocking in case it
// was swapped in since. A missing file's error still matches
// os.ErrNotExist.
func OpenRegular(name string) (*os.File, error) {
	info, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file (%s); only regular files are read", name, describeMode(info.Mode()))
	}
	f, err := os.OpenFile(name, os.O_RDONLY|openNonBlocking, 0)
	if err != nil {
		return nil, err
	}
	if opened, err := f.Stat(); err != nil || !opened.Mode().IsRegular() || !os.SameFile(info, opened) {
		f.Close()
		return nil, fmt.Errorf("%s changed while it was being opened; only the regular file first seen is read", name)
	}
	return f, nil
}
