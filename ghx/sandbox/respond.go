package sandbox

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
)

const docsURL = "https://docs.github.com/rest"

// bufWriter buffers a handler's response so the pipeline can add the ETag,
// answer 304, or cut the body short for the drop fault.
type bufWriter struct {
	h      http.Header
	status int
	body   bytes.Buffer
}

func newBufWriter() *bufWriter { return &bufWriter{h: http.Header{}} }

func (b *bufWriter) Header() http.Header { return b.h }
func (b *bufWriter) Write(p []byte) (int, error) {
	if b.status == 0 {
		b.status = http.StatusOK
	}
	return b.body.Write(p)
}
func (b *bufWriter) WriteHeader(code int) {
	if b.status == 0 {
		b.status = code
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := appendJSON(nil, v)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "Server Error: "+err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// writeError writes GitHub's basic-error body.
func writeError(w http.ResponseWriter, status int, message string) {
	writeErrorDoc(w, status, message, docsURL)
}

func writeErrorDoc(w http.ResponseWriter, status int, message, doc string) {
	writeJSON(w, status, map[string]any{
		"message":           message,
		"documentation_url": doc,
		"status":            strconv.Itoa(status),
	})
}

func notFound(w http.ResponseWriter) { writeError(w, http.StatusNotFound, "Not Found") }

// fieldError is one entry of a 422's errors[].
type fieldError struct {
	Resource string `json:"resource"`
	Field    string `json:"field,omitempty"`
	Code     string `json:"code"`
	Message  string `json:"message,omitempty"`
}

// writeValidation writes GitHub's validation-error body.
func writeValidation(w http.ResponseWriter, errs ...fieldError) {
	writeJSON(w, http.StatusUnprocessableEntity, map[string]any{
		"message":           "Validation Failed",
		"errors":            errs,
		"documentation_url": docsURL,
		"status":            "422",
	})
}

// decodeBody reads a JSON request body; on failure it writes GitHub's
// 400 "Problems parsing JSON" and returns false.
func decodeBody(w http.ResponseWriter, r *http.Request, v any) bool {
	dec := json.NewDecoder(http.MaxBytesReader(nil, r.Body, 32<<20))
	if err := dec.Decode(v); err != nil {
		writeError(w, http.StatusBadRequest, "Problems parsing JSON")
		return false
	}
	return true
}
