// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace drasim::cli {

/// Runs a command whose arguments are parsed; returns the process exit code. Commands build their
/// whole stdout document in memory and print it only on success, so a failing run prints nothing
/// on stdout.
using Runner = std::function<int()>;

/// A subcommand: `drasim NAME ARGS...`.
struct Command
{
    std::string name;
    std::string summary; ///< one line for `drasim --help`
    /// Declares the command's description, exit-status footer, options and positionals on `app`,
    /// bound to state the returned runner owns; main parses, then calls the runner.
    std::function<Runner(CLI::App& app)> define;
};

/// Commands register themselves from their own translation unit:
///   const bool registered = registerCommand({...});
/// Each cmd_<name>.cpp keeps its helpers (Args, run, define, ...) in `namespace { namespace cmd_<name> {`:
/// the files share those names, and a unity build compiles several of them as one translation unit.
bool registerCommand(Command command);
const std::vector<Command>& commands(); ///< sorted by name

} // namespace drasim::cli
