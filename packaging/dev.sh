#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# One entry point for a fresh Debian 12 / Ubuntu 24.04 machine:
#   packaging/dev.sh gui [ARGS]  install packages, build (Release), open drasim-gui on the default
#                           scenario; ARGS go to drasim-gui (e.g. --screenshot shot.png)
#   packaging/dev.sh test   install packages, build (Release), run every test with ctest
#   packaging/dev.sh build  install packages and build only
#   packaging/dev.sh sanitize  core, CLI and their tests under AddressSanitizer + UBSan (no GUI)
# Environment: BUILD_DIR (default ./build), DRASIM_SKIP_INSTALL=1 to skip apt-get, JOBS (default nproc),
# DRASIM_CMAKE_ARGS (extra CMake options), DRASIM_CTEST_ARGS (extra ctest options, e.g. -R or -E),
# DRASIM_BUILD_TARGET (sanitize only: build these targets, e.g. test_programs, instead of all).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${BUILD_DIR:-$here/build}
jobs=${JOBS:-$(nproc)}
action=${1:-}

packages=(
    build-essential cmake ninja-build pkg-config
    libyaml-cpp-dev libboost-graph-dev libsqlite3-dev libre2-dev libjemalloc-dev
    libgtest-dev libgmock-dev libbenchmark-dev libcli11-dev
    qt6-base-dev qt6-charts-dev qt6-svg-dev libqt6opengl6-dev libgl-dev
)
# Headless GUI tests and screenshots need a virtual X server only when no display exists.
test_packages=(xvfb xauth lintian file)

install_packages() {
    [ "${DRASIM_SKIP_INSTALL:-0}" = 1 ] && return 0
    local missing=()
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    local sudo=()
    [ "$(id -u)" -ne 0 ] && sudo=(sudo)
    echo "== installing: ${missing[*]}" >&2
    "${sudo[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
}

build() {
    # DRASIM_CMAKE_ARGS: extra configure options (CI adds -DDRASIM_WERROR=ON).
    # shellcheck disable=SC2086
    cmake -S "$here" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release ${DRASIM_CMAKE_ARGS:-} "$@" >&2
    cmake --build "$build_dir" -j "$jobs" >&2
}

# Split on blanks only: a ctest pattern such as ^(cli|scenario)[.] is not a file name to expand.
read -r -a ctest_args <<<"${DRASIM_CTEST_ARGS:-}"

case "$action" in
gui)
    install_packages "${packages[@]}"
    build
    scenario="$here/scenarios/sim/default/scenario.yaml"
    [ -f "$scenario" ] || scenario="$here/scenarios/basic/cluster.yaml"
    shift
    exec "$build_dir/app/gui/drasim-gui" "$@" "$scenario"
    ;;
test)
    install_packages "${packages[@]}" "${test_packages[@]}"
    build
    cd "$build_dir"
    QT_QPA_PLATFORM=offscreen ctest --output-on-failure -j "$jobs" "${ctest_args[@]}"
    ;;
build)
    install_packages "${packages[@]}"
    build
    ;;
sanitize)
    install_packages "${packages[@]}"
    build_dir=${BUILD_DIR:-$here/build-sanitize}
    # -O1 -g1: all the sanitizers need (frame pointers stay; line tables name the source line in a
    # report) at well under half the compile time of RelWithDebInfo's -O2 -g.
    # A unity build: up to 16 sources of a target compile as one translation unit, so the headers
    # (yaml-cpp, CLI11, GoogleTest, the core's own) are parsed, and their inline code instrumented,
    # once per batch rather than once per file. Every file still compiles alone in the Release build.
    # shellcheck disable=SC2086
    cmake -S "$here" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" -DDRASIM_BUILD_GUI=OFF \
        -DDRASIM_BUILD_BENCH=OFF -DDRASIM_SANITIZERS=ON \
        -DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=16 ${DRASIM_CMAKE_ARGS:-} >&2
    # shellcheck disable=SC2086
    cmake --build "$build_dir" -j "$jobs" ${DRASIM_BUILD_TARGET:+--target $DRASIM_BUILD_TARGET} >&2
    cd "$build_dir"
    ctest --output-on-failure -j "$jobs" "${ctest_args[@]}"
    ;;
*)
    echo "usage: packaging/dev.sh gui|test|build|sanitize" >&2
    exit 2
    ;;
esac
