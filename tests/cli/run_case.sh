#!/usr/bin/env bash
# Runs one CLI case folder:
#   args             the arguments, one per line (paths relative to the repository root)
#   stdin            optional: fed to standard input
#   exit             expected exit code (default 0)
#   stdout           optional: expected standard output, byte for byte
#   stderr           optional: expected standard error, byte for byte
#   stderr_contains  optional: lines that must each appear in standard error
# A case with a non-zero exit must print nothing on stdout unless it has a stdout file.
# Regenerate goldens after an intended change: UPDATE=1 ctest -R cli.
set -u
drasim=$1
dir=$2
mapfile -t args < "$dir/args"
expected_exit=0
[ -f "$dir/exit" ] && expected_exit=$(cat "$dir/exit")
out=$(mktemp)
err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
if [ -f "$dir/stdin" ]; then
    "$drasim" "${args[@]}" < "$dir/stdin" > "$out" 2> "$err"
else
    "$drasim" "${args[@]}" < /dev/null > "$out" 2> "$err"
fi
code=$?
fail=0
if [ "${UPDATE:-0}" = 1 ]; then
    echo "$code" > "$dir/exit"
    [ -f "$dir/stdout" ] && cp "$out" "$dir/stdout"
    [ -f "$dir/stderr" ] && cp "$err" "$dir/stderr"
fi
if [ "$code" != "$expected_exit" ]; then
    echo "exit code $code, expected $expected_exit"; fail=1
fi
if [ -f "$dir/stdout" ]; then
    diff -u "$dir/stdout" "$out" || { echo "stdout differs"; fail=1; }
elif [ "$expected_exit" != 0 ] && [ -s "$out" ]; then
    echo "a failing command printed on stdout:"; cat "$out"; fail=1
fi
if [ -f "$dir/stderr" ]; then
    diff -u "$dir/stderr" "$err" || { echo "stderr differs"; fail=1; }
fi
if [ -f "$dir/stderr_contains" ]; then
    while IFS= read -r line; do
        [ -z "$line" ] && continue
        grep -qF -- "$line" "$err" || { echo "stderr lacks: $line"; fail=1; }
    done < "$dir/stderr_contains"
fi
if [ $fail -ne 0 ]; then
    echo "--- stderr was:"; cat "$err"
fi
exit $fail
