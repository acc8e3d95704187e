// SPDX-License-Identifier: Apache-2.0
// Money as every CSV writes it (plan --frontier-csv, compare -o csv and --series, simulate
// --series, runs export): dollars with two decimals, so a sum of prices reads 740740.68 and not
// the last bits of its floating point arithmetic (740740.6799999999).
#pragma once

#include <string>
#include <string_view>

namespace drasim {

/// "740740.68", "-12.50", "0.00" (never "-0.00").
std::string moneyCsv(double usd);

/// Whether a series metric is an amount of money ("cost.usd"): its values print with moneyCsv.
bool isMoneyMetric(std::string_view metric);

} // namespace drasim
