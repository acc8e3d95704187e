// SPDX-License-Identifier: Apache-2.0
#include "core/yamlio/scalar_type.h"

#include <cmath>
#include <cstdlib>
#include <string>

namespace drasim::yamlio {

namespace {

bool isDigitIn(char c, int base)
{
    if (base == 16)
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    return c >= '0' && c < char('0' + base);
}

int digitValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return c - 'A' + 10;
}

} // namespace

std::optional<bool> parseYamlBool(std::string_view t)
{
    // go-yaml v2 (YAML 1.1) boolean spellings.
    static constexpr std::string_view kTrue[]
        = { "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON" };
    static constexpr std::string_view kFalse[]
        = { "n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF" };
    for (auto v : kTrue)
        if (t == v)
            return true;
    for (auto v : kFalse)
        if (t == v)
            return false;
    return std::nullopt;
}

std::optional<int64_t> parseYamlInt(std::string_view t)
{
    // strconv.ParseInt(s, 0, 64) after removing '_' as go-yaml v2 does: sign, 0x/0o/0b prefixes,
    // a leading 0 means octal.
    std::string s;
    s.reserve(t.size());
    for (char c : t)
        if (c != '_')
            s += c;
    if (s.empty())
        return std::nullopt;
    size_t i = 0;
    bool negative = false;
    if (s[0] == '+' || s[0] == '-') {
        negative = s[0] == '-';
        i = 1;
    }
    int base = 10;
    if (s.size() - i > 1 && s[i] == '0') {
        const char p = s[i + 1];
        if (p == 'x' || p == 'X')
            base = 16, i += 2;
        else if (p == 'o' || p == 'O')
            base = 8, i += 2;
        else if (p == 'b' || p == 'B')
            base = 2, i += 2;
        else
            base = 8, i += 1;
    }
    if (i >= s.size())
        return std::nullopt;
    unsigned __int128 v = 0;
    for (; i < s.size(); ++i) {
        if (!isDigitIn(s[i], base))
            return std::nullopt;
        v = v * unsigned(base) + unsigned(digitValue(s[i]));
        if (v > (unsigned __int128)(INT64_MAX) + 1)
            return std::nullopt;
    }
    if (!negative && v > (unsigned __int128)INT64_MAX)
        return std::nullopt;
    return negative ? int64_t(-(__int128)v) : int64_t(v);
}

std::optional<double> parseYamlFloat(std::string_view t)
{
    if (t == ".nan" || t == ".NaN" || t == ".NAN")
        return std::nan("");
    for (std::string_view inf : { ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF" })
        if (t == inf)
            return HUGE_VAL;
    for (std::string_view inf : { "-.inf", "-.Inf", "-.INF" })
        if (t == inf)
            return -HUGE_VAL;
    // ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$
    size_t i = 0;
    if (i < t.size() && (t[i] == '+' || t[i] == '-'))
        ++i;
    size_t intDigits = 0, fracDigits = 0;
    while (i < t.size() && t[i] >= '0' && t[i] <= '9')
        ++i, ++intDigits;
    bool dot = false;
    if (i < t.size() && t[i] == '.') {
        dot = true;
        ++i;
        while (i < t.size() && t[i] >= '0' && t[i] <= '9')
            ++i, ++fracDigits;
    }
    if (intDigits == 0 && (!dot || fracDigits == 0))
        return std::nullopt;
    if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
        ++i;
        if (i < t.size() && (t[i] == '+' || t[i] == '-'))
            ++i;
        size_t e = 0;
        while (i < t.size() && t[i] >= '0' && t[i] <= '9')
            ++i, ++e;
        if (e == 0)
            return std::nullopt;
    }
    if (i != t.size())
        return std::nullopt;
    return std::strtod(std::string(t).c_str(), nullptr);
}

ScalarType resolveScalar(std::string_view text, bool quoted, lean::Tag tag)
{
    switch (tag) {
    case lean::Tag::Str:
    case lean::Tag::Binary:
        return ScalarType::String;
    case lean::Tag::Int:
        return parseYamlInt(text) ? ScalarType::Int : ScalarType::String;
    case lean::Tag::Float:
        return ScalarType::Float;
    case lean::Tag::Bool:
        return parseYamlBool(text) ? ScalarType::Bool : ScalarType::String;
    case lean::Tag::Null:
        return ScalarType::Null;
    default:
        break;
    }
    if (quoted)
        return ScalarType::String;
    if (text.empty() || text == "~" || text == "null" || text == "Null" || text == "NULL")
        return ScalarType::Null;
    const char c = text[0];
    // Cheap first-character filter: most strings cannot be anything else.
    const bool maybeSpecial = (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'y'
        || c == 'Y' || c == 'n' || c == 'N' || c == 't' || c == 'T' || c == 'f' || c == 'F' || c == 'o'
        || c == 'O';
    if (!maybeSpecial)
        return ScalarType::String;
    if (parseYamlBool(text))
        return ScalarType::Bool;
    if (parseYamlInt(text))
        return ScalarType::Int;
    if (parseYamlFloat(text))
        return ScalarType::Float;
    return ScalarType::String;
}

const char* scalarTypeName(ScalarType t)
{
    switch (t) {
    case ScalarType::Null:
        return "null";
    case ScalarType::Bool:
        return "boolean";
    case ScalarType::Int:
        return "integer";
    case ScalarType::Float:
        return "number";
    case ScalarType::String:
        return "string";
    }
    return "value";
}

} // namespace drasim::yamlio
