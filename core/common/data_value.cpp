// SPDX-License-Identifier: Apache-2.0
#include "core/common/data_value.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace drasim {

DataValue& DataValue::set(const std::string& key, DataValue v)
{
    if (!isMap())
        m_v = Map {};
    auto& m = asMap();
    for (auto& [k, val] : m) {
        if (k == key) {
            val = std::move(v);
            return val;
        }
    }
    m.emplace_back(key, std::move(v));
    return m.back().second;
}

const DataValue* DataValue::find(const std::string& key) const
{
    if (!isMap())
        return nullptr;
    for (const auto& [k, val] : asMap())
        if (k == key)
            return &val;
    return nullptr;
}

DataValue& DataValue::push(DataValue v)
{
    if (!isList())
        m_v = List {};
    auto& l = asList();
    l.push_back(std::move(v));
    return l.back();
}

namespace {

std::string formatDouble(double d)
{
    if (std::isnan(d))
        return ".nan";
    if (std::isinf(d))
        return d > 0 ? ".inf" : "-.inf";
    char buf[32];
    // Shortest representation that round-trips.
    for (int prec = 1; prec <= 17; ++prec) {
        std::snprintf(buf, sizeof buf, "%.*g", prec, d);
        if (std::strtod(buf, nullptr) == d)
            break;
    }
    return buf;
}

void jsonString(std::string& out, const std::string& s)
{
    out += '"';
    for (unsigned char c : s) {
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
            if (c < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", c);
                out += buf;
            } else {
                out += char(c);
            }
        }
    }
    out += '"';
}

void writeJson(std::string& out, const DataValue& v, int indent, int depth)
{
    auto newline = [&](int d) {
        if (indent > 0) {
            out += '\n';
            out.append(size_t(indent * d), ' ');
        }
    };
    if (v.isNull()) {
        out += "null";
    } else if (v.isBool()) {
        out += v.asBool() ? "true" : "false";
    } else if (v.isInt()) {
        out += std::to_string(v.asInt());
    } else if (v.isDouble()) {
        double d = v.asDouble();
        out += std::isfinite(d) ? formatDouble(d) : "null";
    } else if (v.isString()) {
        jsonString(out, v.asString());
    } else if (v.isList()) {
        const auto& l = v.asList();
        if (l.empty()) {
            out += "[]";
            return;
        }
        out += '[';
        for (size_t i = 0; i < l.size(); ++i) {
            if (i)
                out += ',';
            newline(depth + 1);
            writeJson(out, l[i], indent, depth + 1);
        }
        newline(depth);
        out += ']';
    } else {
        const auto& m = v.asMap();
        if (m.empty()) {
            out += "{}";
            return;
        }
        out += '{';
        for (size_t i = 0; i < m.size(); ++i) {
            if (i)
                out += ',';
            newline(depth + 1);
            jsonString(out, m[i].first);
            out += indent > 0 ? ": " : ":";
            writeJson(out, m[i].second, indent, depth + 1);
        }
        newline(depth);
        out += '}';
    }
}

bool looksLikeNumber(const std::string& s)
{
    if (s.empty())
        return false;
    char* end = nullptr;
    std::strtod(s.c_str(), &end);
    if (end && *end == '\0')
        return true;
    // YAML 1.1 also reads octal/hex/sexagesimal-ish and "1_000" forms; be conservative.
    return s.find_first_not_of("0123456789_:+-.eExXoObB") == std::string::npos;
}

bool needsQuotes(const std::string& s)
{
    if (s.empty())
        return true;
    static const char* reserved[]
        = { "true", "false", "yes", "no", "on", "off", "null", "~", "y", "n", "True", "False", "Yes", "No",
              "On", "Off", "Null", "NULL", "TRUE", "FALSE", "YES", "NO", "ON", "OFF", "Y", "N", ".inf",
              ".Inf", ".INF", "-.inf", "-.Inf", "-.INF", "+.inf", "+.Inf", "+.INF", ".nan", ".NaN", ".NAN" };
    for (const char* r : reserved)
        if (s == r)
            return true;
    if (looksLikeNumber(s))
        return true;
    unsigned char first = static_cast<unsigned char>(s.front());
    if (std::string_view("-?:,[]{}#&*!|>'\"%@`").find(char(first)) != std::string_view::npos)
        return true;
    if (s.front() == ' ' || s.back() == ' ')
        return true;
    for (size_t i = 0; i < s.size(); ++i) {
        unsigned char c = static_cast<unsigned char>(s[i]);
        if (c < 0x20 || c == 0x7f)
            return true;
        if (c == ':' && (i + 1 == s.size() || s[i + 1] == ' '))
            return true;
        if (c == '#' && i > 0 && s[i - 1] == ' ')
            return true;
    }
    return false;
}

void yamlScalar(std::string& out, const DataValue& v)
{
    if (v.isNull()) {
        out += "null";
    } else if (v.isBool()) {
        out += v.asBool() ? "true" : "false";
    } else if (v.isInt()) {
        out += std::to_string(v.asInt());
    } else if (v.isDouble()) {
        out += formatDouble(v.asDouble());
    } else {
        const auto& s = v.asString();
        if (needsQuotes(s))
            jsonString(out, s); // a JSON string is a valid YAML double-quoted scalar
        else
            out += s;
    }
}

bool isEmptyCollection(const DataValue& v)
{
    return (v.isList() && v.asList().empty()) || (v.isMap() && v.asMap().empty());
}

void writeYaml(std::string& out, const DataValue& v, int indent);

void writeYamlKeyValue(std::string& out, const std::string& key, const DataValue& val, int indent)
{
    out.append(size_t(indent), ' ');
    yamlScalar(out, DataValue(key));
    out += ':';
    if (isEmptyCollection(val)) {
        out += val.isList() ? " []\n" : " {}\n";
    } else if (val.isMap()) {
        out += '\n';
        writeYaml(out, val, indent + 2);
    } else if (val.isList()) {
        out += '\n';
        writeYaml(out, val, indent); // kubectl style: list items at the key's indentation
    } else {
        out += ' ';
        yamlScalar(out, val);
        out += '\n';
    }
}

void writeYaml(std::string& out, const DataValue& v, int indent)
{
    if (v.isMap()) {
        for (const auto& [k, val] : v.asMap())
            writeYamlKeyValue(out, k, val, indent);
    } else if (v.isList()) {
        for (const auto& item : v.asList()) {
            out.append(size_t(indent), ' ');
            out += "- ";
            if (item.isMap() && !item.asMap().empty()) {
                // First key on the dash line, the rest indented by two.
                std::string inner;
                writeYaml(inner, item, indent + 2);
                out += inner.substr(size_t(indent + 2));
            } else if (item.isList() && !item.asList().empty()) {
                std::string inner;
                writeYaml(inner, item, indent + 2);
                out += inner.substr(size_t(indent + 2));
            } else if (isEmptyCollection(item)) {
                out += item.isList() ? "[]\n" : "{}\n";
            } else {
                yamlScalar(out, item);
                out += '\n';
            }
        }
    } else {
        out.append(size_t(indent), ' ');
        yamlScalar(out, v);
        out += '\n';
    }
}

} // namespace

std::string toJson(const DataValue& v, int indent)
{
    std::string out;
    writeJson(out, v, indent, 0);
    out += '\n';
    return out;
}

std::string toYaml(const DataValue& v)
{
    std::string out;
    if (isEmptyCollection(v)) {
        out = v.isList() ? "[]\n" : "{}\n";
        return out;
    }
    writeYaml(out, v, 0);
    return out;
}

} // namespace drasim
