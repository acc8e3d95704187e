// SPDX-License-Identifier: Apache-2.0
// Regular expressions as Go's regexp package reads them, on top of RE2. Kubernetes evaluates
// `matches`, `find` and `findAll` with Go; RE2 is Go's ancestor and agrees on almost everything,
// except for what this adapter evens out: Go accepts `(?<name>...)` (RE2 of Debian 12 only knows
// `(?P<name>...)`), rejects `\C` (RE2's any-byte escape), and words its errors differently.
#pragma once

#include <memory>
#include <string>
#include <string_view>

namespace re2 {
class RE2;
}

namespace drasim::cel {

/// Compiles a pattern with Go's syntax. On failure returns null and sets *error (when given) to
/// Go's message, e.g. "error parsing regexp: missing closing ]: `[a-`".
std::shared_ptr<re2::RE2> compileGoRegex(std::string_view pattern, std::string* error);

} // namespace drasim::cel
