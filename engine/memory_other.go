//go:build !linux

package engine

// memoryLimit is Memory() and the name of its limit: 0 and "" (unknown:
// CheckMemory passes) outside Linux.
func memoryLimit() (uint64, string) { return 0, "" }
