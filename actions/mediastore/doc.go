// Package mediastore is the one API through which media reach a private
// bucket ([proof] media): Open(url, credential) gives a Store with Put
// (write-once: other bytes under a key are refused), Get, Stat, Delete and
// SetRetention (the bucket's lifecycle rule, where the credential can;
// where it cannot, an error that says so in words). Keys are
// content-addressed (Store.Key). aayu proof push --media and aayu ship copy
// through it; the credential is cut out of every error it returns.
//
// The drivers speak each protocol on net/http and the standard library:
// S3 and R2 (Signature Version 4), Cloud Storage's JSON API (an OAuth 2.0
// token from a service account's key, JWT bearer grant signed RS256) and
// Azure Blob (SharedKey HMAC-SHA256, or a SAS token).
//
// Why not gocloud.dev/blob, measured: Go runs every linked package's init
// on every start, and `aayu hook` starts before each shell command an
// agent types. gocloud.dev v0.49.0's own drivers (s3blob, gcsblob,
// azureblob) add about 15 ms of inits and 60 MB; its portable core alone
// (blob and blob/driver, which pull in grpc, protobuf and OpenTelemetry
// through gcerrors) is 168 package inits: a program that links only it
// takes 7 ms of CPU against 2 ms for an empty one (farm-bench, 30 pairs),
// where this package adds no package init of its own. So the Store keeps
// gocloud's shape (a portable type over one driver interface per
// protocol, the same verbs) without linking it; docs/performance.md has
// the figures.
package mediastore
