package param

import (
	"errors"
	"strings"
	"testing"
)

type shade int

var shades = Enum[shade]{Pkg: "paint", Type: "shade", Noun: "a shade", Names: []string{"red", "green"}}

func parseShade(s string) (shade, error) {
	for c, name := range shades.Names {
		if s == name {
			return shade(c), nil
		}
	}
	return 0, errors.New("paint: unknown shade " + s)
}

func TestEnum(t *testing.T) {
	if got := shades.String(1); got != "green" {
		t.Errorf("String(1) = %q, want green", got)
	}
	if got := shades.String(2); got != "shade(2)" {
		t.Errorf("String(2) = %q, want shade(2)", got)
	}
	if b, err := shades.MarshalText(0); err != nil || string(b) != "red" {
		t.Errorf("MarshalText(0) = %q, %v; want red", b, err)
	}
	for _, v := range []shade{-1, 2} {
		if _, err := shades.MarshalText(v); err == nil || !strings.Contains(err.Error(), "paint: shade(") || !strings.HasSuffix(err.Error(), "is not a shade") {
			t.Errorf("MarshalText(%d): error %v", v, err)
		}
	}
	c := shade(1)
	if err := UnmarshalText(&c, []byte("red"), parseShade); err != nil || c != 0 {
		t.Errorf("UnmarshalText(red): %v, %v", c, err)
	}
	c = 1
	if err := UnmarshalText(&c, []byte("blue"), parseShade); err == nil || c != 1 {
		t.Errorf("UnmarshalText(blue): %v, %v; want an error and the value kept", c, err)
	}
}
