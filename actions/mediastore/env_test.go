package mediastore

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCredentialFromEnvRefusesAMissingCredentialNamingTheVariables: each
// kind without its credential is refused with the variables to set, and a
// value set is never repeated; what is set is read as each cloud's tools
// read it.
func TestCredentialFromEnvRefusesAMissingCredentialNamingTheVariables(t *testing.T) {
	t.Parallel()
	none := func(string) string { return "" }
	for url, want := range map[string]string{
		"s3://b/p":     "AWS_SECRET_ACCESS_KEY",
		"r2://b/p":     "AWS_ACCESS_KEY_ID",
		"gs://b/p":     "GOOGLE_APPLICATION_CREDENTIALS",
		"azblob://c/p": "AZURE_STORAGE_CONNECTION_STRING",
	} {
		if _, err := CredentialFromEnv(url, none); !errors.Is(err, ErrNoCredential) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s with no credential: %v, want ErrNoCredential naming %s", url, err, want)
		}
	}
	env := map[string]string{"AWS_ACCESS_KEY_ID": "id", "AWS_SECRET_ACCESS_KEY": "r2-secret-value"}
	if _, err := CredentialFromEnv("r2://b/p", func(k string) string { return env[k] }); !errors.Is(err, ErrUnusable) || strings.Contains(err.Error(), "r2-secret-value") {
		t.Errorf("r2 without its endpoint: %v", err)
	}
	key := filepath.Join(t.TempDir(), "key.json")
	if err := os.WriteFile(key, []byte(`{"type":"service_account"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	gs := map[string]string{"GOOGLE_APPLICATION_CREDENTIALS": key, "STORAGE_EMULATOR_HOST": "localhost:4443"}
	c, err := CredentialFromEnv("gs://b/p", func(k string) string { return gs[k] })
	if err != nil || c.Endpoint != "http://localhost:4443" || string(c.ServiceAccountJSON) != `{"type":"service_account"}` {
		t.Errorf("gs: %+v %v", c, err)
	}
	az := map[string]string{"AZURE_STORAGE_CONNECTION_STRING": "DefaultEndpointsProtocol=http;AccountName=dev;AccountKey=a2V5==;BlobEndpoint=http://127.0.0.1:10000/dev;"}
	c, err = CredentialFromEnv("azblob://c/p", func(k string) string { return az[k] })
	if err != nil || c.Account != "dev" || c.AccountKey != "a2V5==" || c.Endpoint != "http://127.0.0.1:10000/dev" {
		t.Errorf("azblob: %+v %v", c, err)
	}
	if _, err := Open("s3://user:pass@b/p", Credential{}); !errors.Is(err, ErrUnusable) || strings.Contains(err.Error(), "pass") {
		t.Errorf("a URL with a credential: %v", err)
	}
}
