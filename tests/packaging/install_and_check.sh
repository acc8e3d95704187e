#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# install_and_check.sh BUILD_DIR CHECK: `cmake --install BUILD_DIR` into a temporary root with
# prefix /usr (as the .deb has it), then run CHECK ROOT on it.
set -euo pipefail
build_dir=${1:?usage: install_and_check.sh BUILD_DIR CHECK}
check=${2:?usage: install_and_check.sh BUILD_DIR CHECK}
root=$(mktemp -d "${TMPDIR:-/tmp}/drasim-install.XXXXXX")
trap 'rm -rf "$root"' EXIT
DESTDIR="$root" cmake --install "$build_dir" --prefix /usr >"$root.log" 2>&1 || { cat "$root.log" >&2; rm -f "$root.log"; exit 1; }
rm -f "$root.log"
"$check" "$root"
