package param

import "testing"

type shade int

var shades = Enum[shade]{Pkg: "paint", Type: "Shade", Noun: "shade", Names: []string{"red", "green", "blue"}}

func TestEnum(t *testing.T) {
	if got := shades.String(1); got != "green" {
		t.Errorf("String(1) = %q, want green", got)
	}
	if got := shades.String(3); got != "Shade(3)" {
		t.Errorf("String(3) = %q, want Shade(3)", got)
	}
	if b, err := shades.MarshalText(0); err != nil || string(b) != "red" {
		t.Errorf("MarshalText(0) = %q, %v; want red", b, err)
	}
	for v, want := range map[shade]string{-1: "paint: Shade(-1) is not a valid shade", 3: "paint: Shade(3) is not a valid shade"} {
		if _, err := shades.MarshalText(v); err == nil || err.Error() != want {
			t.Errorf("MarshalText(%d): error %v, want %q", v, err, want)
		}
	}
	for in, want := range map[string]shade{"": 0, "red": 0, "blue": 2} {
		if got, err := shades.Parse(in); got != want || err != nil {
			t.Errorf("Parse(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if _, err := shades.Parse("Blue"); err == nil || err.Error() != `paint: unknown shade "Blue" (want red, green or blue)` {
		t.Errorf("Parse(Blue): error %v", err)
	}
	one := Enum[shade]{Pkg: "p", Noun: "mode", Names: []string{"only"}}
	if err := one.Unknown("x"); err.Error() != `p: unknown mode "x" (want only)` {
		t.Errorf("Unknown with one name: %v", err)
	}
	s := shade(1)
	if err := UnmarshalText(&s, []byte("red"), shades.Parse); err != nil || s != 0 {
		t.Errorf("UnmarshalText(red): %v, %v", s, err)
	}
	s = 1
	if err := UnmarshalText(&s, []byte("cyan"), shades.Parse); err == nil || s != 1 {
		t.Errorf("UnmarshalText(cyan): %v, %v; want an error and the value kept", s, err)
	}
}
