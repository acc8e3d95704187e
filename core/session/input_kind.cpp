// SPDX-License-Identifier: Apache-2.0
#include "core/session/input_kind.h"

#include <filesystem>
#include <fstream>
#include <string_view>

namespace drasim::session {

namespace {

bool isBlank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

/// "kind:", blanks, "Scenario", blanks, at the start of the line (a top-level key).
bool isScenarioKindLine(std::string_view line)
{
    constexpr std::string_view kKey = "kind:";
    if (line.substr(0, kKey.size()) != kKey)
        return false;
    line.remove_prefix(kKey.size());
    while (!line.empty() && isBlank(line.front()))
        line.remove_prefix(1);
    while (!line.empty() && isBlank(line.back()))
        line.remove_suffix(1);
    return line == "Scenario";
}

} // namespace

const char* inputKindName(InputKind kind)
{
    return kind == InputKind::Scenario ? "scenario" : "manifests";
}

InputKind detectInputKind(const std::string& path)
{
    std::error_code ec;
    if (path == "-" || !std::filesystem::is_regular_file(path, ec))
        return InputKind::Manifests;
    std::ifstream in(path, std::ios::binary);
    // The kind is near the top of every scenario; reading a prefix keeps huge manifests cheap.
    std::string head(64 * 1024, '\0');
    in.read(head.data(), std::streamsize(head.size()));
    head.resize(size_t(in.gcount()));
    return detectTextKind(head);
}

InputKind detectTextKind(std::string_view text)
{
    std::string_view rest(text);
    while (!rest.empty()) {
        size_t end = rest.find('\n');
        if (isScenarioKindLine(rest.substr(0, end)))
            return InputKind::Scenario;
        if (end == std::string_view::npos)
            break;
        rest.remove_prefix(end + 1);
    }
    return InputKind::Manifests;
}

} // namespace drasim::session
