package proof

import (
	"bytes"
	"fmt"
)

// MaxRecordingBytes caps a recording the web floor keeps or the verifier
// reads: a page loading for the floor's 30 seconds at most, in VP8 at the
// floor's bit rate, is a few megabytes.
const MaxRecordingBytes = 64 << 20

// ebmlMagic opens every Matroska and WebM file: the EBML header's element
// ID, 0x1A45DFA3 (RFC 8794 §8.1; WebM is Matroska with DocType "webm").
var ebmlMagic = []byte{0x1a, 0x45, 0xdf, 0xa3}

// recordingHeadBytes is how much of a recording the verifier keeps to look
// at: the magic, and in a file ffmpeg wrote, the whole EBML header.
const recordingHeadBytes = 64

// RecordingFault says why a recording whose first bytes are head (at most
// its first 64) and whose size is size does not look like WebM, or "": the
// verifier's check, made on bytes it hashed, beside the PNG decode the web
// floor makes of a screenshot. An empty recording, or one that does not
// open with the EBML magic, is refused.
func RecordingFault(head []byte, size int64) string {
	switch {
	case size == 0:
		return "is empty (0 bytes): a recording of nothing proves nothing"
	case !bytes.HasPrefix(head, ebmlMagic):
		return fmt.Sprintf("is not WebM: it does not open with the EBML magic 1A45DFA3 (it opens with %s)", openingBytes(head))
	}
	return ""
}

// CheckRecording says why b is not a WebM recording the web floor may keep,
// or nil: at most MaxRecordingBytes, opening with the EBML magic, and an
// EBML header whose DocType is "webm" (not another Matroska file).
func CheckRecording(b []byte) error {
	if len(b) > MaxRecordingBytes {
		return fmt.Errorf("the recording is %d bytes, more than the %d aayu reads", len(b), MaxRecordingBytes)
	}
	if why := RecordingFault(b[:min(len(b), recordingHeadBytes)], int64(len(b))); why != "" {
		return fmt.Errorf("the recording %s", why)
	}
	if docType(b) != "webm" {
		return fmt.Errorf("the recording is Matroska but its EBML header names no DocType \"webm\"")
	}
	return nil
}

// docType reads the DocType (element 0x4282) of the EBML header at the
// start of b, or "". It reads only the header's own elements, each an ID
// of one to four bytes and a size of one to eight (EBML variable-size
// integers, RFC 8794 §4).
func docType(b []byte) string {
	if !bytes.HasPrefix(b, ebmlMagic) {
		return ""
	}
	size, n := ebmlVint(b[4:])
	if n == 0 || size > uint64(len(b)-4-n) {
		return ""
	}
	hdr := b[4+n : 4+n+int(size)]
	for len(hdr) > 0 {
		idLen := ebmlWidth(hdr[0])
		if idLen == 0 || idLen > 4 || idLen > len(hdr) {
			return ""
		}
		id := hdr[:idLen]
		sz, m := ebmlVint(hdr[idLen:])
		if m == 0 || sz > uint64(len(hdr)-idLen-m) {
			return ""
		}
		val := hdr[idLen+m : idLen+m+int(sz)]
		if bytes.Equal(id, []byte{0x42, 0x82}) {
			return string(bytes.TrimRight(val, "\x00"))
		}
		hdr = hdr[idLen+m+int(sz):]
	}
	return ""
}

// ebmlWidth is the length of the variable-size integer whose first byte
// is c: one more than its leading zero bits; 0 when c is 0 (invalid).
func ebmlWidth(c byte) int {
	for i := range 8 {
		if c&(0x80>>i) != 0 {
			return i + 1
		}
	}
	return 0
}

// ebmlVint reads an EBML variable-size integer (its marker bit removed)
// and how many bytes it took; 0 bytes when b does not start with one.
func ebmlVint(b []byte) (uint64, int) {
	if len(b) == 0 {
		return 0, 0
	}
	w := ebmlWidth(b[0])
	if w == 0 || w > len(b) {
		return 0, 0
	}
	v := uint64(b[0] & (0xff >> w))
	for _, c := range b[1:w] {
		v = v<<8 | uint64(c)
	}
	return v, w
}

// openingBytes are a file's first four bytes in hex, or "nothing".
func openingBytes(head []byte) string {
	if len(head) == 0 {
		return "nothing"
	}
	return fmt.Sprintf("% X", head[:min(len(head), 4)])
}
