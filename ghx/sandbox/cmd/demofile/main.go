// Command demofile prints one file of the sandbox demo repository's main
// branch, read back from its git objects, so CI can lint the sandbox's own
// copy of the merge gate rather than the template it was seeded from.
package main

import (
	"fmt"
	"os"

	"github.com/aayudha/aayu/ghx/sandbox"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: demofile PATH")
		os.Exit(2)
	}
	srv, err := sandbox.New(sandbox.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	b, err := srv.File("main", os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Stdout.Write(b)
}
