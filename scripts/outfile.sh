# shellcheck shell=bash
# write_over SRC DST: copy the file SRC to the path DST the user named by
# the rules of internal/outfile (Go) and bench/report.py's write_output
# (Python), never replacing what DST is:
#   - a symbolic link is followed to its final target, which is written
#     (the link stays);
#   - a FIFO, device or socket is opened and written in place;
#   - a directory is an error (one line naming DST);
#   - a regular file or a new path is written atomically: a temporary file
#     beside it, synced, then renamed over it (an existing file keeps its
#     permission bits). A failure leaves the original untouched.
write_over() {
	local src=$1 dst=$2 target tmp
	target=$(readlink -m -- "$dst") || return 1
	if [ -d "$target" ]; then
		echo "$dst is a directory, not a file" >&2
		return 1
	fi
	if [ -e "$target" ] && [ ! -f "$target" ]; then
		cat -- "$src" >"$target"
		return
	fi
	tmp=$(mktemp "$(dirname -- "$target")/.tmp-$(basename -- "$target").XXXXXX") || return 1
	if cp -- "$src" "$tmp" &&
		{ if [ -e "$target" ]; then chmod --reference="$target" "$tmp"; else chmod 644 "$tmp"; fi; } &&
		sync -- "$tmp" && mv -f -- "$tmp" "$target"; then
		return 0
	fi
	rm -f -- "$tmp"
	return 1
}
