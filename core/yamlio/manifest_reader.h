// SPDX-License-Identifier: Apache-2.0
#pragma once

// Internal to yamlio: typed, strict access to a lean YAML document while building API objects.
// Every problem becomes a Diagnostic `file:line:col: Kind ns/name: field.path: message` with the
// API server's wording ("Required value", "Invalid value: ...", "Unsupported value: ...",
// "Too many: ...", "Duplicate value: ...", unknown fields under strict decoding).

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/api/feature_gates.h"
#include "core/common/data_value.h"
#include "core/common/diagnostic.h"
#include "core/common/quantity.h"
#include "core/yamlio/lean_yaml.h"
#include "core/yamlio/scalar_type.h"

namespace drasim::yamlio {

/// A field path built on the stack while descending; rendered only when an error needs it.
/// A Path points at its parent: never store a Path built from a temporary
/// (`const Path x = p.field("a").field("b");` dangles); name each level instead.
struct Path
{
    const Path* parent = nullptr;
    std::string_view name; ///< field name, or map key when isKey
    int64_t index = -1; ///< list index when >= 0
    bool isKey = false;

    Path field(std::string_view n) const { return Path { this, n, -1, false }; }
    Path at(size_t i) const { return Path { this, {}, int64_t(i), false }; }
    Path key(std::string_view k) const { return Path { this, k, -1, true }; }
    std::string str() const;
};

class Reader
{
public:
    Reader(const lean::Document& doc, const std::string& file, Diagnostics& diags)
        : m_doc(doc)
        , m_file(file)
        , m_diags(diags)
    { }

    /// The object errors are attributed to ("ResourceSlice", "ns/name").
    void setObject(std::string kind, std::string name)
    {
        m_kind = std::move(kind);
        m_name = std::move(name);
    }
    const std::string& objectKind() const { return m_kind; }
    /// The cluster's Kubernetes version and feature gates: they decide which kinds, versions and
    /// fields the API server serves (Kubernetes 1.37 defaults when never set).
    void setGates(const api::FeatureGates* gates) { m_gates = gates; }
    const api::FeatureGates& gates() const;

    const lean::Document& doc() const { return m_doc; }
    const std::string& file() const { return m_file; }
    Diagnostics& diags() { return m_diags; }
    SourcePos pos(uint32_t n) const;
    /// Where the text of scalar n starts: after the opening quote, or on the first content line of
    /// a block scalar ('|', '>'), so positions inside the value (CEL errors) map onto the file.
    SourcePos contentPos(uint32_t n) const;
    YamlNode::Kind nodeKind(uint32_t n) const { return m_doc.nodes[n].kind; }
    bool isNull(uint32_t n) const;
    std::string_view text(uint32_t n) const { return m_doc.scalar(n); }
    ScalarType scalarType(uint32_t n) const;
    const char* typeName(uint32_t n) const;
    /// typeName plus the scalar text: `string "two"`.
    std::string describe(uint32_t n) const;

    void error(uint32_t n, const Path& p, std::string message);
    void warning(uint32_t n, const Path& p, std::string message);
    size_t errorCount() const { return m_errors; }

    void required(uint32_t n, const Path& p) { error(n, p, "Required value"); }
    void invalid(uint32_t n, const Path& p, std::string_view value, const std::string& why);
    void unsupported(
        uint32_t n, const Path& p, std::string_view value, std::initializer_list<const char*> supported);
    void tooMany(uint32_t n, const Path& p, size_t have, size_t max);
    void duplicate(uint32_t n, const Path& p, std::string_view value);

    /// Null counts as absent (JSON null decodes to the zero value). A wrong type is reported.
    bool isMap(uint32_t n, const Path& p);
    bool isList(uint32_t n, const Path& p);

    /// Calls f(key, keyNode, valueNode) for each entry; f returns false for an unknown field, which
    /// is reported as `unknown field "key"` (strict field validation).
    template <class F> void fields(uint32_t map, const Path& p, F&& f)
    {
        if (!isMap(map, p))
            return;
        const uint32_t count = m_doc.nodes[map].children;
        uint32_t c = map + 1;
        for (uint32_t k = 0; k < count; k += 2) {
            const uint32_t keyNode = c;
            const uint32_t valueNode = m_doc.next(c);
            c = m_doc.next(valueNode);
            if (m_doc.nodes[keyNode].kind != YamlNode::Kind::Scalar) {
                error(keyNode, p, "map keys must be strings");
                continue;
            }
            const std::string_view key = m_doc.scalar(keyNode);
            if (!f(key, keyNode, valueNode))
                error(keyNode, p.field(key), "unknown field \"" + std::string(key) + "\"");
        }
    }

    /// Calls f(index, node, path) for each item of a list.
    template <class F> void items(uint32_t list, const Path& p, F&& f)
    {
        if (!isList(list, p))
            return;
        const uint32_t count = m_doc.nodes[list].children;
        uint32_t c = list + 1;
        for (uint32_t i = 0; i < count; ++i) {
            const uint32_t item = c;
            c = m_doc.next(c);
            const Path ip = p.at(i);
            f(size_t(i), item, ip);
        }
    }
    /// The i-th item of a list, or the list itself when it is not a list that long (for messages
    /// about values read earlier).
    uint32_t listItem(uint32_t list, size_t i) const
    {
        if (m_doc.nodes[list].kind != YamlNode::Kind::Sequence || i >= m_doc.nodes[list].children)
            return list;
        uint32_t c = list + 1;
        for (size_t k = 0; k < i; ++k)
            c = m_doc.next(c);
        return c;
    }
    uint32_t mapSize(uint32_t n) const
    {
        return m_doc.nodes[n].kind == YamlNode::Kind::Map ? m_doc.nodes[n].children / 2 : 0;
    }
    uint32_t listSize(uint32_t n) const
    {
        return m_doc.nodes[n].kind == YamlNode::Kind::Sequence ? m_doc.nodes[n].children : 0;
    }

    bool getString(uint32_t n, const Path& p, std::string& out);
    bool getBool(uint32_t n, const Path& p, bool& out);
    bool getInt(uint32_t n, const Path& p, int64_t& out);
    bool getInt32(uint32_t n, const Path& p, int32_t& out);
    bool getQuantity(uint32_t n, const Path& p, Quantity& out);
    void getStringList(uint32_t n, const Path& p, std::vector<std::string>& out);
    void getStringMap(uint32_t n, const Path& p, std::map<std::string, std::string>& out);
    void getQuantityMap(uint32_t n, const Path& p, std::map<std::string, Quantity>& out);
    /// The subtree as a DataValue (opaque driver parameters are kept verbatim).
    DataValue toData(uint32_t n) const;

private:
    const lean::Document& m_doc;
    const std::string& m_file;
    Diagnostics& m_diags;
    std::string m_kind;
    std::string m_name;
    size_t m_errors = 0;
    const api::FeatureGates* m_gates = nullptr;
};

} // namespace drasim::yamlio
