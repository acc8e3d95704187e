// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <CLI/CLI.hpp>
#include <map>
#include <string>

namespace drasim::cli {

/// The layout of every `--help` text, generated from the declared options:
///
///   Usage: drasim allocate [OPTIONS] FILE...
///
///   <description: what the command does>
///
///   Commands:           a command's own commands (drasim runs list, ...), each with its summary
///   Arguments:          positionals
///   Options:            the command's own options
///   <Group>:            shared groups (e.g. Scheduler options)
///
///   <footer: exit status>
///
/// The top level lists the commands with their one-line summaries (a command's description is
/// its long text). Option names are joined with ", " and followed by their value placeholder
/// (option_text) only; defaults and exclusions are stated in the descriptions so that they read
/// as sentences.
class HelpFormatter : public CLI::Formatter
{
public:
    /// `summaries`: command name → one line, for the top level's list of commands.
    explicit HelpFormatter(size_t columnWidth, std::map<std::string, std::string> summaries = {});
    std::string make_help(const CLI::App* app, std::string name, CLI::AppFormatMode mode) const override;
    std::string make_usage(const CLI::App* app, std::string name) const override;
    std::string make_subcommand(const CLI::App* sub) const override;
    std::string make_option_name(const CLI::Option* opt, bool positional) const override;
    std::string make_option_opts(const CLI::Option* opt) const override;

private:
    /// "Commands:" and a line per subcommand of a command (its description is its summary); "" for none.
    std::string make_commands(const CLI::App* app) const;
    std::map<std::string, std::string> m_summaries;
};

} // namespace drasim::cli
