// SPDX-License-Identifier: Apache-2.0
#pragma once

// A small positioned YAML tree for the project's own document kinds (NodeShape, Scenario, ...).
// Built from yaml-cpp's event API (never YAML::Node), with guards against hostile input: nesting
// depth, alias expansion (billion laughs), duplicate keys and non-UTF-8/binary text all become
// Diagnostics, never crashes. yaml-cpp itself stays private to this module.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/common/diagnostic.h"

namespace drasim::yamlio {

struct YamlEntry;

struct YamlNode
{
    enum class Kind { Null, Scalar, Sequence, Map };
    Kind kind = Kind::Null;
    std::string scalar; ///< Scalar text (also the text of a plain "null"/"~" when kind is Null)
    bool quoted = false; ///< written quoted or as a block scalar ('|', '>'): always a string
    std::string tag; ///< explicit tag if any ("!!str", "!!int", ...); empty otherwise
    SourcePos pos; ///< line/column (1-based) of the node's first character
    std::vector<YamlNode> items; ///< Sequence
    /// Map entries in document order; each has .first (key) and .second (value), so
    /// `for (const auto& [k, v] : node.entries)` works. (A struct, not std::pair: a pair of an
    /// incomplete type does not compile with clang, which builds the fuzz target.)
    std::vector<YamlEntry> entries;

    bool isNull() const { return kind == Kind::Null; }
    bool isScalar() const { return kind == Kind::Scalar; }
    bool isSequence() const { return kind == Kind::Sequence; }
    bool isMap() const { return kind == Kind::Map; }

    /// Map lookup by scalar key; nullptr when absent or when this is not a map.
    const YamlNode* get(std::string_view key) const;

    /// Typed views of a scalar with YAML core-schema resolution as Kubernetes' YAML decoder does
    /// it. A quoted scalar is always a string. nullopt when the scalar is not of that type.
    std::optional<bool> asBool() const;
    std::optional<int64_t> asInt() const;
    std::optional<double> asDouble() const;
    /// Plain or quoted scalar text; nullopt for maps, sequences and null.
    std::optional<std::string> asString() const;
    /// "map", "list", "string", "integer", "number", "boolean" or "null": for error messages.
    const char* typeName() const;
};

struct YamlEntry
{
    YamlNode first; ///< key
    YamlNode second; ///< value
};

struct YamlLimits
{
    int maxDepth = 256; ///< nesting of maps/sequences
    size_t maxAliasExpansion = 1'000'000; ///< nodes copied by alias expansion, per document
    size_t maxDocumentBytes = 512u << 20; ///< larger inputs are refused up front
};

/// Parses every document of a YAML stream (empty documents are skipped). Syntax errors, too-deep nesting,
/// excessive aliasing and duplicate keys are reported into diags (file:line:column) and end the parse;
/// documents completed before the error are returned.
std::vector<YamlNode> parseYamlDocuments(
    std::string_view text, const std::string& fileName, Diagnostics& diags, const YamlLimits& limits = {});

/// Reads a whole file ("-" = stdin). On failure returns false and sets error
/// ("No such file or directory", "file is 104857600 bytes, more than the limit of ... bytes").
bool readFile(
    const std::string& path, std::string& out, std::string* error = nullptr, size_t maxBytes = SIZE_MAX);

} // namespace drasim::yamlio
