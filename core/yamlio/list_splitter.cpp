// SPDX-License-Identifier: Apache-2.0
#include "core/yamlio/list_splitter.h"

namespace drasim::yamlio {

namespace {

bool isItemsLine(std::string_view line)
{
    if (!line.starts_with("items:"))
        return false;
    for (char c : line.substr(6)) {
        if (c == '#')
            return true;
        if (c != ' ' && c != '\r' && c != '\n')
            return false; // "items: []" or a flow list: nothing worth splitting
    }
    return true;
}

} // namespace

std::optional<ListSplit> splitTopLevelList(std::string_view text)
{
    enum class Part { Header, Items, Trailer } part = Part::Header;
    ListSplit split;
    size_t itemStart = std::string_view::npos;
    uint32_t itemLine = 0, line = 0;
    auto closeItem = [&](size_t end) {
        if (itemStart != std::string_view::npos)
            split.items.push_back({ text.substr(itemStart, end - itemStart), itemLine });
        itemStart = std::string_view::npos;
    };
    for (size_t pos = 0; pos < text.size(); ++line) {
        size_t eol = text.find('\n', pos);
        const size_t next = eol == std::string_view::npos ? text.size() : eol + 1;
        const std::string_view l = text.substr(pos, next - pos);
        const char c = l.empty() ? '\n' : l[0];
        // Directives and document markers mean a multi-document stream: not our shape.
        if (l.starts_with("---") || l.starts_with("...") || c == '%')
            return std::nullopt;
        const bool continuation = c == ' ' || c == '\n' || c == '\r' || c == '#';
        switch (part) {
        case Part::Header:
            split.skeleton.append(l);
            if (isItemsLine(l))
                part = Part::Items;
            break;
        case Part::Items:
            if (c == '-' && (l.size() == 1 || l[1] == ' ' || l[1] == '\n' || l[1] == '\r')) {
                closeItem(pos);
                itemStart = pos;
                itemLine = line;
            } else if (!continuation) {
                closeItem(pos);
                part = Part::Trailer;
                split.skeleton.append(l);
            } else if (itemStart == std::string_view::npos) {
                split.skeleton.append(l); // comments/blank lines before the first item
            }
            break;
        case Part::Trailer:
            if (c == '-')
                return std::nullopt;
            split.skeleton.append(l);
            break;
        }
        pos = next;
    }
    closeItem(text.size());
    if (split.items.size() < 2)
        return std::nullopt;
    return split;
}

} // namespace drasim::yamlio
