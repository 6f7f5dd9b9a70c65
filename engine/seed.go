package engine

import (
	"crypto/sha256"
	"encoding/binary"
	"math/rand/v2"
)

// DeriveSeed derives a 64-bit seed from a root seed and any number of parts
// (experiment id, canonical config, replicate, ...) by SHA-256, so that each
// job of a sweep has its own stream whatever order jobs run in.
func DeriveSeed(root uint64, parts ...string) uint64 {
	h := sha256.New()
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], root)
	h.Write(b[:])
	for _, p := range parts {
		binary.LittleEndian.PutUint64(b[:], uint64(len(p)))
		h.Write(b[:])
		h.Write([]byte(p))
	}
	return binary.LittleEndian.Uint64(h.Sum(nil)[:8])
}

// NewRand returns a PCG generator for seed. All randomness in topicmf comes
// from generators made here; there is no global RNG.
func NewRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
}
