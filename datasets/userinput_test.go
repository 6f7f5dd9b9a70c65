package datasets

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestReadUserRefusesFIFO: a FIFO given as the input (with no writer) is
// refused at once in one line, whatever the format, rather than blocking
// the command (issue 23: it hung, deaf to SIGTERM).
func TestReadUserRefusesFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "docs.csv")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("cannot make a FIFO: %v", err)
	}
	want := fifo + " is a FIFO (named pipe), not a regular file or a folder; save the input to a file first"
	for name, read := range map[string]func() error{
		"ReadUser":          func() error { _, err := ReadUser(fifo, UserOptions{}); return err },
		"ReadUser --format": func() error { _, err := ReadUser(fifo, UserOptions{Format: FormatSMART}); return err },
		"UserFormat":        func() error { _, err := UserFormat(fifo, ""); return err },
		"UserSHA256":        func() error { _, err := UserSHA256(fifo); return err },
	} {
		done := make(chan error, 1)
		go func() { done <- read() }()
		select {
		case err := <-done:
			if err == nil || err.Error() != want {
				t.Errorf("%s: err = %v, want %q", name, err, want)
			}
		case <-time.After(10 * time.Second):
			t.Errorf("%s: still blocked on the FIFO after 10 s", name)
		}
	}
	if strings.Contains(want, "\n") {
		t.Error("message is not one line")
	}
}
