#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# check-installed.sh ROOT: run drasim as installed under ROOT (ROOT/usr/bin, ROOT/usr/share/drasim)
# and check that it works from the installed files alone: the version, the catalog it finds (the
# installed one, not the source tree it was built from) and one installed scenario simulated.
set -euo pipefail

root=$(cd "${1:?usage: check-installed.sh ROOT}" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/drasim-installed.XXXXXX")
trap 'rm -rf "$work"' EXIT
drasim="$root/usr/bin/drasim"
share="$root/usr/share/drasim"

"$drasim" --version
# A shape that exists only in the installed catalog proves which catalog the program reads.
catalog="$share/resources/hardware"
sed 's/^  name: dgx-h100$/  name: installed-probe/' "$catalog/dgx-h100.yaml" >"$catalog/zz-installed-probe.yaml"
grep -q 'name: installed-probe' "$catalog/zz-installed-probe.yaml"
env -u DRASIM_HARDWARE_DIR "$drasim" topo --list >"$work/topo.txt"
rm "$catalog/zz-installed-probe.yaml"
grep -q installed-probe "$work/topo.txt" || { echo "installed drasim did not read $catalog" >&2; exit 1; }
echo "catalog: the installed one"

scenario="$share/scenarios/sim/default/scenario.yaml"
(cd "$work" && env -u DRASIM_HARDWARE_DIR "$drasim" simulate "$scenario" --summary summary.json >simulate.txt)
test -s "$work/summary.json"
echo "simulated: ${scenario#"$root"}"
for f in applications/dev.drasim.Drasim.desktop metainfo/dev.drasim.Drasim.metainfo.xml \
         icons/hicolor/scalable/apps/dev.drasim.Drasim.svg doc/drasim/copyright man/man1/drasim.1.gz; do
    test -f "$root/usr/share/$f" || { echo "not installed: /usr/share/$f" >&2; exit 1; }
done
if [ -x "$root/usr/bin/drasim-gui" ]; then
    QT_QPA_PLATFORM=offscreen "$root/usr/bin/drasim-gui" --version
fi
echo "check-installed: passed"
