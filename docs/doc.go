// Package docs holds aayu's documentation pages (the *.md files beside this
// one) and the test that keeps them and the README true: every relative link
// resolves, the README stays short and names every command, flag, --json
// field and configuration key, and architecture.md names every package. It
// has no code of its own; the test sits here, beside the pages it reads,
// because the root holds only main.go and no other package owns the docs.
package docs
