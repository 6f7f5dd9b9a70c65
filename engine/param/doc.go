// Package param derives a model family's parameters from one declaration:
// struct tags on the fields of its Options.
//
// A field is declared by its tags:
//
//	K       int     `param:"k" default:"20" range:"[1,inf)" doc:"number of topics K"`
//	Lambda1 float64 `param:"lambda1" default:"0.5" range:"[0,inf)" doc:"weight λ1 of the regularizer on U"`
//	Variant Variant `param:"variant" default:"u1v2" range:"u1v2|u2v1|u1v1|u2v2" doc:"norms on U and V"`
//
// param is the key of the parameter as the catalog, the command line and
// the experiment grids write it; default is its value when the key is
// absent; range says which values the key accepts; doc is a one-line
// description. From that declaration come the parsing and range checks of
// string parameters (Parse), the defaults (Defaults), the parameter list
// of the catalog and the CLI (Declared) and the canonical strings (Format).
// Fields without a param tag (custom starting matrices, worker pools, …)
// cannot be written as strings and are not parameters.
//
// # Kinds of field
//
//   - int, uint64 and float64: decimal numbers; range is an interval
//     "[a,b]", "(a,b)", "[a,b)" or "(a,b]" whose bounds may be "inf" or
//     "-inf", or a union of intervals and single numbers, "[2,inf)|-1".
//     No range means any finite number (any uint64 for a uint64,
//     listed as "[0,inf)"). NaN and ±Inf are never accepted.
//   - string: range lists the accepted values, "a|b|c"; without a range
//     any string is accepted (a file name), and the owner checks it.
//   - []string: a comma-separated list, each item one of range's values
//     (any string without a range).
//   - bool: "true" or "false" (anything strconv.ParseBool reads; listed
//     as "true|false"). A bool
//     may instead name its two values in range, the false one first:
//     `range:"absolute|relative"` reads "absolute" as false and "relative"
//     as true.
//   - a type whose pointer implements encoding.TextUnmarshaler and whose
//     value implements encoding.TextMarshaler (an enumeration); range lists
//     the canonical names for the documentation, and UnmarshalText decides
//     what it accepts. MarshalText must fail on a value that is not one of
//     the enumeration's members.
//   - a struct field tagged with a list of keys, `param:"iters,tol"`: the
//     listed parameters of the nested struct (engine.Stopping declares
//     iters, tol and eval-every) become parameters of the family. A tag
//     named after a nested key replaces that key's doc, e.g.
//     `tol:"relative change of the log-likelihood that stops the fit"`.
//
// # Unset and zero
//
// An absent key takes the declared default; a key given as "0" is 0. In a
// Go literal of Options, where every field not written is zero, one rule
// decides what zero means:
//
//   - a field whose range contains 0 (a λ, a tolerance, a burn-in, a number
//     of power iterations, a number of shared topics) means exactly 0: a
//     literal that wants the default must say so, or start from the
//     family's Defaults();
//   - a field whose range excludes 0 (K, an iteration count, a number of
//     sweeps, eval-every, a Dirichlet parameter) has no zero to mean, so 0
//     selects the declared default: nmf.Options{K: 20} is 20 topics with
//     every other setting at its default.
//
// A default that depends on other parameters ("50/K", "max(K, 10)",
// "iters/2") is written as that text, and the tag auto names the value
// that stands for it in Options, which the family resolves when it fits:
// `default:"50/K" auto:"0" range:"(0,inf)"` (0 outside the range, as the
// rule above wants) or `default:"iters/2" auto:"-1" range:"[0,inf)"` (a
// value outside the range where 0 is legal). Parse accepts the text of such
// a default as a value, so Format and Parse round-trip.
//
// param imports nothing of this module: the engine and the families only
// write tags, and the catalog, the CLI and the tests read them.
package param
