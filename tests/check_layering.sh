#!/usr/bin/env bash
# Fails when a layer includes something above it: core/ must not see Qt or ui/; app/cli must not see ui/.
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
[ $bad -eq 0 ] && echo "layering ok"
exit $bad
