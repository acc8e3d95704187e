// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace drasim::cli {

/// A subcommand: `drasim NAME ARGS...`. run() returns the process exit code. Commands build
/// their whole stdout document in memory and print it only on success, so a failing run prints
/// nothing on stdout.
struct Command
{
    std::string name;
    std::string summary; ///< one line for `drasim --help`
    std::string usage;   ///< full text for `drasim NAME --help`
    std::function<int(const std::vector<std::string>& args)> run;
};

/// Commands register themselves from their own translation unit:
///   static const bool registered = registerCommand({...});
bool registerCommand(Command command);
const std::vector<Command>& commands(); ///< sorted by name

} // namespace drasim::cli
