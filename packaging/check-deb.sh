#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# check-deb.sh BUILD_DIR: build the .deb from a configured, built tree, check it with lintian
# (any error fails), unpack it into a temporary root and run the installed programs from there
# (packaging/check-installed.sh).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build_dir=$(cd "${1:?usage: check-deb.sh BUILD_DIR}" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/drasim-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT

cd "$build_dir"
cpack -G DEB -B "$work/out" >"$work/cpack.log" 2>&1 || { cat "$work/cpack.log" >&2; exit 1; }
deb=$(ls "$work"/out/drasim_*.deb)
echo "package: $(basename "$deb")"
dpkg-deb --field "$deb" Package Version Architecture Depends

# lintian: errors fail the check; warnings are shown. Run as root it refuses without --allow-root.
lintian_args=(--fail-on error --tag-display-limit 0)
[ "$(id -u)" = 0 ] && lintian_args+=(--allow-root)
lintian "${lintian_args[@]}" "$deb"
echo "lintian: no errors"

root="$work/root"
dpkg-deb -x "$deb" "$root"
"$here/check-installed.sh" "$root"
echo "check-deb: passed"
