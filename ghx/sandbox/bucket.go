package sandbox

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
)

// The sandbox bucket's credential: gofakes3 does not check signatures, so
// these only fill the variables the real S3 client needs.
const (
	BucketAccessKey = "sandbox-media"
	BucketSecretKey = "sandbox-media-secret"
)

// Bucket is the sandbox's private media bucket: an S3-speaking server
// (gofakes3 over memory, buckets made on first use) on a loopback port, so
// aayu --sandbox proof push --media copies media with the same S3 client
// it uses against a real bucket. Its objects live as long as the process.
type Bucket struct {
	srv      *http.Server
	Endpoint string // http://127.0.0.1:PORT, for AWS_ENDPOINT_URL_S3
}

// StartBucket serves a fresh bucket server on 127.0.0.1.
func StartBucket() (*Bucket, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("starting the sandbox's media bucket: %w", err)
	}
	b := &Bucket{
		srv:      &http.Server{Handler: gofakes3.New(s3mem.New(), gofakes3.WithAutoBucket(true)).Server(), ReadHeaderTimeout: 10 * time.Second},
		Endpoint: "http://" + ln.Addr().String(),
	}
	go func() {
		if err := b.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			_ = ln.Close()
		}
	}()
	return b, nil
}

// Close stops the server; its objects are gone.
func (b *Bucket) Close() error { return b.srv.Close() }
