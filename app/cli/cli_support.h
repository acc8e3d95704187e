// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <string_view>

namespace drasim::cli {

/// Writes text to stdout in one go (used only after a command fully succeeded).
void printStdout(std::string_view text);
/// Error line on stderr, prefixed "drasim: ".
void printError(std::string_view text);
/// Whether stderr is a terminal (progress is shown only then).
bool stderrIsTerminal();

} // namespace drasim::cli
