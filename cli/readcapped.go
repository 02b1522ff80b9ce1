package cli

import (
	"io"

	"github.com/aayudha/aayu/proof"
)

// readCapped reads at most limit+1 bytes of a file, so a file far over
// the limit is refused by its checker without being read whole. Only a
// regular file is read: a FIFO at a config path would block the command
// before it drew anything.
func readCapped(path string, limit int64) ([]byte, error) {
	f, err := proof.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, limit+1))
}
