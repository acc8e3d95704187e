// SPDX-License-Identifier: Apache-2.0
#pragma once

// A small, strict XML reader for hwloc topology files (private to core/topology): elements,
// attributes, comments, prolog and DOCTYPE, the five predefined entities and character
// references. No namespaces, no DTD processing. Errors carry line and column.

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace drasim::topology::xml {

struct Element
{
    std::string name;
    std::vector<std::pair<std::string, std::string>> attributes;
    std::vector<std::unique_ptr<Element>> children;
    std::string text; ///< character data between the tags, as written (entities not decoded)
    int line = 0;
    int column = 0;

    /// Attribute value or nullptr.
    const std::string* attr(std::string_view key) const;
};

struct ParseError
{
    std::string message;
    int line = 0;
    int column = 0;
};

/// The root element, or null with *error filled. Nesting deeper than maxDepth is an error.
std::unique_ptr<Element> parse(std::string_view text, ParseError* error, int maxDepth = 512);

} // namespace drasim::topology::xml
