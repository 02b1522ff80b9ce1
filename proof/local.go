package proof

import "context"

// LoadLocal reads and decodes a local pack folder's pack.json (the seed's
// name for ReadPackDir with the default caps) without checking artifacts.
func LoadLocal(dir string) (*Pack, []byte, error) { return ReadPackDir(dir, Limits{}) }

// VerifyLocal verifies a local pack folder against the Ready snapshot and
// the pull request's current head: the seed's name for VerifyDir.
func VerifyLocal(ctx context.Context, dir string, ready *Ready, head string, progress func(Progress)) (*Report, error) {
	return VerifyDir(ctx, dir, Options{Ready: ready, HeadSHA: head, Progress: progress})
}
