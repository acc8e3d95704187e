// SPDX-License-Identifier: Apache-2.0
// drasim: the command line face of the simulator. Thin: declares the registered commands on one
// CLI11 parser, parses, and hands over to the chosen command.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "app/cli/cli_support.h"
#include "app/cli/command_registry.h"
#include "app/cli/help_format.h"
#include "drasim_version.h"

namespace {

/// One line on stderr for a usage error, naming the command whose help explains the usage.
void printUsageError(const CLI::App* command, const CLI::ParseError& e)
{
    const std::string who = command ? "drasim " + command->get_name() : "drasim";
    std::string message = e.what();
    if (dynamic_cast<const CLI::ExtrasError*>(&e) && command) {
        // CLI11 says "The following argument was not expected: X"; name the first culprit.
        const std::vector<std::string> extra = command->remaining();
        if (!extra.empty())
            message
                = (extra[0].size() > 1 && extra[0][0] == '-' ? "unknown option '" : "unexpected argument '")
                + extra[0] + "'";
    } else if (e.get_name() == "ArgumentMismatch" && message.find(" missing") != std::string::npos) {
        message = message.substr(0, message.find(':')) + " needs a value";
    }
    std::fprintf(stderr, "%s: %s (see '%s --help')\n", who.c_str(), message.c_str(), who.c_str());
}

/// The help of the top level or of one command (app.help() would describe the chosen subcommand,
/// which for `drasim help` is the hidden word itself).
std::string helpText(const CLI::App& app)
{
    const CLI::App* parent = app.get_parent();
    const std::string name = parent ? parent->get_name() + " " + app.get_name() : app.get_name();
    return app.get_formatter()->make_help(&app, name, CLI::AppFormatMode::Normal);
}

} // namespace

int main(int argc, char** argv)
{
    using namespace drasim::cli;
    CLI::App app("drasim " DRASIM_VERSION_STRING
                 " - Kubernetes Dynamic Resource Allocation cluster simulator",
        "drasim");
    std::map<std::string, std::string> summaries;
    for (const auto& c : commands())
        summaries[c.name] = c.summary;
    app.formatter(std::make_shared<HelpFormatter>(16, std::move(summaries)));
    app.set_help_flag("-h,--help", "show this help");
    bool version = false;
    app.add_flag("--version", version, "print the version");
    // `drasim help` and `drasim version` as words too; hidden from the command list.
    CLI::App* helpWord = app.add_subcommand("help", "show the help of drasim or of one COMMAND")->group("");
    helpWord->prefix_command(); // `drasim help allocate`: the word after help is not parsed as a command
    CLI::App* versionWord = app.add_subcommand("version", "print the version")->group("");

    std::vector<std::pair<CLI::App*, Runner>> runners;
    for (const auto& c : commands()) {
        CLI::App* sub = app.add_subcommand(c.name, c.summary);
        sub->group("Commands");
        sub->formatter(std::make_shared<HelpFormatter>(26));
        sub->set_help_flag("-h,--help", "show this help");
        runners.emplace_back(sub, c.define(*sub));
    }
    // After the commands are declared, so that they keep rejecting stray arguments themselves:
    // a word that is no command is reported below as an unknown command.
    app.allow_extras();
    app.require_subcommand(0, 1); // one command per run; words after it are its arguments

    if (argc < 2) {
        std::fputs(helpText(app).c_str(), stderr);
        return 2;
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp&) {
        printStdout(app.help());
        return 0;
    } catch (const CLI::ParseError& e) {
        const auto chosen = app.get_subcommands();
        printUsageError(chosen.empty() ? nullptr : chosen.front(), e);
        return 2;
    }
    if (version || versionWord->parsed()) {
        printStdout("drasim " DRASIM_VERSION_STRING "\n");
        return 0;
    }
    if (helpWord->parsed()) {
        const std::vector<std::string> topic = helpWord->remaining();
        if (topic.empty()) {
            printStdout(helpText(app));
            return 0;
        }
        for (const auto& [sub, run] : runners) {
            if (sub->get_name() == topic[0]) {
                printStdout(helpText(*sub));
                return 0;
            }
        }
        printError("unknown command '" + topic[0] + "' (see 'drasim --help')");
        return 2;
    }
    for (const auto& [sub, run] : runners) {
        if (!sub->parsed())
            continue;
        try {
            return run();
        } catch (const std::exception& e) {
            // Only reached on a bug: bad input is reported by the commands themselves.
            printError(std::string("internal error: ") + e.what());
            return 70;
        }
    }
    const std::vector<std::string> extra = app.remaining();
    printError("unknown command '" + (extra.empty() ? std::string() : extra[0]) + "' (see 'drasim --help')");
    return 2;
}
