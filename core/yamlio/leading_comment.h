// SPDX-License-Identifier: Apache-2.0
#pragma once

// The description a shipped scenario carries for programs (the GUI, an index): the comment block
// at the top of its main YAML file, the same text as the first paragraph of the folder's README.md
// (scenarios/README.md; tests/scenarios/run_scenario.sh checks that both agree).

#include <optional>
#include <string>
#include <string_view>

namespace drasim::yamlio {

/// The lines at the top of `yamlText` that start with '#', without the '#' and one following
/// space, joined by '\n'; a licence line (SPDX-License-Identifier) is left out. Stops at the
/// first line that is not a comment (a blank line included). Empty when the text starts otherwise.
std::string leadingComment(std::string_view yamlText);

/// The description of an opened path: for a file, its leading comment; for a folder, the leading
/// comment of its main file (scenario.yaml, else workload.yaml, else cluster.yaml). nullopt when
/// the path cannot be read or the folder has no main file; an empty string when the main file has
/// no leading comment.
std::optional<std::string> describePath(const std::string& path);

} // namespace drasim::yamlio
