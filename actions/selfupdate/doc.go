// Package selfupdate is `aayu self-update`'s core: it reads the newest
// release of aayu's own repository, downloads the file built for this
// platform, proves it with its build attestation (proof/attest's
// VerifyBuild: the same Sigstore check ship gives a pack, held to the
// release workflow of that repository at the release's tag), and only then
// replaces the running binary: written beside it and synced, renamed over
// it in one step, the old one kept as NAME.old until the new one answers
// --version, and put back when it does not.
//
// Every reason it does not replace the binary is a *Refusal in words,
// with nothing changed. It must not print, import Bubble Tea, or decide
// who may run it (the command's lane rules do).
package selfupdate
