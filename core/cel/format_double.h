// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

namespace drasim::cel {

/// Formats like Go's strconv.FormatFloat(d, 'g', -1, 64), which cel-go uses for string(double):
/// shortest round-trip digits, exponent form when the decimal exponent is < -4 or >= 6
/// ("2.5", "-0.0045", "1e+06", "+Inf", "NaN").
std::string formatDouble(double d);

} // namespace drasim::cel
