package cli

import (
	"context"
	"fmt"
	"time"

	core "github.com/aayudha/aayu/actions/doctor"
	"github.com/aayudha/aayu/actions/hostsetup"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/screens/doctor"
	"github.com/aayudha/aayu/tui"
)

// doctorScreen wires `aayu doctor`: reads only, so anyone may run it.
func (w wiring) doctorScreen() (tui.Screen, error) {
	ctx, sess, common := w.ctx, w.sess, w.common
	if sess.owner == "" {
		return nil, openErr(tui.ExitUsage, whichRepository)
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
		rep, err := core.CheckWith(ctx, gh, sess.owner, sess.repo, w.credentials(tok))
		if err == nil {
			rep.Rows = append(rep.Rows, w.agentHostsRow())
		}
		return rep, err
	}), nil
}

// agentHostsRow is doctor's row for the agent hosts of the checkout it
// runs in (aayu hooks status's answer), from this machine's files.
func (w wiring) agentHostsRow() core.Row {
	root, err := hooksRoot()
	if err != nil {
		root = ""
	}
	return core.AgentHostsRow(root, hostsetup.OnPath(w.e.getenv("PATH")))
}

// credentials wires the approvals row's search to this process: its
// environment, gh's profiles under HOME, git's credential helper, aayu's
// own token and keyring, and GitHub's GET /user for whose each token is.
func (w wiring) credentials(own ghx.Token) core.Credentials {
	sess, e := w.sess, w.e
	return func(ctx context.Context) ([]core.Credential, string) {
		scheme, host := "https", ghx.GhHostname(sess.apiURL)
		if u, err := ghx.ParseAPIURL(sess.apiURL); err == nil && u.Scheme == "http" {
			scheme = "http"
		}
		whoAmI := func(ctx context.Context, tok ghx.Token) (string, []string, error) {
			// No cache: whose a token is must be GitHub's answer now.
			c, err := ghx.NewClient(ghx.ClientOptions{APIURL: sess.apiURL, Token: tok, UserAgent: "aayu"})
			if err != nil {
				return "", nil, err
			}
			ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
			defer cancel()
			u, resp, err := c.Users.Get(ctx, "")
			if err != nil {
				return "", nil, fmt.Errorf("asking GitHub whose a token is: %w", err)
			}
			return u.GetLogin(), ghx.Scopes(resp.Header), nil
		}
		creds := core.FindCredentials(ctx, core.Reach{
			Environ: e.environ, Home: e.getenv("HOME"), Host: host, Scheme: scheme,
			GitCredential: core.GitCredentialFill(e.environ), Own: own, Keyring: ghx.KeyringToken(nil, 0), WhoAmIScopes: whoAmI,
		})
		viewer := ""
		for _, c := range creds {
			if c.Source == core.OwnSource(own) {
				viewer = c.Account
			}
		}
		return creds, viewer
	}
}

// doctorCommand is aayu doctor's table entry and run.
func doctorCommand() command {
	return command{
		def: tui.CommandDef{
			Name:    "doctor",
			Group:   "setup",
			Short:   "check the set-up against GitHub, one next step per row",
			Example: "aayu doctor",
		},
		run: screenRun(wiring.doctorScreen),
	}
}
