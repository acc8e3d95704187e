// SPDX-License-Identifier: Apache-2.0
#include "core/yamlio/scalar_edit.h"

#include <algorithm>
#include <charconv>

#include "core/common/data_value.h"

namespace drasim::yamlio {

namespace {

/// The byte offset of a node's 1-based line and column; npos when the text is shorter.
size_t offsetOf(std::string_view text, const SourcePos& pos)
{
    size_t at = 0;
    for (int line = 1; line < pos.line; ++line) {
        at = text.find('\n', at);
        if (at == std::string_view::npos)
            return at;
        ++at;
    }
    const size_t offset = at + size_t(std::max(pos.column, 1) - 1);
    return offset <= text.size() ? offset : std::string_view::npos;
}

/// Bytes of the quoted scalar starting at `at` (quote to quote), 0 when it does not end on its line.
size_t quotedLength(std::string_view text, size_t at)
{
    const char quote = text[at];
    for (size_t i = at + 1; i < text.size() && text[i] != '\n'; ++i) {
        if (quote == '"' && text[i] == '\\') {
            ++i; // an escaped character, possibly a quote
        } else if (text[i] == quote) {
            if (quote == '\'' && i + 1 < text.size() && text[i + 1] == '\'')
                ++i; // '' is a quote inside single quotes
            else
                return i + 1 - at;
        }
    }
    return 0;
}

/// `value` as a scalar that reads back as this string in block and flow context alike.
std::string scalarText(const std::string& value)
{
    std::string plain = toYaml(DataValue(value));
    plain.pop_back(); // the newline after the document
    if (plain == value && value.find_first_of(",[]{}") == std::string::npos)
        return plain;
    std::string quoted = toJson(DataValue(value), 0); // a JSON string is a double-quoted YAML scalar
    quoted.pop_back();
    return quoted;
}

/// The key of `map` that `field` starts with, followed by '.', '[' or the end; the longest one.
const YamlEntry* matchKey(const YamlNode& map, std::string_view field)
{
    const YamlEntry* best = nullptr;
    for (const YamlEntry& e : map.entries) {
        const std::string& key = e.first.scalar;
        if (field.substr(0, key.size()) != key)
            continue;
        const bool ends = field.size() == key.size() || field[key.size()] == '.' || field[key.size()] == '[';
        if (ends && (!best || key.size() > best->first.scalar.size()))
            best = &e;
    }
    return best;
}

} // namespace

const YamlNode* findField(const YamlNode& root, std::string_view field)
{
    const YamlNode* node = &root;
    while (!field.empty()) {
        if (field.front() == '.') {
            field.remove_prefix(1);
            if (field.empty())
                return nullptr;
        }
        if (field.front() == '[') {
            const size_t close = field.find(']');
            size_t index = 0;
            if (close == std::string_view::npos || !node->isSequence()
                || std::from_chars(field.data() + 1, field.data() + close, index).ptr != field.data() + close
                || index >= node->items.size())
                return nullptr;
            node = &node->items[index];
            field.remove_prefix(close + 1);
            continue;
        }
        const YamlEntry* entry = node->isMap() ? matchKey(*node, field) : nullptr;
        if (!entry)
            return nullptr;
        node = &entry->second;
        field.remove_prefix(entry->first.scalar.size());
    }
    return node;
}

std::optional<TextEdit> replaceScalar(std::string_view text, const YamlNode& node, const std::string& value)
{
    if (!node.isScalar() || !node.tag.empty())
        return std::nullopt;
    const size_t at = offsetOf(text, node.pos);
    if (at == std::string_view::npos || at >= text.size())
        return std::nullopt;
    size_t length = 0;
    if (text[at] == '"' || text[at] == '\'')
        length = quotedLength(text, at);
    else if (!node.quoted && text.substr(at, node.scalar.size()) == node.scalar)
        length = node.scalar.size(); // a plain scalar is its own text when it fits on one line
    if (length == 0 || text.substr(at, length).find('\n') != std::string_view::npos)
        return std::nullopt;
    return TextEdit { at, length, scalarText(value) };
}

std::optional<TextEdit> addFirstEntry(
    std::string_view text, const YamlNode& node, const std::string& key, const std::string& value)
{
    if (!node.isMap() || node.entries.empty())
        return std::nullopt;
    const std::string entry = scalarText(key) + ": " + scalarText(value);
    const size_t at = offsetOf(text, node.pos);
    if (at == std::string_view::npos || at >= text.size())
        return std::nullopt;
    if (text[at] == '{')
        return TextEdit { at + 1, 0, entry + ", " };
    // A block map starts at its first key: the new entry goes before it, at its indentation.
    const size_t first = offsetOf(text, node.entries.front().first.pos);
    if (first != at)
        return std::nullopt;
    return TextEdit { at, 0, entry + "\n" + std::string(size_t(std::max(node.pos.column, 1) - 1), ' ') };
}

std::string applyEdits(std::string text, std::vector<TextEdit> edits)
{
    std::sort(
        edits.begin(), edits.end(), [](const TextEdit& a, const TextEdit& b) { return a.offset > b.offset; });
    for (const TextEdit& e : edits) // from the end, so earlier offsets stay valid
        text.replace(e.offset, e.length, e.text);
    return text;
}

} // namespace drasim::yamlio
