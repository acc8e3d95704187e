// SPDX-License-Identifier: Apache-2.0
#include "core/compare/comparison.h"

#include <map>

#include "core/compare/aligned_series.h"
#include "core/compare/run_kpis.h"

namespace drasim::compare {

namespace {

constexpr int kPlacementGroup = KpiGroup::Placement;
const std::string kPercent = "%";

/// Topology distance classes from nearest to farthest (nvidia-smi's order), so that placement rows
/// read from best to worst; a class this list does not know sorts after them by name.
std::string placementSortKey(const std::string& cls)
{
    static const char* const kNearToFar[] = { "X", "NV", "PIX", "PXB", "PHB", "NODE", "SYS" };
    for (size_t i = 0; i < std::size(kNearToFar); ++i)
        if (cls == kNearToFar[i])
            return std::string(1, char('0' + i)) + cls;
    return "9" + cls;
}

struct Row
{
    Kpi kpi;
    bool zeroWhenAbsent = false;
};

/// Merges the runs' KPI values into rows (one per order key), absent values filled per row rule.
std::map<KpiOrder, Row> mergeRows(const std::vector<RunData>& runs)
{
    std::map<KpiOrder, Row> rows;
    for (size_t r = 0; r < runs.size(); ++r) {
        for (KpiValue& v : runKpis(runs[r].info.id, runs[r].info.summaryJson)) {
            if (v.order.group == kPlacementGroup)
                v.order.key = placementSortKey(v.order.key);
            Row& row = rows[v.order];
            if (row.kpi.values.empty()) {
                row.kpi.group = v.group;
                row.kpi.name = v.name;
                row.kpi.unit = v.unit;
                row.kpi.better = v.better;
                row.kpi.values.resize(runs.size());
                row.kpi.valueBounds.resize(runs.size(), Bound::Exact);
                row.zeroWhenAbsent = v.zeroWhenAbsent;
            }
            row.kpi.values[r] = v.value;
            row.kpi.valueBounds[r] = v.atLeast ? Bound::AtLeast : Bound::Exact;
        }
    }
    for (auto& [order, row] : rows)
        if (row.zeroWhenAbsent)
            for (auto& v : row.kpi.values)
                if (!v)
                    v = 0.0;
    return rows;
}

/// Each placement class's share of the run's multi-device claims (none when the run placed none).
void addPlacementShares(std::map<KpiOrder, Row>& rows, size_t runCount)
{
    std::vector<double> totals(runCount, 0);
    std::vector<std::pair<KpiOrder, Kpi>> counts;
    for (const auto& [order, row] : rows) {
        if (order.group != kPlacementGroup)
            continue;
        counts.emplace_back(order, row.kpi);
        for (size_t r = 0; r < runCount; ++r)
            totals[r] += row.kpi.values[r].value_or(0);
    }
    for (auto& [order, count] : counts) {
        std::vector<std::optional<double>> shares(runCount);
        for (size_t r = 0; r < runCount; ++r)
            if (totals[r] > 0)
                shares[r] = 100 * count.values[r].value_or(0) / totals[r];
        const std::string key = count.name.substr(count.name.find('/') + 1);
        Row share { Kpi { count.group, "placement.share/" + key, kPercent, Better::Neither, std::move(shares),
                        {}, std::vector<Bound>(runCount, Bound::Exact), {} },
            false };
        KpiOrder at = order;
        at.stat = 1; // right after the class's count
        rows[at] = std::move(share);
    }
}

/// values[r] - values[0] with what it is: a lower bound minus an exact value is a lower bound, an
/// exact value minus a lower bound an upper bound, two lower bounds leave the difference unknown.
void setDelta(Kpi& k, size_t r)
{
    const bool runBound = k.valueBounds[r] == Bound::AtLeast;
    const bool baseBound = k.valueBounds[0] == Bound::AtLeast;
    if (runBound && baseBound)
        return;
    k.deltas[r] = *k.values[r] - *k.values[0];
    k.deltaBounds[r] = runBound ? Bound::AtLeast : baseBound ? Bound::AtMost : Bound::Exact;
}

} // namespace

Comparison compareRuns(const std::vector<RunData>& runs)
{
    if (runs.empty())
        throw CompareError("no runs to compare");
    Comparison c;
    for (const RunData& r : runs)
        c.runs.push_back({ r.info.id, r.info.scenario, r.info.scenarioRevision, r.info.seed, r.info.label,
            r.info.status });

    std::map<KpiOrder, Row> rows = mergeRows(runs);
    addPlacementShares(rows, runs.size());
    for (auto& [order, row] : rows) {
        Kpi& k = row.kpi;
        k.deltas.resize(runs.size());
        k.deltaBounds.assign(runs.size(), Bound::Exact);
        for (size_t r = 1; r < runs.size(); ++r)
            if (k.values[r] && k.values[0])
                setDelta(k, r);
        c.kpis.push_back(std::move(k));
    }
    c.series = alignSeries(runs);
    return c;
}

} // namespace drasim::compare
