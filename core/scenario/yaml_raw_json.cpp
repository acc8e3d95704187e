// SPDX-License-Identifier: Apache-2.0
#include "core/scenario/yaml_raw_json.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <utility>
#include <vector>

namespace drasim::scenario {

namespace yaml_raw_json {

// encoding/json's floatEncoder: the shortest text that reads back as the value, in fixed notation
// between 1e-6 and 1e21 and in exponent notation outside, with a one-digit negative exponent
// written without its leading zero ("1e-7", not "1e-07").
std::string goFloat(double d)
{
    char buf[400];
    const double a = std::fabs(d);
    const bool exponent = a != 0 && (a < 1e-6 || a >= 1e21);
    const auto r = std::to_chars(
        buf, buf + sizeof buf, d, exponent ? std::chars_format::scientific : std::chars_format::fixed);
    std::string s(buf, r.ptr);
    const size_t n = s.size();
    if (exponent && n >= 4 && s[n - 4] == 'e' && s[n - 3] == '-' && s[n - 2] == '0')
        s.erase(n - 2, 1);
    return s;
}

/// Length of the UTF-8 sequence at s[i], 0 when it is not a valid one.
size_t utf8Length(const std::string& s, size_t i)
{
    const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char c = byte(i);
    const size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (len <= 1 || i + len > s.size())
        return len == 1 ? 1 : 0;
    for (size_t k = 1; k < len; ++k)
        if ((byte(i + k) >> 6) != 0x2)
            return 0;
    // Overlong forms, surrogates and values past U+10FFFF are invalid as Go's utf8 reads them.
    if ((len == 2 && c < 0xC2) || (len == 3 && c == 0xE0 && byte(i + 1) < 0xA0)
        || (len == 3 && c == 0xED && byte(i + 1) >= 0xA0) || (len == 4 && c == 0xF0 && byte(i + 1) < 0x90)
        || (len == 4 && (c > 0xF4 || (c == 0xF4 && byte(i + 1) >= 0x90))))
        return 0;
    return len;
}

// encoding/json's string encoder with HTML escaping (json.Marshal's default): <, > and & as
// \u003c, \u003e, \u0026, U+2028 and U+2029 escaped, invalid UTF-8 as U+FFFD.
void goString(std::string& out, const std::string& s)
{
    static const char* const kHex = "0123456789abcdef";
    out += '"';
    for (size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        const size_t len = utf8Length(s, i);
        if (len == 0) {
            out += "\\ufffd";
            ++i;
            continue;
        }
        if (len == 3 && c == 0xE2 && static_cast<unsigned char>(s[i + 1]) == 0x80
            && (static_cast<unsigned char>(s[i + 2]) & 0xFE) == 0xA8) {
            out += static_cast<unsigned char>(s[i + 2]) == 0xA8 ? "\\u2028" : "\\u2029";
            i += 3;
            continue;
        }
        if (len > 1) {
            out.append(s, i, len);
            i += len;
            continue;
        }
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        case '\b':
            out += "\\b";
            break;
        case '\f':
            out += "\\f";
            break;
        default:
            if (c < 0x20 || c == '<' || c == '>' || c == '&') {
                out += "\\u00";
                out += kHex[c >> 4];
                out += kHex[c & 0xF];
            } else {
                out += char(c);
            }
        }
        ++i;
    }
    out += '"';
}

/// A map key as YAMLToJSON names it: an integer or boolean key by its value, any other by its text.
std::string keyText(const yamlio::YamlNode& key)
{
    if (const auto i = key.asInt())
        return std::to_string(*i);
    if (const auto b = key.asBool())
        return *b ? "true" : "false";
    return key.isNull() ? "null" : key.scalar;
}

void write(std::string& out, const yamlio::YamlNode& n)
{
    switch (n.kind) {
    case yamlio::YamlNode::Kind::Null:
        out += "null";
        return;
    case yamlio::YamlNode::Kind::Scalar:
        if (const auto b = n.asBool())
            out += *b ? "true" : "false";
        else if (const auto i = n.asInt())
            out += std::to_string(*i);
        else if (const auto d = n.asDouble())
            out += goFloat(*d);
        else
            goString(out, n.scalar);
        return;
    case yamlio::YamlNode::Kind::Sequence:
        out += '[';
        for (size_t i = 0; i < n.items.size(); ++i) {
            if (i)
                out += ',';
            write(out, n.items[i]);
        }
        out += ']';
        return;
    case yamlio::YamlNode::Kind::Map: {
        std::vector<std::pair<std::string, const yamlio::YamlNode*>> entries;
        for (const auto& e : n.entries)
            entries.emplace_back(keyText(e.first), &e.second);
        std::stable_sort(
            entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        out += '{';
        for (size_t i = 0; i < entries.size(); ++i) {
            if (i)
                out += ',';
            goString(out, entries[i].first);
            out += ':';
            write(out, *entries[i].second);
        }
        out += '}';
        return;
    }
    }
}

} // namespace yaml_raw_json

std::string rawJsonOf(const yamlio::YamlNode& value)
{
    std::string out;
    yaml_raw_json::write(out, value);
    return out;
}

} // namespace drasim::scenario
