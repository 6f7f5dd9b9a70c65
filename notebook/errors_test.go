package notebook

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestWrongFamilyOneLine: a wrong family name in a cell, `f, err :=
// Fit(c, "nfm", ...); Check(err)`, ends the program (a gonb cell) with
// status 1 and one line on standard error, worded "family", without a
// goroutine trace. The cell runs in a child process: this test binary
// with CHECK_CELL set.
func TestWrongFamilyOneLine(t *testing.T) {
	if os.Getenv("CHECK_CELL") == "1" {
		_, err := Fit(userCorpus(t), "nfm", Params{"k": "2"})
		Check(err)
		t.Fatal("Check returned after an error")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestWrongFamilyOneLine$")
	cmd.Env = append(os.Environ(), "CHECK_CELL=1")
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("cell ended with %v, want exit status 1; stderr:\n%s", err, stderr.String())
	}
	want := `topicmf: fit: unknown family "nfm" (known: cnmf, `
	got := stderr.String()
	if !strings.HasPrefix(got, want) || strings.Count(got, "\n") != 1 || strings.Contains(got, "goroutine") {
		t.Errorf("stderr = %q, want one line starting %q", got, want)
	}
}

// TestCheckInInterpreter: inside gophernotes, Check panics with an error
// holding the one line (the kernel recovers it and shows it as the cell's
// error) rather than exiting the kernel's process.
func TestCheckInInterpreter(t *testing.T) {
	defer func(was bool) { interpreted = was }(interpreted)
	interpreted = true
	defer func(was func(int)) { exit = was }(exit)
	exit = func(int) { t.Fatal("Check exited the kernel's process") }
	Check(nil)
	defer func() {
		err, ok := recover().(error)
		if !ok || !strings.HasPrefix(err.Error(), `topicmf: sweep s: unknown family "nfm" (known: cnmf, `) || strings.Contains(err.Error(), "\n") {
			t.Errorf("Check panicked with %v, want the one-line error", err)
		}
	}()
	_, err := Sweep(userCorpus(t), SweepSpec{Name: "s", Family: "nfm"})
	Check(err)
	t.Fatal("Check returned after an error")
}

func TestErrorLineIsOneLine(t *testing.T) {
	if got := ErrorLine(errors.New("read x:\n  line 3: bad\tfield")); got != "topicmf: read x: line 3: bad field" {
		t.Errorf("ErrorLine = %q", got)
	}
}
