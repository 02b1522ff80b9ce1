// Package reviewer is the merge gate's reviewer model behind inspect: an
// OpenAI-compatible chat completions endpoint or Anthropic's Messages API,
// spoken with net/http. It
// uses no model SDK on purpose: every package of aayu's one binary runs its
// inits at every start, `aayu --version` included, and openai-go's cost
// more than this whole request does. The key is the repository secret
// AAYUDHA_REVIEWER_KEY; it is sent to the endpoint only and never appears
// in an error.
package reviewer

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/aayudha/aayu/actions/inspect"
)

// KeyVariable is the environment variable the inspect job's step holds the
// key in.
const KeyVariable = "AAYUDHA_REVIEWER_KEY"

// maxReply caps the endpoint's answer.
const maxReply = 1 << 20

// New builds the reviewer the base policy's [inspect] table names. An
// "openai" reviewer speaks chat completions at endpoint (an
// OpenAI-compatible server; "" is OpenAI's). Any other name is refused in
// words, and the gate stays at the human rung.
func New(s inspect.Settings, key string, httpClient *http.Client) (inspect.Reviewer, error) {
	if s.Model == "" {
		return nil, errors.New("[inspect] model is not set")
	}
	endpoint := s.Endpoint
	switch s.Reviewer {
	case "openai":
		if endpoint == "" {
			endpoint = "https://api.openai.com/v1"
		}
	case "anthropic":
		if endpoint == "" {
			endpoint = "https://api.anthropic.com/v1"
		}
	default:
		return nil, fmt.Errorf("[inspect] reviewer %q is none aayu knows (openai, anthropic)", s.Reviewer)
	}
	if key == "" {
		return nil, fmt.Errorf("the repository secret %s is empty", KeyVariable)
	}
	u, err := url.Parse(endpoint)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.User != nil {
		return nil, fmt.Errorf("[inspect] endpoint %q is not an http(s) address", s.Endpoint)
	}
	if httpClient == nil {
		httpClient = http.DefaultClient
	}
	base := strings.TrimSuffix(endpoint, "/")
	if s.Reviewer == "anthropic" {
		return &anthropic{http: httpClient, url: base + "/messages", model: s.Model, host: u.Host, key: key}, nil
	}
	return &openAI{http: httpClient, url: base + "/chat/completions", model: s.Model, host: u.Host, key: key}, nil
}

type openAI struct {
	http             *http.Client
	url, model, host string
	key              string
}

func (o *openAI) Name() string { return fmt.Sprintf("openai %s at %s", o.model, o.host) }

type message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Ask sends one chat completion (OpenAI's "Create chat completion": POST
// /chat/completions with model and messages): aayu's system words, then
// the prompt. The first choice's text and the usage come back; nothing
// else of the answer is read.
func (o *openAI) Ask(ctx context.Context, system, prompt string) (inspect.Reply, error) {
	body, _ := json.Marshal(struct {
		Model    string    `json:"model"`
		Messages []message `json:"messages"`
	}{o.model, []message{{"system", system}, {"user", prompt}}})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, o.url, bytes.NewReader(body))
	if err != nil {
		return inspect.Reply{}, errors.New(strings.ReplaceAll(err.Error(), o.key, "[the reviewer key]"))
	}
	req.Header.Set("Authorization", "Bearer "+o.key)
	b, err := exchange(ctx, o.http, req, o.key)
	if err != nil {
		return inspect.Reply{}, err
	}
	var out struct {
		Choices []struct {
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
		} `json:"choices"`
		Usage struct {
			PromptTokens     int64 `json:"prompt_tokens"`
			CompletionTokens int64 `json:"completion_tokens"`
		} `json:"usage"`
	}
	if err := json.Unmarshal(b, &out); err != nil {
		return inspect.Reply{}, errors.New("the endpoint's answer is not a chat completion")
	}
	r := inspect.Reply{TokensIn: out.Usage.PromptTokens, TokensOut: out.Usage.CompletionTokens}
	if len(out.Choices) == 0 {
		return r, errors.New("the endpoint answered with no choice")
	}
	r.Text = out.Choices[0].Message.Content
	return r, nil
}

// exchange sends one request and reads its answer, capped; the key never
// appears in an error's words.
func exchange(ctx context.Context, hc *http.Client, req *http.Request, key string) ([]byte, error) {
	req.Header.Set("Content-Type", "application/json")
	redact := func(s string) string { return strings.ReplaceAll(s, key, "[the reviewer key]") }
	resp, err := hc.Do(req)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, context.DeadlineExceeded
		}
		return nil, errors.New(redact(err.Error()))
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxReply+1))
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, context.DeadlineExceeded
		}
		return nil, errors.New(redact(err.Error()))
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("the endpoint answered %s", resp.Status)
	}
	if len(b) > maxReply {
		return nil, fmt.Errorf("the endpoint's answer is over %d bytes", maxReply)
	}
	return b, nil
}

type anthropic struct {
	http             *http.Client
	url, model, host string
	key              string
}

func (a *anthropic) Name() string { return fmt.Sprintf("anthropic %s at %s", a.model, a.host) }

// Ask sends one message (Anthropic's Messages API: POST /v1/messages with
// x-api-key and anthropic-version, model, max_tokens, system and the
// user's message). The text blocks and the usage come back; nothing else
// of the answer is read.
func (a *anthropic) Ask(ctx context.Context, system, prompt string) (inspect.Reply, error) {
	body, _ := json.Marshal(struct {
		Model     string    `json:"model"`
		MaxTokens int       `json:"max_tokens"`
		System    string    `json:"system"`
		Messages  []message `json:"messages"`
	}{a.model, 1024, system, []message{{"user", prompt}}})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.url, bytes.NewReader(body))
	if err != nil {
		return inspect.Reply{}, errors.New(strings.ReplaceAll(err.Error(), a.key, "[the reviewer key]"))
	}
	req.Header.Set("x-api-key", a.key)
	req.Header.Set("anthropic-version", "2023-06-01")
	b, err := exchange(ctx, a.http, req, a.key)
	if err != nil {
		return inspect.Reply{}, err
	}
	var out struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		Usage struct {
			InputTokens  int64 `json:"input_tokens"`
			OutputTokens int64 `json:"output_tokens"`
		} `json:"usage"`
	}
	if err := json.Unmarshal(b, &out); err != nil {
		return inspect.Reply{}, errors.New("the endpoint's answer is not a message")
	}
	r := inspect.Reply{TokensIn: out.Usage.InputTokens, TokensOut: out.Usage.OutputTokens}
	for _, c := range out.Content {
		if c.Type == "text" {
			r.Text += c.Text
		}
	}
	if r.Text == "" {
		return r, errors.New("the endpoint answered with no text")
	}
	return r, nil
}
