// SPDX-License-Identifier: Apache-2.0
// The run store as the commands that read or write it name it: --db FILE, or the user's default.
#pragma once

#include <CLI/CLI.hpp>
#include <exception>
#include <memory>
#include <string>

#include "core/storage/database.h"
#include "core/storage/run_store.h"

namespace drasim::cli {

/// --db FILE, bound to `db` (empty = the default store under the user's data folder).
CLI::Option* addStoreOption(CLI::App& app, std::string& db);

/// Opens the store `db` names (or the default one). `mustExist`: a command that only reads does
/// not create a file, it says there is none. Errors (missing, corrupt, newer schema) are printed
/// and give null.
std::unique_ptr<storage::RunStore> openStore(const std::string& db, bool mustExist);

namespace detail {

/// Prints `e` as the command's error; gives exit status 1.
int reportStoreError(const std::exception& e);

template <class Action> int runCatching(const Action& action)
{
    return action();
}

template <class First, class... Rest, class Action> int runCatching(const Action& action)
{
    try {
        return runCatching<Rest...>(action);
    } catch (const First& e) {
        return reportStoreError(e);
    }
}

} // namespace detail

/// Runs a store command's `action` (returning its exit status) so that a store that fails midway
/// (corrupt, locked, a newer schema) is one printed error and exit status 1, not a crash.
/// `AlsoCaught` are further errors the command reports the same way (e.g. runs: a comparison of
/// stored runs that cannot be made).
template <class... AlsoCaught, class Action> int guardStoreErrors(const Action& action)
{
    return detail::runCatching<storage::StorageError, AlsoCaught...>(action);
}

} // namespace drasim::cli
