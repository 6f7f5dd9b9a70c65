package notebook

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/topicmf/topicmf/engine/catalog"
)

// Check ends the cell when err is not nil, with one line and no goroutine
// trace: ErrorLine(err), the words the topicmf command prints for the same
// failure. How a cell ends depends on the kernel:
//
//   - gonb compiles each cell into a program of its own: Check writes the
//     line to standard error and exits with status 1, which is gonb's way
//     of failing a cell; the line shows under the cell, gonb reports "exit
//     status 1", and a headless run (nbconvert) stops there with the line
//     in its failure output.
//   - gophernotes interprets the cells inside the kernel's own process,
//     which must not exit: Check panics with an error holding the line,
//     which the kernel recovers and returns as the cell's error (no trace).
//
// A plain Go program calling Check ends as a gonb cell does.
func Check(err error) {
	if err == nil {
		return
	}
	line := ErrorLine(err)
	if interpreted {
		panic(errors.New(line))
	}
	fmt.Fprintln(os.Stderr, line)
	exit(1)
}

// ErrorLine is err as the topicmf command prints it: "topicmf: " and the
// message, its white space (newlines included) folded into single spaces.
func ErrorLine(err error) string {
	return "topicmf: " + strings.Join(strings.Fields(err.Error()), " ")
}

// interpreted is true inside the gophernotes kernel, whose process runs
// the cells (os.Args[0] is the kernel's executable); a gonb cell is a
// program of its own.
var interpreted = strings.HasPrefix(filepath.Base(os.Args[0]), "gophernotes")

// exit is os.Exit; tests replace it.
var exit = os.Exit

// checkFamily is the error for a family name the catalog does not have,
// worded as the API names its argument: "family" (the catalog's own error
// says "model", the command's flag).
func checkFamily(name string) error {
	if _, err := catalog.Lookup(name); err != nil {
		return fmt.Errorf("unknown family %q (known: %s)", name, strings.Join(catalog.Names(), ", "))
	}
	return nil
}
