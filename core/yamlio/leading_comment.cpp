// SPDX-License-Identifier: Apache-2.0
#include "core/yamlio/leading_comment.h"

#include <filesystem>
#include <fstream>
#include <system_error>

namespace drasim::yamlio {

std::string leadingComment(std::string_view yamlText)
{
    std::string out;
    size_t pos = 0;
    while (pos < yamlText.size() && yamlText[pos] == '#') {
        size_t end = yamlText.find('\n', pos);
        if (end == std::string_view::npos)
            end = yamlText.size();
        std::string_view line = yamlText.substr(pos + 1, end - pos - 1);
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        if (!line.empty() && line.front() == ' ')
            line.remove_prefix(1);
        if (line.find("SPDX-License-Identifier") == std::string_view::npos) {
            if (!out.empty())
                out += '\n';
            out += line;
        }
        pos = end + 1;
    }
    return out;
}

std::optional<std::string> describePath(const std::string& path)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::path file = path;
    if (fs::is_directory(file, ec)) {
        file.clear();
        // The same order as the scenario folders' convention (scenarios/README.md).
        for (const char* name : { "scenario.yaml", "workload.yaml", "cluster.yaml" }) {
            fs::path candidate = fs::path(path) / name;
            if (fs::is_regular_file(candidate, ec)) {
                file = candidate;
                break;
            }
        }
        if (file.empty())
            return std::nullopt;
    }
    std::ifstream in(file, std::ios::binary);
    if (!in)
        return std::nullopt;
    // Only the comment lines at the top are needed, so a large cluster dump is not read whole.
    std::string head, line;
    while (std::getline(in, line) && !line.empty() && line.front() == '#')
        head += line + '\n';
    if (in.bad())
        return std::nullopt;
    return leadingComment(head);
}

} // namespace drasim::yamlio
