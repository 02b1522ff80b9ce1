//go:build !unix

package inboxread_test

import "time"

// processCPU is not measured off Unix; the benchmark then omits cpu-s/op.
func processCPU() time.Duration { return 0 }
