package ghx

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"filippo.io/age"
	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/internal/lazyre"
)

// The token broker (seed 001, "The token broker"; SPEC §10): a laptop's
// agent lane gets the bot App's installation token without the App's
// private key ever leaving GitHub.
const (
	// BrokerWorkflow is the broker's workflow file, dispatched by name.
	BrokerWorkflow = "aayudha-token.yml"
	// BrokerArtifactPrefix starts the artifact's name; the request id ends it.
	BrokerArtifactPrefix = "aayudha-token-"
	// BrokerFile is the one file in the artifact: the age-encrypted payload.
	BrokerFile = "token.age"
	// MaxTokenLifetime is the longest a broker's token may still live when
	// it arrives: an installation token lives one hour, so anything longer
	// is not one.
	MaxTokenLifetime = time.Hour
	// brokerMaxArtifact caps the download: the payload is a few hundred bytes.
	brokerMaxArtifact = 64 << 10
)

// requestIDPattern is the request id's shape: 32 lower-case hex digits.
var requestIDPattern = lazyre.New(`^[0-9a-f]{32}$`)

// Broker errors a caller or test can match.
var (
	ErrBrokerTokenExpired  = errors.New("the broker's token has already expired")
	ErrBrokerTokenTooLong  = fmt.Errorf("the broker's token outlives %s, so it is not an installation token", MaxTokenLifetime)
	ErrBrokerRunFailed     = errors.New("the broker's workflow run did not succeed")
	ErrBrokerWrongRequest  = errors.New("the broker's artifact answers another request")
	ErrBrokerNoRunDetails  = errors.New("GitHub did not name the broker's run")
	ErrBrokerArtifactStays = errors.New("the broker's artifact could not be deleted")
)

// brokerPayload is what the workflow encrypts: the token, when GitHub says
// it expires, and the request it answers.
type brokerPayload struct {
	RequestID string    `json:"request_id"`
	Token     string    `json:"token"`
	ExpiresAt time.Time `json:"expires_at"`
}

// Broker is the client side: Mint dispatches the workflow with the
// person's token (Client) and brings the bot's token back.
type Broker struct {
	Client      *github.Client // authenticated as the person
	Owner, Repo string
	Workflow    string           // BrokerWorkflow when empty
	Ref         string           // the repository's default branch when empty
	Now         func() time.Time // time.Now when nil
	Poll        time.Duration    // between reads of the run; 2s when zero
	Timeout     time.Duration    // for the whole exchange; 3 minutes when zero
}

// Mint makes a one-time age X25519 key pair in memory, dispatches the
// broker with its public key and a random 32-hex request id, waits for the
// run, downloads its artifact aayudha-token-ID, deletes it, decrypts the
// token, and refuses one that is expired or outlives MaxTokenLifetime. The
// private key never leaves this function.
func (b Broker) Mint(ctx context.Context) (Token, error) {
	now := b.Now
	if now == nil {
		now = time.Now
	}
	workflow := b.Workflow
	if workflow == "" {
		workflow = BrokerWorkflow
	}
	timeout := b.Timeout
	if timeout <= 0 {
		timeout = 3 * time.Minute
	}
	poll := b.Poll
	if poll <= 0 {
		poll = 2 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	key, err := age.GenerateX25519Identity()
	if err != nil {
		return Token{}, fmt.Errorf("making the one-time key pair: %w", err)
	}
	var idBytes [16]byte
	if _, err := rand.Read(idBytes[:]); err != nil {
		return Token{}, fmt.Errorf("making the request id: %w", err)
	}
	requestID := hex.EncodeToString(idBytes[:])

	ref := b.Ref
	if ref == "" {
		repo, _, err := b.Client.Repositories.Get(ctx, b.Owner, b.Repo)
		if err != nil {
			return Token{}, fmt.Errorf("reading %s/%s's default branch: %s", b.Owner, b.Repo, Describe(err))
		}
		ref = repo.GetDefaultBranch()
	}
	runID, err := b.dispatch(ctx, workflow, ref, key.Recipient().String(), requestID)
	if err != nil {
		return Token{}, err
	}
	if err := b.waitForRun(ctx, runID, poll); err != nil {
		return Token{}, err
	}
	sealed, err := b.takeArtifact(ctx, runID, BrokerArtifactPrefix+requestID)
	if err != nil {
		return Token{}, err
	}
	return openPayload(sealed, key, requestID, now())
}

// dispatch asks for the run with return_run_details, so the run is known
// by id rather than guessed from a list (go-github v66 lacks the field).
func (b Broker) dispatch(ctx context.Context, workflow, ref, publicKey, requestID string) (int64, error) {
	body := map[string]any{
		"ref":                ref,
		"inputs":             map[string]string{"public_key": publicKey, "request_id": requestID},
		"return_run_details": true,
	}
	u := fmt.Sprintf("repos/%s/%s/actions/workflows/%s/dispatches", b.Owner, b.Repo, workflow)
	req, err := b.Client.NewRequest(http.MethodPost, u, body)
	if err != nil {
		return 0, fmt.Errorf("dispatching %s: %w", workflow, err)
	}
	var details struct {
		WorkflowRunID int64 `json:"workflow_run_id"`
	}
	resp, err := b.Client.Do(ctx, req, &details)
	if err != nil {
		return 0, fmt.Errorf("dispatching %s on %s/%s: %s", workflow, b.Owner, b.Repo, Describe(err))
	}
	if resp.StatusCode != http.StatusOK || details.WorkflowRunID == 0 {
		return 0, fmt.Errorf("dispatching %s: %w (answer %s)", workflow, ErrBrokerNoRunDetails, resp.Status)
	}
	return details.WorkflowRunID, nil
}

// waitForRun reads the run until it completes; anything but success stops.
func (b Broker) waitForRun(ctx context.Context, runID int64, poll time.Duration) error {
	for {
		run, _, err := b.Client.Actions.GetWorkflowRunByID(ctx, b.Owner, b.Repo, runID)
		if err != nil && ctx.Err() == nil {
			return fmt.Errorf("reading the broker's run %d: %s", runID, Describe(err))
		}
		if err == nil && run.GetStatus() == "completed" {
			if run.GetConclusion() != "success" {
				return fmt.Errorf("%w: run %d ended %s; its log is at %s", ErrBrokerRunFailed, runID, run.GetConclusion(), MaskURL(run.GetHTMLURL()))
			}
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for the broker's run %d: %w", runID, ctx.Err())
		case <-time.After(poll):
		}
	}
}

// takeArtifact downloads the named artifact of the run, deletes it, and
// returns the encrypted file inside. The download comes first so that a
// failed deletion leaves nothing readable behind anyway (the key that
// opens it dies with this process), but it is still an error: the seed
// promises the artifact is gone.
func (b Broker) takeArtifact(ctx context.Context, runID int64, name string) ([]byte, error) {
	u := fmt.Sprintf("repos/%s/%s/actions/runs/%d/artifacts?name=%s", b.Owner, b.Repo, runID, name)
	req, err := b.Client.NewRequest(http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	var list github.ArtifactList
	if _, err := b.Client.Do(ctx, req, &list); err != nil {
		return nil, fmt.Errorf("listing the broker run %d's artifacts: %s", runID, Describe(err))
	}
	var art *github.Artifact
	for _, a := range list.Artifacts {
		if a.GetName() == name {
			art = a
		}
	}
	if art == nil {
		return nil, fmt.Errorf("the broker's run %d uploaded no artifact %s", runID, name)
	}
	var zipped bytes.Buffer
	_, derr := DownloadArtifact(ctx, b.Client, b.Owner, b.Repo, art.GetID(), &zipped, brokerMaxArtifact)
	if _, err := b.Client.Actions.DeleteArtifact(ctx, b.Owner, b.Repo, art.GetID()); err != nil {
		return nil, fmt.Errorf("%w: artifact %d (%s): %s; delete it on GitHub", ErrBrokerArtifactStays, art.GetID(), name, Describe(err))
	}
	if derr != nil {
		return nil, derr
	}
	zr, err := zip.NewReader(bytes.NewReader(zipped.Bytes()), int64(zipped.Len()))
	if err != nil {
		return nil, fmt.Errorf("the broker's artifact is not a zip: %w", err)
	}
	for _, f := range zr.File {
		if f.Name != BrokerFile {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return nil, fmt.Errorf("opening %s in the broker's artifact: %w", BrokerFile, err)
		}
		defer rc.Close()
		return io.ReadAll(io.LimitReader(rc, brokerMaxArtifact))
	}
	return nil, fmt.Errorf("the broker's artifact holds no %s", BrokerFile)
}

// openPayload decrypts the payload with the one-time key and checks it
// answers this request and holds a token that is alive and lives no more
// than MaxTokenLifetime from now.
func openPayload(sealed []byte, key *age.X25519Identity, requestID string, now time.Time) (Token, error) {
	r, err := age.Decrypt(bytes.NewReader(sealed), key)
	if err != nil {
		return Token{}, fmt.Errorf("decrypting the broker's token: %w", err)
	}
	var p brokerPayload
	dec := json.NewDecoder(io.LimitReader(r, brokerMaxArtifact))
	if err := dec.Decode(&p); err != nil {
		return Token{}, errors.New("the broker's payload is not the JSON aayu expects")
	}
	switch {
	case p.RequestID != requestID:
		return Token{}, ErrBrokerWrongRequest
	case strings.TrimSpace(p.Token) == "":
		return Token{}, errors.New("the broker's payload holds no token")
	case p.ExpiresAt.IsZero():
		return Token{}, errors.New("the broker's payload does not say when the token expires")
	case !now.Before(p.ExpiresAt):
		return Token{}, fmt.Errorf("%w (at %s)", ErrBrokerTokenExpired, p.ExpiresAt.UTC().Format(time.RFC3339))
	case p.ExpiresAt.Sub(now) > MaxTokenLifetime:
		return Token{}, fmt.Errorf("%w (it expires at %s)", ErrBrokerTokenTooLong, p.ExpiresAt.UTC().Format(time.RFC3339))
	}
	return NewToken(p.Token, SourceBroker), nil
}

// AppClientIDVariable and AppKeySecret are where the broker's workflow
// finds the bot App: the repository variable holding its client ID and the
// secret holding its private key (aayu init --identity sets both).
const (
	AppClientIDVariable = "AAYUDHA_APP_CLIENT_ID"
	AppKeySecret        = "AAYUDHA_APP_PRIVATE_KEY"
)

// TokenExpirationHeader is where GitHub says when the token a request was
// made with expires ("2026-12-02 07:41:00 UTC").
const TokenExpirationHeader = "GitHub-Authentication-Token-Expiration"

// SealBrokerToken is the workflow's side (aayu token seal --ci): it asks
// GitHub, with the freshly minted installation token, when that token
// expires, and encrypts token, expiry and request id to the requester's
// age public key. It refuses a malformed key or request id, and a token
// GitHub gives no expiry for, so nothing unbounded is ever sealed.
func SealBrokerToken(ctx context.Context, client *github.Client, tok Token, publicKey, requestID string, w io.Writer) error {
	if !requestIDPattern().MatchString(requestID) {
		return errors.New("the request id is not 32 lower-case hex digits")
	}
	recipient, err := age.ParseX25519Recipient(strings.TrimSpace(publicKey))
	if err != nil {
		return errors.New("the public key is not an age X25519 recipient (age1…)")
	}
	req, err := client.NewRequest(http.MethodGet, "installation/repositories?per_page=1", nil)
	if err != nil {
		return err
	}
	resp, err := client.Do(ctx, req, nil)
	if err != nil {
		return fmt.Errorf("checking the installation token with GitHub: %s", Describe(err))
	}
	exp, err := parseTokenExpiration(resp.Header.Get(TokenExpirationHeader))
	if err != nil {
		return err
	}
	enc, err := age.Encrypt(w, recipient)
	if err != nil {
		return fmt.Errorf("encrypting the token: %w", err)
	}
	if err := json.NewEncoder(enc).Encode(brokerPayload{RequestID: requestID, Token: tok.Reveal(), ExpiresAt: exp}); err != nil {
		return fmt.Errorf("encrypting the token: %w", err)
	}
	if err := enc.Close(); err != nil {
		return fmt.Errorf("encrypting the token: %w", err)
	}
	return nil
}

// parseTokenExpiration reads GitHub's expiry header, in the forms GitHub
// has used ("2006-01-02 15:04:05 UTC", with or without the zone name).
func parseTokenExpiration(v string) (time.Time, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return time.Time{}, fmt.Errorf("GitHub did not say when the token expires (no %s header), so it is not sealed", TokenExpirationHeader)
	}
	for _, layout := range []string{"2006-01-02 15:04:05 MST", "2006-01-02 15:04:05 -0700", time.RFC3339} {
		if t, err := time.Parse(layout, v); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("GitHub's %s header is not a time aayu reads", TokenExpirationHeader)
}
