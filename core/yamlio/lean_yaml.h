// SPDX-License-Identifier: Apache-2.0
#pragma once

// Internal to yamlio: a compact positioned YAML tree built straight from yaml-cpp events. Nodes
// are stored in pre-order in one vector, each knowing its subtree size, so a document of millions
// of nodes costs two allocations (nodes and scalar text) instead of one per node. The manifest
// loader walks this directly; YamlNode (yaml_tree.h) is converted from it.

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/diagnostic.h"
#include "core/yamlio/yaml_tree.h"

namespace drasim::yamlio::lean {

enum class Tag : uint8_t { None, Str, Int, Bool, Float, Null, Map, Seq, Binary, Other };

struct Node
{
    YamlNode::Kind kind = YamlNode::Kind::Null;
    bool quoted = false; ///< quoted or block scalar: a string whatever it looks like
    Tag tag = Tag::None;
    uint32_t line = 0; ///< 1-based
    uint32_t column = 0; ///< 1-based
    uint32_t size = 1; ///< nodes in this subtree including itself
    uint32_t children = 0; ///< direct children (a map counts keys and values)
    uint32_t textOffset = 0;
    uint32_t textLength = 0;
    uint32_t inputOffset = 0; ///< byte offset of the node in the input (style and content position)
};

struct Document
{
    std::vector<Node> nodes; ///< nodes[0] is the root
    std::string text; ///< scalar bytes, referenced by Node::textOffset/textLength
    std::string_view input; ///< the parsed input; valid only inside the onDocument callback

    std::string_view scalar(uint32_t i) const
    {
        return std::string_view(text).substr(nodes[i].textOffset, nodes[i].textLength);
    }
    /// Index of the first child of node i (valid when children > 0).
    static uint32_t firstChild(uint32_t i) { return i + 1; }
    uint32_t next(uint32_t i) const { return i + nodes[i].size; }
};

/// lineOffset is added to every node's line: used when input is a slice of a larger file.
/// Parses every document, calling onDocument for each complete one (the callback may move the
/// document away). Returns false after reporting an error into diags; documents before the error
/// have been delivered.
bool parseDocuments(std::string_view input, const std::string& fileName, Diagnostics& diags,
    const YamlLimits& limits, const std::function<void(Document&)>& onDocument, uint32_t lineOffset = 0);

/// Checks that input is UTF-8 without control characters YAML forbids (binary garbage is caught
/// here with a clear message). Reports the first offender.
bool checkText(std::string_view input, const std::string& fileName, Diagnostics& diags);

} // namespace drasim::yamlio::lean
