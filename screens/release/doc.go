// Package release is the screen of `aayu release --to BRANCH`: what the
// integration branch holds that the stable branch lacks, story by story,
// what it carries without proof and what blocks it; then the person's yes
// to the writes listed (the promotion, the promotion record, the tag, the
// release), in the full screen and its plain twin.
package release
