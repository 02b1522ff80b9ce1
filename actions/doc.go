// Package actions holds aayu's background commands that write: the write
// queue (two at a time, never two on one pull request or issue), the re-read
// before every write, and the actions log. It never imports Bubble Tea and
// never writes without re-reading the item first.
package actions
