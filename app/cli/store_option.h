// SPDX-License-Identifier: Apache-2.0
// The run store as the commands that read or write it name it: --db FILE, or the user's default.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <string>

#include "core/storage/run_store.h"

namespace drasim::cli {

/// --db FILE, bound to `db` (empty = the default store under the user's data folder).
CLI::Option* addStoreOption(CLI::App& app, std::string& db);

/// Opens the store `db` names (or the default one). `mustExist`: a command that only reads does
/// not create a file, it says there is none. Errors (missing, corrupt, newer schema) are printed
/// and give null.
std::unique_ptr<storage::RunStore> openStore(const std::string& db, bool mustExist);

} // namespace drasim::cli
