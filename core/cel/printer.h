// SPDX-License-Identifier: Apache-2.0
#pragma once

// Prints a parsed (not yet checked) expression back as CEL source. Every operator application
// is parenthesised, so parsing the output gives the same tree: printing is a fixpoint after one
// round, and the printed expression means what the original meant.

#include <string>

#include "core/cel/ast.h"

namespace drasim::cel {

std::string printExpression(const Node& parsed);

} // namespace drasim::cel
