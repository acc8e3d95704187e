// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

namespace drasim::cli {

/// Rows as aligned columns, two spaces apart, no trailing spaces. `align` has one letter per column,
/// 'l' (text) or 'r' (numbers); columns past its end are left-aligned.
std::string textTable(const std::vector<std::vector<std::string>>& rows, const std::string& align);

} // namespace drasim::cli
