package param

import (
	"encoding"
	"fmt"
	"math"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Param is one declared parameter.
type Param struct {
	// Key is the parameter's name in the catalog, e.g. "lambda1".
	Key string
	// Default is the canonical string of the default value, or its text
	// ("50/K") when it depends on other parameters.
	Default string
	// Range is the declared range: an interval such as "[1,inf)", or the
	// accepted values "a|b|c"; empty when any finite number is accepted. A
	// plain bool lists "true|false" and a uint64 without a range "[0,inf)".
	Range string
	// Doc is the one-line description.
	Doc string
	// Field is the Go field that holds the value, e.g. "Stopping.RelTol".
	Field string

	index   []int
	typ     reflect.Type
	kind    kind
	words   []string // accepted strings (string, two-word bool, enumeration)
	iv      ranges   // numbers
	derived bool     // Default is a text resolved at fit time
	auto    string   // the stored value that stands for a derived default
}

type kind int

const (
	kindInt kind = iota
	kindUint
	kindFloat
	kindString
	kindBool
	kindText
	kindStrings
)

var (
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
	textMarshaler   = reflect.TypeFor[encoding.TextMarshaler]()
)

// interval is a range of numbers; lo and hi may be infinite.
type interval struct {
	lo, hi         float64
	loOpen, hiOpen bool
}

func (iv interval) contains(x float64) bool {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return false
	}
	if x < iv.lo || (iv.loOpen && x == iv.lo) {
		return false
	}
	return !(x > iv.hi || (iv.hiOpen && x == iv.hi))
}

// String says the interval for an error message: "≥ 1", "> 0", "in (0, 1)".
func (iv interval) String() string {
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	switch {
	case math.IsInf(iv.lo, -1) && math.IsInf(iv.hi, 1):
		return "a finite number"
	case iv.lo == iv.hi:
		return f(iv.lo)
	case math.IsInf(iv.hi, 1) && iv.loOpen:
		return "> " + f(iv.lo)
	case math.IsInf(iv.hi, 1):
		return "≥ " + f(iv.lo)
	case math.IsInf(iv.lo, -1) && iv.hiOpen:
		return "< " + f(iv.hi)
	case math.IsInf(iv.lo, -1):
		return "≤ " + f(iv.hi)
	}
	l, r := "[", "]"
	if iv.loOpen {
		l = "("
	}
	if iv.hiOpen {
		r = ")"
	}
	return "in " + l + f(iv.lo) + ", " + f(iv.hi) + r
}

// ranges is a union of intervals: a range "[2,inf)|-1" admits -1 and
// every number from 2 up.
type ranges []interval

func (rs ranges) contains(x float64) bool {
	return slices.ContainsFunc(rs, func(iv interval) bool { return iv.contains(x) })
}

// String says the ranges for an error message: "≥ 2 or -1".
func (rs ranges) String() string {
	parts := make([]string, len(rs))
	for i, iv := range rs {
		parts[i] = iv.String()
	}
	return strings.Join(parts, " or ")
}

// parseRanges reads intervals and single numbers separated by "|".
func parseRanges(s string) (ranges, error) {
	var rs ranges
	for _, part := range strings.Split(s, "|") {
		if x, err := strconv.ParseFloat(strings.TrimSpace(part), 64); err == nil && s != "" {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, fmt.Errorf("range %q: %q is not a finite number", s, part)
			}
			rs = append(rs, interval{lo: x, hi: x})
			continue
		}
		iv, err := parseInterval(part)
		if err != nil {
			return nil, err
		}
		rs = append(rs, iv)
	}
	return rs, nil
}

// parseInterval reads "[a,b]", "(a,b)", "[a,b)" or "(a,b]"; "" is every
// finite number.
func parseInterval(s string) (interval, error) {
	if s == "" {
		return interval{lo: math.Inf(-1), hi: math.Inf(1), loOpen: true, hiOpen: true}, nil
	}
	bad := fmt.Errorf("range %q: want [a,b], (a,b), [a,b) or (a,b]", s)
	if len(s) < 5 || !strings.ContainsRune("[(", rune(s[0])) || !strings.ContainsRune("])", rune(s[len(s)-1])) {
		return interval{}, bad
	}
	a, b, ok := strings.Cut(s[1:len(s)-1], ",")
	if !ok {
		return interval{}, bad
	}
	lo, err1 := strconv.ParseFloat(strings.TrimSpace(a), 64)
	hi, err2 := strconv.ParseFloat(strings.TrimSpace(b), 64)
	if err1 != nil || err2 != nil || math.IsNaN(lo) || math.IsNaN(hi) || lo > hi {
		return interval{}, bad
	}
	return interval{lo: lo, hi: hi, loOpen: s[0] == '(', hiOpen: s[len(s)-1] == ')'}, nil
}

var cache sync.Map // reflect.Type → []Param

// Declared returns the parameters declared by the struct type of opts (a
// struct or a pointer to one), in field order. A malformed declaration is
// a programmer error and panics.
func Declared(opts any) []Param {
	t := reflect.TypeOf(opts)
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return append([]Param(nil), declared(t)...)
}

func declared(t reflect.Type) []Param {
	if ps, ok := cache.Load(t); ok {
		return ps.([]Param)
	}
	if t.Kind() != reflect.Struct {
		panic(fmt.Sprintf("param: %v is not a struct", t))
	}
	var ps []Param
	for i := range t.NumField() {
		f := t.Field(i)
		key, ok := f.Tag.Lookup("param")
		if !ok {
			continue
		}
		if f.Type.Kind() == reflect.Struct && !reflect.PointerTo(f.Type).Implements(textUnmarshaler) {
			ps = append(ps, nested(f, key)...)
			continue
		}
		ps = append(ps, declare(t, f, key))
	}
	seen := map[string]bool{}
	for _, p := range ps {
		if seen[p.Key] {
			panic(fmt.Sprintf("param: %v declares %q twice", t, p.Key))
		}
		seen[p.Key] = true
	}
	cache.Store(t, ps)
	return ps
}

// nested declares the listed keys of a struct field's own declaration.
func nested(f reflect.StructField, keys string) []Param {
	inner := declared(f.Type)
	var ps []Param
	for _, key := range strings.Split(keys, ",") {
		j := find(inner, key)
		if j < 0 {
			panic(fmt.Sprintf("param: field %s: %v declares no %q", f.Name, f.Type, key))
		}
		p := inner[j]
		p.index = append([]int{f.Index[0]}, p.index...)
		p.Field = f.Name + "." + p.Field
		if doc, ok := f.Tag.Lookup(key); ok {
			p.Doc = doc
		}
		ps = append(ps, p)
	}
	return ps
}

// find returns the index of key in ps, or -1.
func find(ps []Param, key string) int {
	return slices.IndexFunc(ps, func(p Param) bool { return p.Key == key })
}

// declare reads one field's tags.
func declare(t reflect.Type, f reflect.StructField, key string) Param {
	p := Param{Key: key, Range: f.Tag.Get("range"), Doc: f.Tag.Get("doc"), Field: f.Name,
		index: f.Index, typ: f.Type}
	fail := func(format string, a ...any) {
		panic(fmt.Sprintf("param: %v.%s (%q): ", t, f.Name, key) + fmt.Sprintf(format, a...))
	}
	if key == "" || p.Doc == "" {
		fail("want a key and a doc")
	}
	switch {
	case reflect.PointerTo(f.Type).Implements(textUnmarshaler) && f.Type.Implements(textMarshaler):
		p.kind = kindText
	case f.Type.Kind() == reflect.Int:
		p.kind = kindInt
	case f.Type.Kind() == reflect.Uint64:
		p.kind = kindUint
	case f.Type.Kind() == reflect.Float64:
		p.kind = kindFloat
	case f.Type.Kind() == reflect.String:
		p.kind = kindString
	case f.Type.Kind() == reflect.Bool:
		p.kind = kindBool
	case f.Type.Kind() == reflect.Slice && f.Type.Elem().Kind() == reflect.String:
		p.kind = kindStrings
	default:
		fail("type %v cannot be a parameter", f.Type)
	}
	// The ranges that go without saying are written out for the listing.
	if p.Range == "" && p.kind == kindUint {
		p.Range = "[0,inf)"
	}
	var err error
	switch p.kind {
	case kindInt, kindUint, kindFloat:
		if p.iv, err = parseRanges(p.Range); err != nil {
			fail("%v", err)
		}
	case kindBool:
		if p.Range == "" {
			p.Range = "true|false" // read by strconv.ParseBool
			break
		}
		if p.words = strings.Split(p.Range, "|"); len(p.words) != 2 {
			fail("a bool's range names two values, want %q", "false|true")
		}
	case kindText:
		if p.Range == "" {
			fail("want the accepted values as range, a|b|c")
		}
		p.words = strings.Split(p.Range, "|")
	default: // a string or a list of strings: any string without a range
		if p.Range != "" {
			p.words = strings.Split(p.Range, "|")
		}
	}
	def, ok := f.Tag.Lookup("default")
	if !ok {
		fail("no default")
	}
	auto, derived := f.Tag.Lookup("auto")
	v := reflect.New(f.Type).Elem()
	if derived {
		p.derived, p.auto, p.Default = true, auto, def
		if err := p.set(v, auto); err != nil {
			fail("auto: %v", err)
		}
		if p.admits(v) {
			fail("auto %q is a value of the range %q, so it cannot stand for the default", auto, p.Range)
		}
		return p
	}
	if err := p.parse(v, def); err != nil {
		fail("default: %v", err)
	}
	p.Default = p.format(v)
	return p
}

// Type is the Go type of the field: "int", "float64", "string",
// "[]string", "bool", "uint64" or an enumeration's type.
func (p Param) Type() string { return p.typ.String() }

// set stores the string s in v (of the field's type) without a range check.
func (p *Param) set(v reflect.Value, s string) error {
	s = strings.TrimSpace(s)
	switch p.kind {
	case kindInt:
		x, err := strconv.Atoi(s)
		if err != nil {
			return fmt.Errorf("want an integer")
		}
		v.SetInt(int64(x))
	case kindUint:
		x, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return fmt.Errorf("want a non-negative integer")
		}
		v.SetUint(x)
	case kindFloat:
		x, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return fmt.Errorf("want a number")
		}
		v.SetFloat(x)
	case kindString:
		v.SetString(s)
	case kindStrings:
		var list []string
		for _, w := range strings.Split(s, ",") {
			if w = strings.TrimSpace(w); w != "" {
				list = append(list, w)
			}
		}
		v.Set(reflect.ValueOf(list))
	case kindBool:
		if p.words == nil {
			b, err := strconv.ParseBool(s)
			if err != nil {
				return fmt.Errorf("want true or false")
			}
			v.SetBool(b)
			return nil
		}
		switch s {
		case p.words[0]:
			v.SetBool(false)
		case p.words[1]:
			v.SetBool(true)
		default:
			return fmt.Errorf("want %s or %s", p.words[0], p.words[1])
		}
	case kindText:
		if err := v.Addr().Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(s)); err != nil {
			return fmt.Errorf("want one of %s", strings.Join(p.words, ", "))
		}
	}
	return nil
}

// admits reports whether v is a value of the declared range.
func (p *Param) admits(v reflect.Value) bool {
	switch p.kind {
	case kindInt:
		return p.iv.contains(float64(v.Int()))
	case kindUint:
		return p.iv.contains(float64(v.Uint()))
	case kindFloat:
		return p.iv.contains(v.Float())
	case kindString:
		return p.words == nil || slices.Contains(p.words, v.String())
	case kindStrings:
		for _, w := range v.Interface().([]string) {
			if p.words != nil && !slices.Contains(p.words, w) {
				return false
			}
		}
		return true
	case kindText:
		_, err := v.Interface().(encoding.TextMarshaler).MarshalText()
		return err == nil
	}
	return true
}

// parse stores s in v and checks it against the range.
func (p *Param) parse(v reflect.Value, s string) error {
	if p.derived && strings.TrimSpace(s) == p.Default {
		return p.set(v, p.auto)
	}
	if err := p.set(v, s); err != nil {
		return err
	}
	if !p.admits(v) {
		switch p.kind {
		case kindString, kindText:
			return fmt.Errorf("want one of %s", strings.Join(p.words, ", "))
		case kindStrings:
			return fmt.Errorf("want a comma-separated list of %s", strings.Join(p.words, ", "))
		}
		return fmt.Errorf("want %v", p.iv)
	}
	return nil
}

// format is the canonical string of v.
func (p *Param) format(v reflect.Value) string {
	if p.derived {
		a := reflect.New(p.typ).Elem()
		if p.set(a, p.auto) == nil && a.Equal(v) {
			return p.Default
		}
	}
	switch p.kind {
	case kindInt:
		return strconv.FormatInt(v.Int(), 10)
	case kindUint:
		return strconv.FormatUint(v.Uint(), 10)
	case kindFloat:
		return strconv.FormatFloat(v.Float(), 'g', -1, 64)
	case kindString:
		return v.String()
	case kindStrings:
		return strings.Join(v.Interface().([]string), ",")
	case kindBool:
		if p.words != nil {
			return p.words[b2i(v.Bool())]
		}
		return strconv.FormatBool(v.Bool())
	}
	b, err := v.Interface().(encoding.TextMarshaler).MarshalText()
	if err != nil {
		return fmt.Sprint(v.Interface())
	}
	return string(b)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// structOf returns the struct that ptr points to; it panics unless ptr is
// a non-nil pointer to a struct.
func structOf(ptr any) reflect.Value {
	v := reflect.ValueOf(ptr)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		panic(fmt.Sprintf("param: want a pointer to a struct, got %T", ptr))
	}
	return v.Elem()
}

// DefaultsOf returns a T whose declared fields are at their defaults
// (Defaults on a zero T): the body of every family's Defaults function.
func DefaultsOf[T any]() T {
	var o T
	Defaults(&o)
	return o
}

// Defaults sets every declared field of the struct ptr points to to its
// default (a derived default to its auto value). Undeclared fields are
// left alone.
func Defaults(ptr any) {
	s := structOf(ptr)
	for _, p := range declared(s.Type()) {
		f := s.FieldByIndex(p.index)
		var err error
		if p.derived {
			err = p.set(f, p.auto)
		} else {
			err = p.set(f, p.Default)
		}
		if err != nil {
			panic(fmt.Sprintf("param: %s: default %q: %v", p.Key, p.Default, err))
		}
	}
}

// Parse sets the declared fields named by the keys of values, each from
// its string, and checks it against the declared range. Fields whose key
// is absent keep their value (start from Defaults for the declared
// defaults). A key that is not declared is an error that lists the valid
// keys; keys are read in sorted order, so the error is deterministic.
func Parse(ptr any, values map[string]string) error {
	s := structOf(ptr)
	ps := declared(s.Type())
	keys := make([]string, 0, len(values))
	for k := range values {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		j := find(ps, k)
		if j < 0 {
			return &UnknownError{Key: k, Valid: Keys(ptr)}
		}
		p := &ps[j]
		if err := p.parse(s.FieldByIndex(p.index), values[k]); err != nil {
			return &ValueError{Key: k, Value: values[k], Reason: err}
		}
	}
	return nil
}

// ValueError is Parse's error for a value its parameter does not accept.
type ValueError struct {
	Key, Value string
	Reason     error // "want ≥ 1"
}

func (e *ValueError) Error() string {
	return fmt.Sprintf("parameter %s = %q: %v", e.Key, e.Value, e.Reason)
}

// UnknownError is Parse's error for a key that is not declared.
type UnknownError struct {
	Key   string
	Valid []string // the declared keys, sorted
}

func (e *UnknownError) Error() string {
	return fmt.Sprintf("unknown parameter %q (valid: %s)", e.Key, strings.Join(e.Valid, ", "))
}

// Keys returns the declared keys of opts (a struct or a pointer to one),
// sorted.
func Keys(opts any) []string {
	var ks []string
	for _, p := range Declared(opts) {
		ks = append(ks, p.Key)
	}
	sort.Strings(ks)
	return ks
}

// Format returns the canonical string of every declared field of opts (a
// struct or a pointer to one), by key. Parse of the result reproduces the
// declared fields.
func Format(opts any) map[string]string {
	v := reflect.ValueOf(opts)
	if v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	out := map[string]string{}
	for _, p := range declared(v.Type()) {
		out[p.Key] = p.format(v.FieldByIndex(p.index))
	}
	return out
}

// Check reports the first declared field of opts (a struct or a pointer to
// one) that holds a value outside its range, naming the Go field. Zero is
// accepted where the range excludes it (it selects the default, see the
// package doc), and so is the auto value of a derived default.
func Check(opts any) error {
	v := reflect.ValueOf(opts)
	if v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	for _, p := range declared(v.Type()) {
		f := v.FieldByIndex(p.index)
		if p.admits(f) || (f.IsZero() && !p.admits(reflect.New(p.typ).Elem())) {
			continue
		}
		if p.derived && p.format(f) == p.Default {
			continue
		}
		want := p.iv.String()
		if p.words != nil {
			want = "one of " + strings.Join(p.words, ", ")
		}
		if zero := reflect.New(p.typ).Elem(); !p.admits(zero) && !p.derived {
			want += fmt.Sprintf(" (%q for the default %s)", p.format(zero), p.Default)
		}
		return fmt.Errorf("%s = %v, want %s", p.Field, f.Interface(), want)
	}
	return nil
}
