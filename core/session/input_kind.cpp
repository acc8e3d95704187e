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

/// "kind:", blanks, the kind, blanks, at the start of the line (a top-level key).
bool isKindLine(std::string_view line, std::string_view kind)
{
    constexpr std::string_view kKey = "kind:";
    if (line.substr(0, kKey.size()) != kKey)
        return false;
    line.remove_prefix(kKey.size());
    while (!line.empty() && isBlank(line.front()))
        line.remove_prefix(1);
    while (!line.empty() && isBlank(line.back()))
        line.remove_suffix(1);
    return line == kind;
}

/// Whether a top-level `kind: <kind>` line is among the lines of `text`.
bool hasKindLine(std::string_view text, std::string_view kind)
{
    std::string_view rest(text);
    while (!rest.empty()) {
        size_t end = rest.find('\n');
        if (isKindLine(rest.substr(0, end), kind))
            return true;
        if (end == std::string_view::npos)
            break;
        rest.remove_prefix(end + 1);
    }
    return false;
}

/// The first 64 KiB of a regular file (empty for folders, stdin and unreadable paths): the kind
/// is near the top of every drasim document, and a prefix keeps huge manifests cheap.
std::string headOf(const std::string& path)
{
    std::error_code ec;
    if (path == "-" || !std::filesystem::is_regular_file(path, ec))
        return {};
    std::ifstream in(path, std::ios::binary);
    std::string head(64 * 1024, '\0');
    in.read(head.data(), std::streamsize(head.size()));
    head.resize(size_t(in.gcount()));
    return head;
}

} // namespace

const char* inputKindName(InputKind kind)
{
    return kind == InputKind::Scenario ? "scenario" : "manifests";
}

InputKind detectInputKind(const std::string& path)
{
    return detectTextKind(headOf(path));
}

InputKind detectTextKind(std::string_view text)
{
    return hasKindLine(text, "Scenario") ? InputKind::Scenario : InputKind::Manifests;
}

bool hasTopLevelKind(const std::string& path, std::string_view kind)
{
    return hasKindLine(headOf(path), kind);
}

} // namespace drasim::session
