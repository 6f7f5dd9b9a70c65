package linediff

import "testing"

func TestFirst(t *testing.T) {
	cases := []struct {
		a, b   []string
		line   int
		x, y   string
		differ bool
	}{
		{[]string{"p", "q"}, []string{"p", "q"}, 0, "", "", false},
		{nil, nil, 0, "", "", false},
		{[]string{"p", "q", "r"}, []string{"p", "x", "y"}, 2, "q", "x", true},
		{[]string{"p"}, []string{"p", "q"}, 2, "", "q", true},
		{[]string{"p", "q"}, []string{"p"}, 2, "q", "", true},
		// A missing line reads as "": an extra empty line is no difference.
		{[]string{"p", ""}, []string{"p"}, 0, "", "", false},
	}
	for _, c := range cases {
		line, x, y, ok := First(c.a, c.b)
		if line != c.line || x != c.x || y != c.y || ok != c.differ {
			t.Errorf("First(%q, %q) = %d, %q, %q, %v; want %d, %q, %q, %v", c.a, c.b, line, x, y, ok, c.line, c.x, c.y, c.differ)
		}
	}
}
