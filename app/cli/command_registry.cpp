// SPDX-License-Identifier: Apache-2.0
#include "app/cli/command_registry.h"

#include <algorithm>

namespace drasim::cli {

namespace {
std::vector<Command>& registry()
{
    static std::vector<Command> r;
    return r;
}
} // namespace

bool registerCommand(Command command)
{
    auto& r = registry();
    auto pos = std::lower_bound(
        r.begin(), r.end(), command.name, [](const Command& c, const std::string& n) { return c.name < n; });
    r.insert(pos, std::move(command));
    return true;
}

const std::vector<Command>& commands()
{
    return registry();
}

} // namespace drasim::cli
