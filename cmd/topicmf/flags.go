package main

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/topicmf/topicmf/engine/param"
)

// This file holds the flag machinery every command shares: flags declared
// by engine/param parameters (the text pipeline's, rank's), the inputs a
// flag applies to (declared on the flag itself), and the plain wording of
// a value a flag cannot parse.

// paramFlag is a flag declared by an engine/param parameter: its name,
// help, default and range are the declaration's, and Set checks a value
// against the range by parsing it into the declaring struct.
type paramFlag struct {
	p     param.Param
	given map[string]string // the values given, by key
	parse func(map[string]string) error
	err   error // the last value refused (flagError reports it)
}

func (v *paramFlag) String() string {
	if s, ok := v.given[v.p.Key]; ok {
		return s
	}
	return v.p.Default
}

func (v *paramFlag) Set(s string) error {
	if err := v.parse(map[string]string{v.p.Key: s}); err != nil {
		v.err = fmt.Errorf("--%s %q: %s", v.p.Key, s, paramReason(err))
		return v.err
	}
	v.given[v.p.Key] = s
	return nil
}

// Type is pflag's name of the value's type, shown in the help.
func (v *paramFlag) Type() string {
	switch t := v.p.Type(); t {
	case "[]string":
		return "strings"
	case "float64":
		return "float"
	default:
		return t
	}
}

// boolParamFlag is a paramFlag of a bool: given alone, it is true.
type boolParamFlag struct{ *paramFlag }

func (boolParamFlag) IsBoolFlag() bool { return true }

// paramReason is the reason of param.Parse's error for one key, without
// the "parameter key = value:" the flag's own message replaces.
func paramReason(err error) string {
	if ve, ok := errors.AsType[*param.ValueError](err); ok {
		return ve.Reason.Error()
	}
	return err.Error()
}

// addParamFlags adds a flag for each parameter of params, named by its
// key, with its doc (prefixed by prefix) as help. The values given are
// collected in given; each is checked at once against its declared range
// by parse (a scratch parse into the declaring struct).
func addParamFlags(fs *pflag.FlagSet, params []param.Param, given map[string]string, prefix string, parse func(map[string]string) error) {
	for _, p := range params {
		v := &paramFlag{p: p, given: given, parse: parse}
		var value pflag.Value = v
		if p.Type() == "bool" {
			value = boolParamFlag{v}
		}
		f := fs.VarPF(value, p.Key, "", prefix+p.Doc)
		f.DefValue = p.Default
		if p.Type() == "bool" {
			f.NoOptDefVal = "true"
		}
	}
}

// Inputs a flag applies to (annotateInputs).
const (
	inputRegistered = "registered" // a registered data set (--data NAME)
	inputFile       = "file"       // a user's collection without named fields
	inputColumns    = "columns"    // a user's CSV/TSV or JSONL file
	inputMTX        = "mtx"        // a Matrix Market file (fit --mtx)
)

// inputsKey is the flag annotation listing the inputs a flag applies to.
const inputsKey = "topicmf-inputs"

// textInputs are the inputs of the text pipeline.
var textInputs = []string{inputRegistered, inputFile, inputColumns}

// annotateInputs declares that the named flags of fs apply to inputs only.
func annotateInputs(fs *pflag.FlagSet, inputs []string, names ...string) {
	for _, n := range names {
		if err := fs.SetAnnotation(n, inputsKey, inputs); err != nil {
			panic(err) // a flag that does not exist: a programming error
		}
	}
}

// checkInputs refuses the first flag given (in name order) that does not
// apply to the input, of kind input (inputRegistered, …; format names a
// user file's format).
func checkInputs(fs *pflag.FlagSet, input, format string) error {
	var err error
	fs.Visit(func(f *pflag.Flag) {
		allowed, ok := f.Annotations[inputsKey]
		if err != nil || !ok || slices.Contains(allowed, input) {
			return
		}
		err = fmt.Errorf("--%s %s", f.Name, notApplying(allowed, input, format))
	})
	return err
}

// notApplying says what a flag applies to (allowed) and what it was given
// with (input).
func notApplying(allowed []string, input, format string) string {
	has := func(k string) bool { return slices.Contains(allowed, k) }
	switch {
	case input == inputMTX:
		return "applies to --data, not to --mtx"
	case input == inputRegistered && (has(inputFile) || has(inputColumns)):
		return "applies to a --data PATH, not to a registered data set"
	case input == inputFile && has(inputColumns):
		return fmt.Sprintf("applies to a CSV, TSV or JSONL file, not to a %s input (%s)", format, userFormatFields[format])
	case input != inputRegistered && has(inputRegistered):
		return "applies to a registered data set, not to a --data PATH"
	}
	return "applies to --mtx, not to --data"
}

// plainValue is a typed flag's value whose parse error is said in words
// ("want an integer") instead of strconv's.
type plainValue struct {
	pflag.Value
	err error // the last value refused (flagError reports it)
}

func (v *plainValue) Set(s string) error {
	if reason := unparsable(v.Type(), s); reason != "" {
		v.err = fmt.Errorf("%q: %s", s, reason)
		return v.err
	}
	return v.Value.Set(s)
}

// plainBool is a plainValue of a bool flag: given alone, it is true.
type plainBool struct{ *plainValue }

func (plainBool) IsBoolFlag() bool { return true }

// unparsable says why s is not a value of the pflag type typ, "" when it
// is (or when typ is not a number or a bool).
func unparsable(typ, s string) string {
	var err error
	want := ""
	switch typ {
	case "int":
		_, err = strconv.ParseInt(s, 0, strconv.IntSize)
		want = "an integer"
	case "uint64":
		_, err = strconv.ParseUint(s, 0, 64)
		want = "a whole number ≥ 0"
	case "float64":
		var x float64
		if x, err = strconv.ParseFloat(s, 64); err == nil && (math.IsNaN(x) || math.IsInf(x, 0)) {
			return "want a finite number"
		}
		want = "a number"
	case "bool":
		_, err = strconv.ParseBool(s)
		want = "true or false"
	default:
		return ""
	}
	if err == nil {
		return ""
	}
	if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
		return "out of range, want " + want
	}
	return "want " + want
}

// plainFlags makes the number and bool flags of cmd and of every command
// under it say a bad value in words (plainValue).
func plainFlags(cmd *cobra.Command) {
	for _, fs := range []*pflag.FlagSet{cmd.Flags(), cmd.PersistentFlags()} {
		fs.VisitAll(func(f *pflag.Flag) {
			switch f.Value.(type) {
			case *plainValue, plainBool, *paramFlag, boolParamFlag:
				return // says its errors in words already
			}
			switch {
			case f.Value.Type() == "bool":
				f.Value = plainBool{&plainValue{Value: f.Value}}
			case unparsable(f.Value.Type(), "x") != "":
				f.Value = &plainValue{Value: f.Value}
			}
		})
	}
	for _, c := range cmd.Commands() {
		plainFlags(c)
	}
}

// refusedValue is the error of the flag of cmd whose value was refused,
// said in words, or nil.
func refusedValue(cmd *cobra.Command) error {
	var err error
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		switch v := f.Value.(type) {
		case *plainValue:
			if v.err != nil && err == nil {
				err = fmt.Errorf("--%s %w", f.Name, v.err)
			}
		case plainBool:
			if v.err != nil && err == nil {
				err = fmt.Errorf("--%s %w", f.Name, v.err)
			}
		case *paramFlag:
			if v.err != nil && err == nil {
				err = v.err
			}
		case boolParamFlag:
			if v.err != nil && err == nil {
				err = v.err
			}
		}
	})
	return err
}
