package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// maxFuncLines is the longest a function under cmd/ may be: the commands
// are flags and printing, and the work is in the library packages
// (experiments/workflow above all), so a longer function is work that
// belongs there.
const maxFuncLines = 80

// TestCommandsAreThin counts, with go/ast, the lines of every function
// and function literal of the non-test files under cmd/, and fails on one
// over maxFuncLines. (A literal is counted on its own and as part of its
// enclosing function.)
func TestCommandsAreThin(t *testing.T) {
	fset := token.NewFileSet()
	counted := 0
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			var name string
			switch fn := n.(type) {
			case *ast.FuncDecl:
				name = fn.Name.Name
			case *ast.FuncLit:
				name = "func literal"
			default:
				return true
			}
			counted++
			lines := fset.Position(n.End()).Line - fset.Position(n.Pos()).Line + 1
			if lines > maxFuncLines {
				t.Errorf("%s: %s is %d lines, want ≤ %d", fset.Position(n.Pos()), name, lines, maxFuncLines)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if counted < 100 {
		t.Fatalf("counted %d functions under cmd/: the walk missed the commands", counted)
	}
}
