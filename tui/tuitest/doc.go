// Package tuitest holds the checks every screen's tests make of what it
// draws: a full-screen view fits its terminal, plain output holds no escape
// sequence, box drawing or spinner, and both compare with golden files.
//
// It is imported only from _test.go files. It must not be imported by any
// program code, must not drive a screen itself (each screen's tests know how
// to bring it to a state), and keeps no package-level mutable state.
package tuitest
