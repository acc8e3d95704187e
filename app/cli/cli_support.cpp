// SPDX-License-Identifier: Apache-2.0
#include "app/cli/cli_support.h"

#include <cstdio>
#include <unistd.h>

namespace drasim::cli {

void printStdout(std::string_view text)
{
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
}

void printError(std::string_view text)
{
    std::string line = "drasim: ";
    line.append(text);
    if (line.back() != '\n')
        line += '\n';
    std::fwrite(line.data(), 1, line.size(), stderr);
}

bool stderrIsTerminal()
{
    return isatty(fileno(stderr)) != 0;
}

} // namespace drasim::cli
