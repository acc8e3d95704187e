// SPDX-License-Identifier: Apache-2.0
#include "app/cli/help_format.h"

#include <sstream>

namespace drasim::cli {

HelpFormatter::HelpFormatter(size_t columnWidth, std::map<std::string, std::string> summaries)
    : m_summaries(std::move(summaries))
{
    column_width(columnWidth);
    label("Positionals", "Arguments");
    label("Subcommands", "Commands");
    label("SUBCOMMAND", "COMMAND");
}

std::string HelpFormatter::make_help(const CLI::App* app, std::string name, CLI::AppFormatMode mode) const
{
    std::string out;
    if (app->get_parent() == nullptr) // the overview: the program's description is its title line
        out = app->get_description() + "\n\n" + make_usage(app, name) + make_subcommands(app, mode)
            + make_groups(app, mode);
    else
        out = make_usage(app, name) + "\n" + make_description(app) + make_commands(app)
            + make_positionals(app) + make_groups(app, mode);
    const std::string footer = make_footer(app);
    if (!footer.empty())
        out += "\n" + footer;
    // CLI11 separates option groups with two blank lines; one reads better.
    for (size_t at = out.find("\n\n\n"); at != std::string::npos; at = out.find("\n\n\n", at))
        out.erase(at, 1);
    return out;
}

std::string HelpFormatter::make_usage(const CLI::App* app, std::string name) const
{
    if (app->get_parent() == nullptr)
        return "Usage: " + name + " COMMAND [ARGS...]\n       " + name + " COMMAND --help\n";
    return CLI::Formatter::make_usage(app, name);
}

std::string HelpFormatter::make_subcommand(const CLI::App* sub) const
{
    const auto summary = m_summaries.find(sub->get_name());
    std::ostringstream out;
    CLI::detail::format_help(out, sub->get_name(),
        summary == m_summaries.end() ? sub->get_description() : summary->second, column_width_);
    return out.str();
}

std::string HelpFormatter::make_commands(const CLI::App* app) const
{
    const auto subs = app->get_subcommands([](const CLI::App* sub) { return !sub->get_name().empty(); });
    if (subs.empty())
        return {};
    std::string out = "\nCommands:\n";
    for (const CLI::App* sub : subs)
        out += make_subcommand(sub);
    return out;
}

std::string HelpFormatter::make_option_name(const CLI::Option* opt, bool positional) const
{
    if (positional)
        return opt->get_name(true, false);
    std::string spaced;
    for (char c : opt->get_name(false, true)) {
        spaced += c;
        if (c == ',')
            spaced += ' ';
    }
    return spaced;
}

std::string HelpFormatter::make_option_opts(const CLI::Option* opt) const
{
    if (opt->get_positional())
        return opt->get_expected_max() >= CLI::detail::expected_max_vector_size ? "..." : "";
    return opt->get_option_text().empty() ? std::string() : " " + opt->get_option_text();
}

} // namespace drasim::cli
