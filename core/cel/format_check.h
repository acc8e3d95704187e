// SPDX-License-Identifier: Apache-2.0
// string.format as Kubernetes runs it: cel-go's strings extension at version 2, whose formatter
// prints fixed-point and scientific clauses through an en_US number printer (grouped digits,
// "1.052033 × 10⁰³", "∞"), quotes strings inside lists and maps like CEL literals, and is checked
// at compile time when the format is a literal and the arguments a list literal.
#pragma once

#include <string>

namespace drasim::cel {

struct Node;

/// The compile-time check of a `format` call (cel-go's string format validator): "" when the
/// call passes or is not checked (format not a literal, arguments not a list literal).
std::string checkFormatCall(const Node& call);

} // namespace drasim::cel
