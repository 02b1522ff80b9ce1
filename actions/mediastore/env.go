package mediastore

import (
	"fmt"
	"net/url"
	"os"
	"strings"
)

// The variables a bucket's credential and endpoint are read from: each
// cloud's own, the ones its CLI and SDKs read, so a person's existing
// set-up works unchanged (and the proof-media secret is exported as them
// in CI). Their values are never printed.
const (
	EnvAWSAccessKey    = "AWS_ACCESS_KEY_ID"
	EnvAWSSecretKey    = "AWS_SECRET_ACCESS_KEY"
	EnvAWSSessionToken = "AWS_SESSION_TOKEN"
	EnvAWSRegion       = "AWS_REGION"
	EnvAWSDefaultReg   = "AWS_DEFAULT_REGION"
	EnvAWSEndpointS3   = "AWS_ENDPOINT_URL_S3"
	EnvAWSEndpoint     = "AWS_ENDPOINT_URL"

	EnvGoogleCredentials = "GOOGLE_APPLICATION_CREDENTIALS" // a service account's JSON key file
	EnvGoogleToken       = "GOOGLE_OAUTH_ACCESS_TOKEN"      // or an OAuth 2.0 access token
	EnvGCSEmulator       = "STORAGE_EMULATOR_HOST"          // host:port or URL of another endpoint

	EnvAzureConnection = "AZURE_STORAGE_CONNECTION_STRING"
	EnvAzureAccount    = "AZURE_STORAGE_ACCOUNT"
	EnvAzureKey        = "AZURE_STORAGE_KEY"
	EnvAzureSAS        = "AZURE_STORAGE_SAS_TOKEN"
)

// CredentialFromEnv reads the credential a [proof] media URL's kind of
// bucket needs from getenv (and the key file GOOGLE_APPLICATION_CREDENTIALS
// names). A missing credential is ErrNoCredential, naming the variables to
// set; no value ever appears in an error.
func CredentialFromEnv(rawURL string, getenv func(string) string) (Credential, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return Credential{}, fmt.Errorf("%w: [proof] media is not a bucket URL", ErrUnusable)
	}
	switch u.Scheme {
	case "s3", "r2":
		return s3Env(u.Scheme, getenv)
	case "gs":
		return gcsEnv(getenv)
	case "azblob":
		return azureEnv(getenv)
	}
	return Credential{}, fmt.Errorf("%w: [proof] media names a %s:// store; use s3://, r2://, gs:// or azblob://", ErrUnusable, clip(u.Scheme))
}

// s3Env reads the AWS CLI's variables.
func s3Env(scheme string, getenv func(string) string) (Credential, error) {
	c := Credential{AccessKeyID: getenv(EnvAWSAccessKey), SecretAccessKey: getenv(EnvAWSSecretKey), SessionToken: getenv(EnvAWSSessionToken),
		Region: firstSet(getenv(EnvAWSRegion), getenv(EnvAWSDefaultReg)), Endpoint: firstSet(getenv(EnvAWSEndpointS3), getenv(EnvAWSEndpoint))}
	if c.AccessKeyID == "" || c.SecretAccessKey == "" {
		return c, fmt.Errorf("%w: set %s and %s (as for the AWS CLI) to a key that may write to the bucket", ErrNoCredential, EnvAWSAccessKey, EnvAWSSecretKey)
	}
	if scheme == "r2" && c.Endpoint == "" {
		return c, fmt.Errorf("%w: [proof] media names an r2:// bucket; set %s to the account's R2 endpoint (https://ACCOUNT.r2.cloudflarestorage.com)", ErrUnusable, EnvAWSEndpointS3)
	}
	return c, nil
}

// gcsEnv reads Google's: the key file Application Default Credentials
// names, or a token, and the emulator convention for another endpoint.
func gcsEnv(getenv func(string) string) (Credential, error) {
	c := Credential{AccessToken: getenv(EnvGoogleToken)}
	if f := getenv(EnvGoogleCredentials); f != "" {
		b, err := os.ReadFile(f)
		if err != nil {
			return c, fmt.Errorf("%w: the key file %s names cannot be read", ErrNoCredential, EnvGoogleCredentials)
		}
		c.ServiceAccountJSON = b
	}
	if e := getenv(EnvGCSEmulator); e != "" {
		if !strings.Contains(e, "://") {
			e = "http://" + e // the emulator convention: host:port, plain HTTP
		}
		c.Endpoint = e
	}
	if c.AccessToken == "" && len(c.ServiceAccountJSON) == 0 {
		return c, fmt.Errorf("%w: set %s to a service account's JSON key file (or %s to an access token) that may write to the bucket", ErrNoCredential, EnvGoogleCredentials, EnvGoogleToken)
	}
	return c, nil
}

// azureEnv reads the Azure CLI's: a connection string, or the account
// with its key or a SAS token.
func azureEnv(getenv func(string) string) (Credential, error) {
	c := Credential{Account: getenv(EnvAzureAccount), AccountKey: getenv(EnvAzureKey), SAS: getenv(EnvAzureSAS)}
	if cs := getenv(EnvAzureConnection); cs != "" {
		c = parseConnectionString(cs)
	}
	if c.Account == "" || (c.AccountKey == "" && c.SAS == "") {
		return c, fmt.Errorf("%w: set %s and %s (or %s), or %s, as for the Azure CLI", ErrNoCredential, EnvAzureAccount, EnvAzureKey, EnvAzureSAS, EnvAzureConnection)
	}
	return c, nil
}

// parseConnectionString reads an Azure Storage connection string
// (AccountName=…;AccountKey=…;BlobEndpoint=…;SharedAccessSignature=…).
func parseConnectionString(cs string) Credential {
	var c Credential
	for _, part := range strings.Split(cs, ";") {
		k, v, _ := strings.Cut(part, "=")
		switch strings.TrimSpace(k) {
		case "AccountName":
			c.Account = v
		case "AccountKey":
			c.AccountKey = v
		case "SharedAccessSignature":
			c.SAS = v
		case "BlobEndpoint":
			c.Endpoint = v
		}
	}
	return c
}

func firstSet(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}
