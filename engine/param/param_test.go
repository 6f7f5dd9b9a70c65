package param

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// color is an enumeration, as the families' Variant or Weighting.
type color int

var colorNames = []string{"red", "green"}

func (c color) MarshalText() ([]byte, error) {
	if c < 0 || int(c) >= len(colorNames) {
		return nil, fmt.Errorf("color(%d)", int(c))
	}
	return []byte(colorNames[c]), nil
}

func (c *color) UnmarshalText(b []byte) error {
	for i, n := range colorNames {
		if string(b) == n {
			*c = color(i)
			return nil
		}
	}
	return fmt.Errorf("no color %q", b)
}

// stop is a nested declaration, as engine.Stopping.
type stop struct {
	N     int     `param:"n" default:"100" range:"[1,inf)" doc:"iterations"`
	Tol   float64 `param:"tol" default:"1e-4" doc:"tolerance; 0 or negative: none"`
	Every int     `param:"every" default:"1" range:"[1,inf)" doc:"evaluate every"`
}

type opts struct {
	K      int     `param:"k" default:"20" range:"[1,inf)" doc:"topics"`
	Lambda float64 `param:"lambda" default:"0.5" range:"[0,inf)" doc:"λ"`
	Frac   float64 `param:"frac" default:"0.1" range:"(0,1)" doc:"a fraction"`
	Seed   uint64  `param:"seed" default:"0" doc:"seed"`
	Init   string  `param:"init" default:"random" range:"random|svd" doc:"start"`
	Scale  bool    `param:"scale" default:"absolute" range:"absolute|relative" doc:"λ scale"`
	Round  bool    `param:"round" default:"false" doc:"round"`
	Color  color   `param:"color" default:"red" range:"red|green" doc:"a color"`
	Alpha  float64 `param:"alpha" default:"50/K" auto:"0" range:"(0,inf)" doc:"Dirichlet α"`
	Burn   int     `param:"burnin" default:"iters/2" auto:"-1" range:"[0,inf)" doc:"burn-in"`
	Stop   stop    `param:"n,tol" tol:"relative change of the loss"`
	Pool   *int    // not a parameter
}

func defaults() opts {
	var o opts
	Defaults(&o)
	return o
}

func TestDeclared(t *testing.T) {
	got := map[string]Param{}
	var keys []string
	for _, p := range Declared(opts{}) {
		got[p.Key] = p
		keys = append(keys, p.Key)
	}
	if want := "k lambda frac seed init scale round color alpha burnin n tol"; strings.Join(keys, " ") != want {
		t.Errorf("keys %q, want %q (declaration order, every and Pool left out)", strings.Join(keys, " "), want)
	}
	for _, c := range []struct{ key, def, rng, doc, field string }{
		{"k", "20", "[1,inf)", "topics", "K"},
		{"seed", "0", "[0,inf)", "seed", "Seed"},
		{"round", "false", "true|false", "round", "Round"},
		{"scale", "absolute", "absolute|relative", "λ scale", "Scale"},
		{"alpha", "50/K", "(0,inf)", "Dirichlet α", "Alpha"},
		{"n", "100", "[1,inf)", "iterations", "Stop.N"},
		// The canonical default is strconv's shortest 'g' form; the nested
		// doc is replaced by the outer field's tol tag.
		{"tol", "0.0001", "", "relative change of the loss", "Stop.Tol"},
	} {
		p := got[c.key]
		if p.Default != c.def || p.Range != c.rng || p.Doc != c.doc || p.Field != c.field {
			t.Errorf("%s: got (%q, %q, %q, %q), want (%q, %q, %q, %q)", c.key, p.Default, p.Range, p.Doc, p.Field, c.def, c.rng, c.doc, c.field)
		}
	}
}

func TestDefaults(t *testing.T) {
	o := defaults()
	want := opts{K: 20, Lambda: 0.5, Frac: 0.1, Init: "random", Alpha: 0, Burn: -1, Stop: stop{N: 100, Tol: 1e-4}}
	if !reflect.DeepEqual(o, want) {
		t.Errorf("Defaults: %+v, want %+v", o, want)
	}
}

func TestParse(t *testing.T) {
	for _, c := range []struct {
		in   map[string]string
		want func(*opts) // the change from the defaults
		err  string      // a substring of the error, "" for none
	}{
		{in: nil, want: func(*opts) {}},
		{in: map[string]string{}, want: func(*opts) {}},
		// Unset and zero are different.
		{in: map[string]string{"lambda": "0"}, want: func(o *opts) { o.Lambda = 0 }},
		{in: map[string]string{"tol": "0"}, want: func(o *opts) { o.Stop.Tol = 0 }},
		{in: map[string]string{"tol": "-1"}, want: func(o *opts) { o.Stop.Tol = -1 }},
		{in: map[string]string{"burnin": "0"}, want: func(o *opts) { o.Burn = 0 }},
		{in: map[string]string{"k": "1", "lambda": " 2.5 ", "seed": "18446744073709551615"},
			want: func(o *opts) { o.K, o.Lambda, o.Seed = 1, 2.5, 1<<64-1 }},
		{in: map[string]string{"scale": "relative", "round": "true", "color": "green", "init": "svd"},
			want: func(o *opts) { o.Scale, o.Round, o.Color, o.Init = true, true, 1, "svd" }},
		{in: map[string]string{"alpha": "0.5", "burnin": "7", "n": "3"}, want: func(o *opts) { o.Alpha, o.Burn, o.Stop.N = 0.5, 7, 3 }},
		// The text of a derived default is read back as its auto value.
		{in: map[string]string{"alpha": "50/K", "burnin": "iters/2"}, want: func(*opts) {}},
		// Out of range, malformed, not a member.
		{in: map[string]string{"k": "0"}, err: `parameter k = "0": want ≥ 1`},
		{in: map[string]string{"k": "2.5"}, err: `parameter k = "2.5": want an integer`},
		{in: map[string]string{"lambda": "-0.1"}, err: "want ≥ 0"},
		{in: map[string]string{"frac": "1"}, err: "want in (0, 1)"},
		{in: map[string]string{"frac": "0"}, err: "want in (0, 1)"},
		{in: map[string]string{"lambda": "NaN"}, err: "want ≥ 0"},
		{in: map[string]string{"tol": "Inf"}, err: "want a finite number"},
		{in: map[string]string{"alpha": "0"}, err: "want > 0"},
		{in: map[string]string{"burnin": "-1"}, err: "want ≥ 0"},
		{in: map[string]string{"seed": "-1"}, err: "want a non-negative integer"},
		{in: map[string]string{"init": "custom"}, err: "want one of random, svd"},
		{in: map[string]string{"color": "blue"}, err: "want one of red, green"},
		{in: map[string]string{"scale": "true"}, err: "want absolute or relative"},
		{in: map[string]string{"round": "yes"}, err: "want true or false"},
		// Unknown keys list the valid ones; every is not selected by Stop.
		{in: map[string]string{"every": "2"}, err: `unknown parameter "every" (valid: alpha, burnin, color, frac, init, k, lambda, n, round, scale, seed, tol)`},
		{in: map[string]string{"zz": "1", "k": "x"}, err: `parameter k = "x"`},
	} {
		o := defaults()
		err := Parse(&o, c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%v: error %v, want one containing %q", c.in, err, c.err)
			}
			continue
		}
		want := defaults()
		c.want(&want)
		if err != nil || !reflect.DeepEqual(o, want) {
			t.Errorf("%v: %+v, %v; want %+v", c.in, o, err, want)
		}
	}
	var unknown *UnknownError
	o := defaults()
	if err := Parse(&o, map[string]string{"kk": "1"}); !errors.As(err, &unknown) || unknown.Key != "kk" || len(unknown.Valid) != 12 {
		t.Errorf("unknown key: %#v", err)
	}
}

func TestFormatRoundTrip(t *testing.T) {
	for _, o := range []opts{
		defaults(),
		{K: 3, Lambda: 0, Frac: 0.25, Seed: 9, Init: "svd", Scale: true, Round: true, Color: 1, Alpha: 1e-3, Burn: 0, Stop: stop{N: 7, Tol: 0}},
		{K: 1, Lambda: 1.0 / 3, Frac: 0.5, Init: "random", Alpha: 2, Burn: 12, Stop: stop{N: 1, Tol: -1}},
	} {
		s := Format(o)
		var back opts
		if err := Parse(&back, s); err != nil || !reflect.DeepEqual(back, o) {
			t.Errorf("Format %v parsed back to %+v, %v; want %+v", s, back, err, o)
		}
	}
	if s := Format(defaults()); s["alpha"] != "50/K" || s["burnin"] != "iters/2" || s["scale"] != "absolute" || s["tol"] != "0.0001" {
		t.Errorf("Format(defaults) = %v", s)
	}
}

func TestCheck(t *testing.T) {
	for _, c := range []struct {
		o   opts
		err string
	}{
		{opts{}, ""}, // zero selects the default where the range excludes it
		{defaults(), ""},
		{opts{Burn: -1}, ""},
		{opts{Lambda: 0, Stop: stop{Tol: -3}}, ""},
		{opts{K: -1}, `K = -1, want ≥ 1 ("0" for the default 20)`},
		{opts{Lambda: -1}, "Lambda = -1, want ≥ 0"},
		{opts{Frac: 1}, `Frac = 1, want in (0, 1) ("0" for the default 0.1)`},
		{opts{Burn: -2}, "Burn = -2, want ≥ 0"},
		{opts{Color: 5}, "Color = 5, want one of red, green"},
		{opts{Init: "custom"}, `Init = custom, want one of random, svd ("" for the default random)`},
		{opts{Stop: stop{N: -1}}, `Stop.N = -1, want ≥ 1 ("0" for the default 100)`},
	} {
		err := Check(c.o)
		if (c.err == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.err)) {
			t.Errorf("Check(%+v) = %v, want %q", c.o, err, c.err)
		}
	}
}

func TestMalformedDeclarationsPanic(t *testing.T) {
	for name, v := range map[string]any{
		"no default": struct {
			A int `param:"a" doc:"a"`
		}{},
		"no doc": struct {
			A int `param:"a" default:"1"`
		}{},
		"default out of range": struct {
			A int `param:"a" default:"0" range:"[1,inf)" doc:"a"`
		}{},
		"bad range": struct {
			A float64 `param:"a" default:"1" range:"1..2" doc:"a"`
		}{},
		"auto in range": struct {
			A int `param:"a" default:"n/2" auto:"0" range:"[0,inf)" doc:"a"`
		}{},
		"enumeration without values": struct {
			A testEnum `param:"a" default:"x" doc:"a"`
		}{},
		"unsupported type": struct {
			A float32 `param:"a" default:"1" doc:"a"`
		}{},
		"duplicate key": struct {
			A int `param:"a" default:"1" doc:"a"`
			B int `param:"a" default:"1" doc:"b"`
		}{},
		"missing nested key": struct {
			S stop `param:"n,x"`
		}{},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			Declared(v)
		}()
	}
}

// testEnum is an enumeration of one name, "x".
type testEnum int

func (e testEnum) MarshalText() ([]byte, error) { return []byte("x"), nil }
func (e *testEnum) UnmarshalText(b []byte) error {
	if string(b) != "x" {
		return fmt.Errorf("not x")
	}
	return nil
}

// TestUnionsListsAndFreeStrings: a numeric range may be a union of
// intervals and single numbers, a []string parameter is a comma-separated
// list of the range's words, and a string without a range takes any
// string (the text pipeline's max-token-len, strip and stop).
func TestUnionsListsAndFreeStrings(t *testing.T) {
	type opts struct {
		Max   int      `param:"max" default:"25" range:"[2,inf)|-1" doc:"longest token"`
		Strip []string `param:"strip" default:"" range:"headers|footers|quotes" doc:"parts removed"`
		Stop  string   `param:"stop" default:"smart" doc:"stop list or file"`
	}
	o := DefaultsOf[opts]()
	if o.Max != 25 || o.Strip != nil || o.Stop != "smart" {
		t.Fatalf("defaults: %+v", o)
	}
	if err := Parse(&o, map[string]string{"max": "-1", "strip": "quotes, headers", "stop": "my/list.txt"}); err != nil {
		t.Fatal(err)
	}
	if o.Max != -1 || !slices.Equal(o.Strip, []string{"quotes", "headers"}) || o.Stop != "my/list.txt" {
		t.Fatalf("parsed: %+v", o)
	}
	if got := Format(o); got["strip"] != "quotes,headers" || got["max"] != "-1" {
		t.Errorf("Format: %v", got)
	}
	for v, want := range map[string]string{"0": "want ≥ 2 or -1", "1": "want ≥ 2 or -1"} {
		if err := Parse(&o, map[string]string{"max": v}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("max = %s: %v, want %q", v, err, want)
		}
	}
	if err := Parse(&o, map[string]string{"strip": "headers,signatures"}); err == nil ||
		!strings.Contains(err.Error(), "want a comma-separated list of headers, footers, quotes") {
		t.Errorf("strip signatures: %v", err)
	}
}
