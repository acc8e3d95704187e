// SPDX-License-Identifier: Apache-2.0
#include "core/cel/format_double.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

namespace drasim::cel {

std::string formatDouble(double d)
{
    if (std::isnan(d))
        return "NaN";
    if (std::isinf(d))
        return d > 0 ? "+Inf" : "-Inf";
    char buf[64];
    auto sci = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific);
    std::string text(buf, sci.ptr);
    auto e = text.find('e');
    int exponent = std::atoi(text.c_str() + e + 1);
    if (exponent < -4 || exponent >= 6)
        return text; // to_chars already writes at least two exponent digits, like Go
    auto fixed = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::fixed);
    return std::string(buf, fixed.ptr);
}

} // namespace drasim::cel
