// SPDX-License-Identifier: Apache-2.0
#include "core/yamlio/yaml_tree.h"

#include "core/yamlio/lean_yaml.h"
#include "core/yamlio/scalar_type.h"

namespace drasim::yamlio {

namespace {

// Depth is bounded by YamlLimits::maxDepth, so this recursion is safe.
YamlNode convert(const lean::Document& doc, uint32_t i, const std::string& file)
{
    const lean::Node& n = doc.nodes[i];
    YamlNode out;
    out.kind = n.kind;
    out.quoted = n.quoted;
    out.pos = SourcePos { file, int(n.line), int(n.column) };
    // Indexed by lean::Tag (None, Str, Int, Bool, Float, Null, Map, Seq, Binary, Other).
    static const std::string kTagText[]
        = { "", "!!str", "!!int", "!!bool", "!!float", "!!null", "!!map", "!!seq", "!!binary", "!" };
    out.tag = kTagText[static_cast<int>(n.tag)];
    if (n.kind == YamlNode::Kind::Scalar) {
        out.scalar = std::string(doc.scalar(i));
        // A plain "~" or "null" stays a Scalar in yaml-cpp only when tagged; normalise to Null.
        if (resolveScalar(out.scalar, n.quoted, n.tag) == ScalarType::Null && !n.quoted)
            out.kind = YamlNode::Kind::Null;
        return out;
    }
    uint32_t c = i + 1;
    if (n.kind == YamlNode::Kind::Sequence) {
        out.items.reserve(n.children);
        for (uint32_t k = 0; k < n.children; ++k, c = doc.next(c))
            out.items.push_back(convert(doc, c, file));
    } else if (n.kind == YamlNode::Kind::Map) {
        out.entries.reserve(n.children / 2);
        for (uint32_t k = 0; k < n.children; k += 2) {
            YamlNode key = convert(doc, c, file);
            c = doc.next(c);
            YamlNode value;
            if (k + 1 < n.children) {
                value = convert(doc, c, file);
                c = doc.next(c);
            }
            out.entries.push_back(YamlEntry { std::move(key), std::move(value) });
        }
    }
    return out;
}

ScalarType typeOf(const YamlNode& n)
{
    lean::Tag tag = lean::Tag::None;
    if (n.tag == "!!str")
        tag = lean::Tag::Str;
    else if (n.tag == "!!int")
        tag = lean::Tag::Int;
    else if (n.tag == "!!bool")
        tag = lean::Tag::Bool;
    else if (n.tag == "!!float")
        tag = lean::Tag::Float;
    return resolveScalar(n.scalar, n.quoted, tag);
}

} // namespace

const YamlNode* YamlNode::get(std::string_view key) const
{
    if (kind != Kind::Map)
        return nullptr;
    for (const auto& [k, v] : entries)
        if (k.kind == Kind::Scalar && k.scalar == key)
            return &v;
    return nullptr;
}

std::optional<bool> YamlNode::asBool() const
{
    if (kind != Kind::Scalar || typeOf(*this) != ScalarType::Bool)
        return std::nullopt;
    return parseYamlBool(scalar);
}

std::optional<int64_t> YamlNode::asInt() const
{
    if (kind != Kind::Scalar || typeOf(*this) != ScalarType::Int)
        return std::nullopt;
    return parseYamlInt(scalar);
}

std::optional<double> YamlNode::asDouble() const
{
    if (kind != Kind::Scalar)
        return std::nullopt;
    const ScalarType t = typeOf(*this);
    if (t == ScalarType::Int)
        return double(*parseYamlInt(scalar));
    if (t == ScalarType::Float)
        return parseYamlFloat(scalar);
    return std::nullopt;
}

std::optional<std::string> YamlNode::asString() const
{
    if (kind != Kind::Scalar)
        return std::nullopt;
    return scalar;
}

const char* YamlNode::typeName() const
{
    switch (kind) {
    case Kind::Null:
        return "null";
    case Kind::Map:
        return "map";
    case Kind::Sequence:
        return "list";
    case Kind::Scalar:
        return scalarTypeName(typeOf(*this));
    }
    return "value";
}

std::vector<YamlNode> parseYamlDocuments(
    std::string_view text, const std::string& fileName, Diagnostics& diags, const YamlLimits& limits)
{
    std::vector<YamlNode> docs;
    lean::parseDocuments(text, fileName, diags, limits, [&](lean::Document& doc) {
        // Empty documents ("---" with nothing after it) are skipped, as kubectl does.
        if (doc.nodes[0].kind != YamlNode::Kind::Null)
            docs.push_back(convert(doc, 0, fileName));
    });
    return docs;
}

} // namespace drasim::yamlio
