// Package config layers aayu's settings (SPEC §9) with koanf: built-in
// defaults, the repository's .aayudha/config.toml, the user's config file,
// AAYU_* environment variables and --set flags, lowest to highest. It reads
// only the bytes and variables it is given, so the caller decides which copy
// of the repository file counts (for policy: the base branch's, never the
// checkout's).
package config
