// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

namespace drasim::storage {

/// Where the store lives when the user names none: $XDG_DATA_HOME/drasim/drasim.db, or
/// ~/.local/share/drasim/drasim.db when XDG_DATA_HOME is unset or not absolute (as the XDG base
/// directory specification says). Throws StorageError when neither it nor HOME is usable.
std::string defaultStorePath();

/// `path`, or the default store when it is empty; the default's folder is created if missing
/// (a path the user gave must have its folder already). Throws StorageError naming the folder.
std::string resolveStorePath(const std::string& path);

} // namespace drasim::storage
