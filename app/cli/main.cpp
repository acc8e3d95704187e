// SPDX-License-Identifier: Apache-2.0
// drasim: the command line face of the simulator. Thin: parses the subcommand and hands over.
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "app/cli/cli_support.h"
#include "app/cli/command_registry.h"
#include "drasim_version.h"

namespace {

std::string overview()
{
    std::string text = "drasim " DRASIM_VERSION_STRING
                       " - Kubernetes Dynamic Resource Allocation cluster simulator\n\n"
                       "Usage: drasim COMMAND [ARGS...]\n       drasim COMMAND --help\n\nCommands:\n";
    for (const auto& c : drasim::cli::commands()) {
        std::string name = c.name;
        name.resize(std::max<size_t>(name.size() + 2, 12), ' ');
        text += "  " + name + c.summary + "\n";
    }
    text += "\nOptions:\n  -h, --help     show this help\n  --version      print the version\n";
    return text;
}

} // namespace

int main(int argc, char** argv)
{
    using namespace drasim::cli;
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty()) {
        std::fputs(overview().c_str(), stderr);
        return 2;
    }
    if (args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
        printStdout(overview());
        return 0;
    }
    if (args[0] == "--version" || args[0] == "version") {
        printStdout("drasim " DRASIM_VERSION_STRING "\n");
        return 0;
    }
    for (const auto& c : commands()) {
        if (c.name != args[0])
            continue;
        std::vector<std::string> rest(args.begin() + 1, args.end());
        if (wantsHelp(rest)) {
            printStdout(c.usage);
            return 0;
        }
        try {
            return c.run(rest);
        } catch (const std::exception& e) {
            // Only reached on a bug: bad input is reported by the commands themselves.
            printError(std::string("internal error: ") + e.what());
            return 70;
        }
    }
    printError("unknown command '" + args[0] + "' (see 'drasim --help')");
    return 2;
}
