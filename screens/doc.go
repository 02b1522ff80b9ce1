// Package screens holds aayu's screens, one sub-package per screen. Each is a
// Bubble Tea model implementing tui.Screen: its Update never does I/O (every
// file read, GitHub call or test run is a tea.Cmd into the core), and its
// Transcript is the plain twin read by screen readers and CI.
package screens
