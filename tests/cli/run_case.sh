#!/usr/bin/env bash
# Runs one CLI case folder:
#   args             the arguments, one per line (paths relative to the repository root)
#   stdin            optional: fed to standard input
#   exit             expected exit code (default 0)
#   stdout           optional: expected standard output, byte for byte
#   stderr           optional: expected standard error, byte for byte
#   stderr_contains  optional: lines that must each appear in standard error
#   setup            optional: drasim commands run first, one per line (arguments split at spaces),
#                    each of which must succeed; for cases that need a store with runs in it
#   damage           optional: lines "FILE OFFSET LENGTH": after setup, LENGTH bytes of FILE from byte
#                    OFFSET are overwritten with garbage (0xA5 bytes, as a bad disk or `dd` would leave
#                    them); the command must leave FILE byte for byte as it was then
# "$TMP" in args and setup is a folder of the case's own, removed afterwards; in stdout and stderr
# the folder's path is written back as "$TMP" before comparing. XDG_DATA_HOME is "$TMP/data".
# A case with a non-zero exit must print nothing on stdout unless it has a stdout file.
# Regenerate goldens after an intended change: UPDATE=1 ctest -R cli.
set -u
drasim=$1
dir=$2
expected_exit=0
[ -f "$dir/exit" ] && expected_exit=$(cat "$dir/exit")
out=$(mktemp)
err=$(mktemp)
tmp=$(mktemp -d)
trap 'rm -rf "$out" "$err" "$tmp"' EXIT
# The default store (drasim --db unset) lives in the case's folder, never in the user's.
export XDG_DATA_HOME="$tmp/data"
mapfile -t args < <(sed "s|\$TMP|$tmp|g" "$dir/args")
if [ -f "$dir/setup" ]; then
    while IFS= read -r line; do
        [ -z "$line" ] && continue
        read -r -a setup_args <<< "${line//\$TMP/$tmp}"
        if ! "$drasim" "${setup_args[@]}" < /dev/null > /dev/null 2> "$err"; then
            echo "setup failed: drasim $line"; cat "$err"; exit 1
        fi
    done < "$dir/setup"
fi
damaged=()
if [ -f "$dir/damage" ]; then
    while read -r file offset length; do
        [ -z "$file" ] && continue
        file=${file//\$TMP/$tmp}
        head -c "$length" /dev/zero | tr '\0' '\245' \
            | dd of="$file" bs="$length" seek="$offset" oflag=seek_bytes conv=notrunc status=none
        cp "$file" "$file.damaged"
        damaged+=("$file")
    done < "$dir/damage"
fi
if [ -f "$dir/stdin" ]; then
    "$drasim" "${args[@]}" < "$dir/stdin" > "$out" 2> "$err"
else
    "$drasim" "${args[@]}" < /dev/null > "$out" 2> "$err"
fi
code=$?
sed -i "s|$tmp|\$TMP|g" "$out" "$err"
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
for file in ${damaged[@]+"${damaged[@]}"}; do
    cmp -s "$file" "$file.damaged" || { echo "the damaged ${file//$tmp/\$TMP} was changed"; fail=1; }
done
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
