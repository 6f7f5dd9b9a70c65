//go:build !cblas

package dense

// useBLAS is false in the default (pure-Go) build; see cblas.go.
const useBLAS = false
