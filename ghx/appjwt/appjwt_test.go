package appjwt

import (
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"strings"
	"testing"
	"time"
)

// TestSignIsAJWTGitHubAccepts: RS256 over header.claims with the App's
// key, iss the client ID, issued a minute back and valid nine more (under
// GitHub's ten); a key that is not PEM is refused in words.
func TestSignIsAJWTGitHubAccepts(t *testing.T) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	keyPEM := string(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)}))
	now := time.Date(2026, 12, 2, 7, 0, 0, 0, time.UTC)
	jwt, err := Sign(keyPEM, "Iv1.abc", now)
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(jwt, ".")
	if len(parts) != 3 {
		t.Fatalf("not three parts: %q", jwt)
	}
	sig, _ := base64.RawURLEncoding.DecodeString(parts[2])
	sum := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	if err := rsa.VerifyPKCS1v15(&key.PublicKey, crypto.SHA256, sum[:], sig); err != nil {
		t.Errorf("the signature does not verify: %v", err)
	}
	raw, _ := base64.RawURLEncoding.DecodeString(parts[1])
	var claims struct {
		Iss      string
		Iat, Exp int64
	}
	if err := json.Unmarshal(raw, &claims); err != nil {
		t.Fatal(err)
	}
	if claims.Iss != "Iv1.abc" || claims.Iat != now.Add(-time.Minute).Unix() || claims.Exp-claims.Iat > 600 {
		t.Errorf("claims %+v", claims)
	}
	if _, err := Sign("not a key", "Iv1.abc", now); err == nil || !strings.Contains(err.Error(), "not PEM") {
		t.Errorf("a key that is not PEM: %v", err)
	}
}
