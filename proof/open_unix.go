//go:build unix

package proof

import "syscall"

// openNonBlocking keeps open from waiting for a writer should a FIFO be
// swapped in after the file was checked to be regular.
const openNonBlocking = syscall.O_NONBLOCK
