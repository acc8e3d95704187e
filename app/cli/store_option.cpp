// SPDX-License-Identifier: Apache-2.0
#include "app/cli/store_option.h"

#include <filesystem>
#include <system_error>

#include "app/cli/cli_support.h"
#include "core/storage/database.h"
#include "core/storage/store_location.h"

namespace drasim::cli {

CLI::Option* addStoreOption(CLI::App& app, std::string& db)
{
    return app
        .add_option("--db", db,
            "the SQLite store (default $XDG_DATA_HOME/drasim/drasim.db, or ~/.local/share/drasim/drasim.db)")
        ->option_text("FILE");
}

std::unique_ptr<storage::RunStore> openStore(const std::string& db, bool mustExist)
{
    try {
        const std::string path
            = db.empty() && mustExist ? storage::defaultStorePath() : storage::resolveStorePath(db);
        std::error_code ec;
        if (mustExist && !std::filesystem::exists(path, ec)) {
            printError(path + ": no such store (nothing was saved there yet)");
            return nullptr;
        }
        return std::make_unique<storage::RunStore>(path);
    } catch (const storage::StorageError& e) {
        printError(e.what());
        return nullptr;
    }
}

int detail::reportStoreError(const std::exception& e)
{
    printError(e.what());
    return 1;
}

} // namespace drasim::cli
