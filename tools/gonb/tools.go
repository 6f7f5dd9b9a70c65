//go:build tools

// Package tools pins the notebook tool chain: the gonb Jupyter kernel,
// goimports, which gonb calls on every cell, and gopls, which gives gonb
// its completion and contextual help. scripts/install-notebook-tools.sh
// builds the three from this module, so their versions live in this
// go.mod (gopls v0.23.0 sets golang.org/x/tools, goimports included).
package tools

import (
	_ "github.com/janpfeifer/gonb"
	_ "golang.org/x/tools/cmd/goimports"
	_ "golang.org/x/tools/gopls"
)
