// SPDX-License-Identifier: Apache-2.0
#pragma once

// A comparison as `drasim compare` prints it. Deterministic: the same runs give the same bytes.

#include <string>

#include "core/common/data_value.h"
#include "core/compare/comparison.h"

namespace drasim::compare {

/// Runs, then one line per KPI: name, unit, each run's value, each later run's difference from
/// the first ("-" where a run has no value).
std::string formatText(const Comparison& c);
/// {"runs": [...], "kpis": [{name, group, unit, better, values, deltas}], "series": [{metric,
/// times, values: [[per run]]}]}; missing values are null.
DataValue toData(const Comparison& c);
/// kpi,group,unit,better,run_<id>...,delta_<id>... (later runs only); empty cell = no value.
std::string kpiCsv(const Comparison& c);
/// metric,time_s,run_<id>...: the aligned series, one row per metric and time.
std::string seriesCsv(const Comparison& c);

const char* betterName(Better b); ///< "lower", "higher", "neither"

} // namespace drasim::compare
