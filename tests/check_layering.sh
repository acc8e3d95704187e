#!/usr/bin/env bash
# Fails when a layer includes something above it: core/ must not see Qt or ui/; app/cli must not see ui/;
# a core module must not see a core module above it.
set -u
root=${1:-.}
bad=0
if grep -rnE '#include *[<"](Q[A-Za-z]|qt|ui/|app/)' "$root/core" ; then
    echo "core/ includes Qt, ui/ or app/ headers" >&2; bad=1
fi
if grep -rnE '#include *[<"](Q[A-Za-z]|ui/)' "$root/app/cli" ; then
    echo "app/cli includes Qt or ui/ headers" >&2; bad=1
fi
if grep -rn 'yaml-cpp' "$root/core" --include='*.h' | grep -v '^'"$root"'/core/yamlio/' ; then
    echo "yaml-cpp appears outside core/yamlio" >&2; bad=1
fi
# Core modules depend downwards only: each may include the modules listed before it in
# core/CMakeLists.txt (e.g. sim runs what scenario prepares, session stands on both), never later ones.
order=$(sed -n 's/^foreach(module \(.*\))$/\1/p' "$root/core/CMakeLists.txt")
i=0
for m in $order; do
    j=0
    for later in $order; do
        if [ $j -gt $i ] && [ -d "$root/core/$m" ] \
            && grep -rnE "#include *\"core/$later/" "$root/core/$m" ; then
            echo "core/$m includes core/$later, which comes after it in core/CMakeLists.txt" >&2; bad=1
        fi
        j=$((j + 1))
    done
    i=$((i + 1))
done
[ $bad -eq 0 ] && echo "layering ok"
exit $bad
