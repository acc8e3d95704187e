// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <string_view>

namespace drasim {

/// Writes a file so that readers see either the old content or the complete new content, never a
/// partial write: the data goes to a temporary file beside the target, is flushed to disk, then
/// renamed over the target. Returns false and fills error on failure (the target is untouched).
bool writeFileAtomically(const std::string& path, std::string_view content, std::string* error = nullptr);

} // namespace drasim
