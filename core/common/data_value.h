// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace drasim {

/// A JSON-like tree: null, bool, int, double, string, list, or map with keys in insertion order.
/// Used for opaque driver parameters (kept verbatim) and as the document model of our writers,
/// so output order is exactly the order we build it in (deterministic, Kubernetes field order).
class DataValue
{
public:
    using List = std::vector<DataValue>;
    using Map = std::vector<std::pair<std::string, DataValue>>;

    DataValue() = default;
    DataValue(std::nullptr_t) { }
    DataValue(bool b)
        : m_v(b)
    { }
    DataValue(int v)
        : m_v(int64_t(v))
    { }
    DataValue(int64_t v)
        : m_v(v)
    { }
    DataValue(double v)
        : m_v(v)
    { }
    DataValue(const char* s)
        : m_v(std::string(s))
    { }
    DataValue(std::string s)
        : m_v(std::move(s))
    { }
    DataValue(List l)
        : m_v(std::move(l))
    { }
    DataValue(Map m)
        : m_v(std::move(m))
    { }

    static DataValue map() { return DataValue(Map {}); }
    static DataValue list() { return DataValue(List {}); }

    bool isNull() const { return std::holds_alternative<std::monostate>(m_v); }
    bool isBool() const { return std::holds_alternative<bool>(m_v); }
    bool isInt() const { return std::holds_alternative<int64_t>(m_v); }
    bool isDouble() const { return std::holds_alternative<double>(m_v); }
    bool isString() const { return std::holds_alternative<std::string>(m_v); }
    bool isList() const { return std::holds_alternative<List>(m_v); }
    bool isMap() const { return std::holds_alternative<Map>(m_v); }

    bool asBool() const { return std::get<bool>(m_v); }
    int64_t asInt() const { return std::get<int64_t>(m_v); }
    double asDouble() const { return std::get<double>(m_v); }
    const std::string& asString() const { return std::get<std::string>(m_v); }
    const List& asList() const { return std::get<List>(m_v); }
    List& asList() { return std::get<List>(m_v); }
    const Map& asMap() const { return std::get<Map>(m_v); }
    Map& asMap() { return std::get<Map>(m_v); }

    /// Map helpers: set appends (or replaces) a key; find returns nullptr when absent.
    DataValue& set(const std::string& key, DataValue v);
    const DataValue* find(const std::string& key) const;
    /// List helper.
    DataValue& push(DataValue v);

    bool operator==(const DataValue& o) const { return m_v == o.m_v; }

private:
    std::variant<std::monostate, bool, int64_t, double, std::string, List, Map> m_v;
};

/// Compact or indented JSON (indent 0 = one line). Keys keep their insertion order.
std::string toJson(const DataValue& v, int indent = 2);
/// Block-style YAML as kubectl prints it (two-space indent, lists not indented under their key,
/// strings quoted only when YAML would otherwise misread them).
std::string toYaml(const DataValue& v);

} // namespace drasim
