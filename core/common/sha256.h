// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <string_view>

namespace drasim {

/// SHA-256 of the bytes as 64 lowercase hex digits (FIPS 180-4). Used to tell contents apart
/// (scenario revisions in the run store), not for security.
std::string sha256Hex(std::string_view bytes);

} // namespace drasim
