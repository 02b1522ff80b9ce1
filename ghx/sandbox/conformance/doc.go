// Package conformance checks the sandbox GitHub against GitHub's own
// OpenAPI description (testdata/openapi at the repository root): every
// response is matched to its operation by method and path template and its
// JSON body validated with the response schema for its status. An unknown
// operation, an undescribed status, a body that does not match, or a
// missing GitHub header fails the test.
//
// It is a test helper for any package: StartSandbox gives a validated
// sandbox; Validator.Wrap validates any handler; Coverage and
// RunWithCoverage (from TestMain) fail a suite that never served one of
// the operations in operations.txt. It must not be imported by
// non-test code, and it never changes a response.
package conformance
