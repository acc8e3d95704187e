// SPDX-License-Identifier: Apache-2.0
#include "core/common/money_text.h"

#include <cmath>
#include <cstdio>

namespace drasim {

std::string moneyCsv(double usd)
{
    if (!std::isfinite(usd))
        return "0.00";
    if (std::fabs(usd) < 0.005)
        usd = 0; // "-0.00" says nothing "0.00" does not
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f", usd);
    return buf;
}

bool isMoneyMetric(std::string_view metric)
{
    constexpr std::string_view suffix = ".usd";
    return metric.size() >= suffix.size() && metric.substr(metric.size() - suffix.size()) == suffix;
}

} // namespace drasim
