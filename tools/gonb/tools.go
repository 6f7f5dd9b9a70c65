//go:build tools

// Package tools pins the notebook tool chain: the gonb Jupyter kernel and
// goimports, which gonb calls on every cell. scripts/install-notebook-tools.sh
// builds both from this module, so their versions live in this go.mod.
package tools

import (
	_ "github.com/janpfeifer/gonb"
	_ "golang.org/x/tools/cmd/goimports"
)
