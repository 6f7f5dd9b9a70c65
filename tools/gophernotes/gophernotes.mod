module github.com/gopherdata/gophernotes

go 1.23.0

require (
	github.com/cosmos72/gomacro v0.0.0-20260901205243-0df6c0cd20af
	github.com/go-zeromq/zmq4 v0.14.1
	github.com/gofrs/uuid v4.2.0+incompatible
)

require (
	github.com/clipperhouse/uax29/v2 v2.2.0 // indirect
	github.com/go-zeromq/goczmq/v4 v4.2.2 // indirect
	github.com/mattn/go-runewidth v0.0.28 // indirect
	github.com/peterh/liner v1.2.2 // indirect
	golang.org/x/mod v0.27.0 // indirect
	golang.org/x/sync v0.16.0 // indirect
	golang.org/x/sys v0.35.0 // indirect
	golang.org/x/tools v0.36.0 // indirect
)
