// SPDX-License-Identifier: Apache-2.0
#pragma once

// The KPIs of one run, read from its stored summary (the JSON of sim::toData(RunSummary)).

#include <string>
#include <tuple>
#include <vector>

#include "core/compare/comparison.h"

namespace drasim::compare {

/// Where a row sorts: group, then section within the group, then key, then statistic. Rows of
/// every run are merged on this, so one KPI of two runs lands on one row.
struct KpiOrder
{
    int group = 0;
    int section = 0;
    std::string key;
    int stat = 0;
    auto operator<=>(const KpiOrder&) const = default;
};

struct KpiValue
{
    KpiOrder order;
    std::string group;
    std::string name;
    std::string unit;
    Better better = Better::Neither;
    double value = 0;
    /// Only a lower bound: censored values (pods never scheduled) could still raise it.
    bool atLeast = false;
    /// A run without this key has zero of it (a placement class or fragmentation reason it never
    /// saw) rather than nothing to compare (a workload or model it does not have).
    bool zeroWhenAbsent = false;
};

/// Reads the summary document. Throws CompareError naming the run when the text is not JSON or not
/// a summary ("run 3: the stored summary is not a run summary: ...").
std::vector<KpiValue> runKpis(int64_t runId, const std::string& summaryJson);

/// The groups of rows, in row order (KpiOrder::group), and their names.
enum KpiGroup { Pods, Wait, Gangs, Utilization, Cost, Fragmentation, Placement, Preemption };
extern const char* const kGroups[8];

} // namespace drasim::compare
