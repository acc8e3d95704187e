// SPDX-License-Identifier: Apache-2.0
#include "core/storage/store_location.h"

#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "core/storage/database.h"

namespace drasim::storage {

std::string defaultStorePath()
{
    const char* xdg = std::getenv("XDG_DATA_HOME");
    if (xdg && xdg[0] == '/')
        return std::string(xdg) + "/drasim/drasim.db";
    const char* home = std::getenv("HOME");
    if (!home || home[0] != '/')
        throw StorageError("no default store: neither XDG_DATA_HOME nor HOME is an absolute path; "
                           "name a file with --db");
    return std::string(home) + "/.local/share/drasim/drasim.db";
}

std::string resolveStorePath(const std::string& path)
{
    if (!path.empty())
        return path;
    const std::string file = defaultStorePath();
    const std::filesystem::path folder = std::filesystem::path(file).parent_path();
    std::error_code ec;
    std::filesystem::create_directories(folder, ec);
    if (ec)
        throw StorageError(folder.string() + ": cannot create the store's folder: " + ec.message());
    return file;
}

} // namespace drasim::storage
