// SPDX-License-Identifier: Apache-2.0
#include "core/yamlio/manifest_reader.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace drasim::yamlio {

std::string Path::str() const
{
    std::vector<const Path*> chain;
    for (const Path* p = this; p; p = p->parent)
        chain.push_back(p);
    std::string out;
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
        const Path* p = *it;
        if (p->index >= 0) {
            out += '[' + std::to_string(p->index) + ']';
        } else if (p->isKey) {
            out += '[';
            out += p->name;
            out += ']';
        } else if (!p->name.empty()) {
            if (!out.empty())
                out += '.';
            out += p->name;
        }
    }
    return out;
}

SourcePos Reader::pos(uint32_t n) const
{
    const lean::Node& node = m_doc.nodes[n];
    return SourcePos { m_file, int(node.line), int(node.column) };
}

SourcePos Reader::contentPos(uint32_t n) const
{
    SourcePos p = pos(n);
    const std::string_view in = m_doc.input;
    const size_t off = m_doc.nodes[n].inputOffset;
    if (off >= in.size())
        return p;
    const char c = in[off];
    if (c == '"' || c == '\'') {
        ++p.column;
    } else if (c == '|' || c == '>') {
        // Skip the header line and blank lines; the content starts at its indentation.
        size_t i = in.find('\n', off);
        while (i != std::string_view::npos && i + 1 < in.size()) {
            size_t start = i + 1;
            size_t j = start;
            while (j < in.size() && in[j] == ' ')
                ++j;
            ++p.line;
            if (j < in.size() && in[j] != '\n' && in[j] != '\r') {
                p.column = int(j - start + 1);
                break;
            }
            i = in.find('\n', start);
        }
    }
    return p;
}

bool Reader::isNull(uint32_t n) const
{
    const lean::Node& node = m_doc.nodes[n];
    if (node.kind == YamlNode::Kind::Null)
        return true;
    return node.kind == YamlNode::Kind::Scalar && scalarType(n) == ScalarType::Null;
}

ScalarType Reader::scalarType(uint32_t n) const
{
    const lean::Node& node = m_doc.nodes[n];
    return resolveScalar(m_doc.scalar(n), node.quoted, node.tag);
}

const char* Reader::typeName(uint32_t n) const
{
    switch (m_doc.nodes[n].kind) {
    case YamlNode::Kind::Null:
        return "null";
    case YamlNode::Kind::Map:
        return "map";
    case YamlNode::Kind::Sequence:
        return "list";
    case YamlNode::Kind::Scalar:
        return scalarTypeName(scalarType(n));
    }
    return "value";
}

std::string Reader::describe(uint32_t n) const
{
    std::string out = typeName(n);
    if (m_doc.nodes[n].kind == YamlNode::Kind::Scalar) {
        std::string_view t = m_doc.scalar(n);
        out += " \"";
        out += t.substr(0, 64);
        if (t.size() > 64)
            out += "...";
        out += '"';
    }
    return out;
}

const api::FeatureGates& Reader::gates() const
{
    static const api::FeatureGates kDefaults;
    return m_gates ? *m_gates : kDefaults;
}

void Reader::error(uint32_t n, const Path& p, std::string message)
{
    ++m_errors;
    m_diags.error(pos(n), m_kind, m_name, p.str(), std::move(message));
}

void Reader::warning(uint32_t n, const Path& p, std::string message)
{
    m_diags.warning(pos(n), m_kind, m_name, p.str(), std::move(message));
}

void Reader::invalid(uint32_t n, const Path& p, std::string_view value, const std::string& why)
{
    error(n, p, "Invalid value: \"" + std::string(value) + "\": " + why);
}

void Reader::unsupported(
    uint32_t n, const Path& p, std::string_view value, std::initializer_list<const char*> supported)
{
    std::string list;
    for (const char* s : supported) {
        if (!list.empty())
            list += ", ";
        list += '"';
        list += s;
        list += '"';
    }
    error(n, p, "Unsupported value: \"" + std::string(value) + "\": supported values: " + list);
}

void Reader::tooMany(uint32_t n, const Path& p, size_t have, size_t max)
{
    error(
        n, p, "Too many: " + std::to_string(have) + ": must have at most " + std::to_string(max) + " items");
}

void Reader::duplicate(uint32_t n, const Path& p, std::string_view value)
{
    error(n, p, "Duplicate value: \"" + std::string(value) + "\"");
}

bool Reader::isMap(uint32_t n, const Path& p)
{
    if (isNull(n))
        return false;
    if (m_doc.nodes[n].kind == YamlNode::Kind::Map)
        return true;
    error(n, p, std::string("expected a map, got ") + describe(n));
    return false;
}

bool Reader::isList(uint32_t n, const Path& p)
{
    if (isNull(n))
        return false;
    if (m_doc.nodes[n].kind == YamlNode::Kind::Sequence)
        return true;
    error(n, p, std::string("expected a list, got ") + describe(n));
    return false;
}

bool Reader::getString(uint32_t n, const Path& p, std::string& out)
{
    if (isNull(n))
        return false;
    if (m_doc.nodes[n].kind == YamlNode::Kind::Scalar && scalarType(n) == ScalarType::String) {
        out.assign(m_doc.scalar(n));
        return true;
    }
    std::string message = "expected a string, got ";
    message += typeName(n);
    if (m_doc.nodes[n].kind == YamlNode::Kind::Scalar) {
        message += ' ';
        message += m_doc.scalar(n);
        message += " (quote it to make it a string)";
    }
    error(n, p, std::move(message));
    return false;
}

bool Reader::getBool(uint32_t n, const Path& p, bool& out)
{
    if (isNull(n))
        return false;
    if (m_doc.nodes[n].kind == YamlNode::Kind::Scalar && scalarType(n) == ScalarType::Bool) {
        out = *parseYamlBool(m_doc.scalar(n));
        return true;
    }
    error(n, p, std::string("expected a boolean, got ") + describe(n));
    return false;
}

bool Reader::getInt(uint32_t n, const Path& p, int64_t& out)
{
    if (isNull(n))
        return false;
    if (m_doc.nodes[n].kind == YamlNode::Kind::Scalar) {
        const ScalarType t = scalarType(n);
        if (t == ScalarType::Int) {
            out = *parseYamlInt(m_doc.scalar(n));
            return true;
        }
        if (t == ScalarType::Float) {
            // JSON has one number type: 3.0 decodes into an int field, 3.5 or 1e30 does not.
            const double d = *parseYamlFloat(m_doc.scalar(n));
            if (d > -9.2e18 && d < 9.2e18 && d == std::trunc(d)) { // range first: the cast is UB outside
                out = int64_t(d);
                return true;
            }
            error(n, p,
                "Invalid value: " + std::string(m_doc.scalar(n)) + ": must be an integer in int64 range");
            return false;
        }
    }
    error(n, p, std::string("expected an integer, got ") + describe(n));
    return false;
}

bool Reader::getInt32(uint32_t n, const Path& p, int32_t& out)
{
    int64_t v = 0;
    if (!getInt(n, p, v))
        return false;
    if (v < INT32_MIN || v > INT32_MAX) {
        error(n, p, "Invalid value: " + std::to_string(v) + ": must be a 32-bit integer");
        return false;
    }
    out = int32_t(v);
    return true;
}

bool Reader::getQuantity(uint32_t n, const Path& p, Quantity& out)
{
    if (isNull(n))
        return false;
    if (m_doc.nodes[n].kind != YamlNode::Kind::Scalar || scalarType(n) == ScalarType::Bool) {
        error(n, p, std::string("expected a quantity, got ") + describe(n));
        return false;
    }
    // Quantity.UnmarshalJSON trims surrounding spaces; numbers are accepted unquoted.
    std::string_view t = m_doc.scalar(n);
    while (!t.empty() && (t.front() == ' ' || t.front() == '\t' || t.front() == '\n' || t.front() == '\r'))
        t.remove_prefix(1);
    while (!t.empty() && (t.back() == ' ' || t.back() == '\t' || t.back() == '\n' || t.back() == '\r'))
        t.remove_suffix(1);
    std::string why;
    auto q = Quantity::parse(t, &why);
    if (!q) {
        invalid(n, p, m_doc.scalar(n), why);
        return false;
    }
    // What a real cluster hands to the scheduler is the re-parsed canonical form (cel.md §8).
    out = q->asStored();
    return true;
}

void Reader::getStringList(uint32_t n, const Path& p, std::vector<std::string>& out)
{
    items(n, p, [&](size_t, uint32_t item, const Path& ip) {
        std::string s;
        if (getString(item, ip, s))
            out.push_back(std::move(s));
    });
}

void Reader::getStringMap(uint32_t n, const Path& p, std::map<std::string, std::string>& out)
{
    fields(n, p, [&](std::string_view key, uint32_t, uint32_t value) {
        std::string s;
        if (getString(value, p.key(key), s))
            out[std::string(key)] = std::move(s);
        return true;
    });
}

void Reader::getQuantityMap(uint32_t n, const Path& p, std::map<std::string, Quantity>& out)
{
    fields(n, p, [&](std::string_view key, uint32_t, uint32_t value) {
        Quantity q;
        if (getQuantity(value, p.key(key), q))
            out[std::string(key)] = q;
        return true;
    });
}

DataValue Reader::toData(uint32_t n) const
{
    const lean::Node& node = m_doc.nodes[n];
    switch (node.kind) {
    case YamlNode::Kind::Null:
        return DataValue();
    case YamlNode::Kind::Scalar: {
        const std::string_view t = m_doc.scalar(n);
        switch (scalarType(n)) {
        case ScalarType::Null:
            return DataValue();
        case ScalarType::Bool:
            return DataValue(*parseYamlBool(t));
        case ScalarType::Int:
            return DataValue(*parseYamlInt(t));
        case ScalarType::Float:
            return DataValue(*parseYamlFloat(t));
        case ScalarType::String:
            return DataValue(std::string(t));
        }
        return DataValue(std::string(t));
    }
    case YamlNode::Kind::Sequence: {
        DataValue::List list;
        list.reserve(node.children);
        uint32_t c = n + 1;
        for (uint32_t i = 0; i < node.children; ++i, c = m_doc.next(c))
            list.push_back(toData(c));
        return DataValue(std::move(list));
    }
    case YamlNode::Kind::Map: {
        DataValue::Map map;
        uint32_t c = n + 1;
        for (uint32_t k = 0; k < node.children; k += 2) {
            const uint32_t key = c;
            const uint32_t value = m_doc.next(c);
            c = m_doc.next(value);
            map.emplace_back(std::string(m_doc.scalar(key)), toData(value));
        }
        return DataValue(std::move(map));
    }
    }
    return DataValue();
}

} // namespace drasim::yamlio
