// SPDX-License-Identifier: Apache-2.0
#pragma once

// Recursive-descent parser for the CEL grammar (cel.md §3) with macro expansion (has, all,
// exists, exists_one, map, filter, the two-variable forms, cel.bind) and optional syntax.

#include <string_view>

#include "core/cel/ast.h"

namespace drasim::cel {

struct ParseError
{
    std::string message;
    size_t offset = 0;
};

/// Parses an expression. On failure returns null and fills error.
NodePtr parseExpression(std::string_view source, ParseError* error);

} // namespace drasim::cel
