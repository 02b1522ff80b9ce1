package main

import (
	"context"

	core "github.com/aayudha/aayu/actions/doctor"
	"github.com/aayudha/aayu/screens/doctor"
	"github.com/aayudha/aayu/tui"
)

// doctorScreen wires `aayu doctor`: reads only, so anyone may run it.
func (w wiring) doctorScreen() (tui.Screen, error) {
	ctx, sess, common := w.ctx, w.sess, w.common
	if sess.owner == "" {
		return nil, openErr(tui.ExitUsage, "which repository? Give --repo OWNER/NAME (or run it in a checkout whose origin is on GitHub).")
	}
	return doctor.New(ctx, common, func(ctx context.Context) (core.Report, error) {
		tok, _, err := sess.resolve(ctx)
		if err != nil {
			return core.Report{}, err
		}
		gh, err := sess.client(tok)
		if err != nil {
			return core.Report{}, err
		}
		return core.Check(ctx, gh, sess.owner, sess.repo)
	}), nil
}
