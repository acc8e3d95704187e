// SPDX-License-Identifier: Apache-2.0
#include "core/compare/aligned_series.h"

#include <algorithm>
#include <map>

namespace drasim::compare {

std::vector<AlignedSeries> alignSeries(const std::vector<RunData>& runs)
{
    // metric -> time -> value per run. Sample times are whole milliseconds turned into seconds the
    // same way in every run, so equal times compare equal as doubles.
    std::map<std::string, std::map<double, std::vector<std::optional<double>>>> byMetric;
    for (size_t r = 0; r < runs.size(); ++r) {
        for (const storage::SeriesPoint& p : runs[r].series) {
            auto& row = byMetric[p.metric][p.time];
            row.resize(runs.size());
            row[r] = p.value;
        }
    }
    std::vector<AlignedSeries> out;
    out.reserve(byMetric.size());
    for (auto& [metric, rows] : byMetric) {
        AlignedSeries s;
        s.metric = metric;
        s.values.assign(runs.size(), {});
        for (auto& v : s.values)
            v.reserve(rows.size());
        for (auto& [time, row] : rows) {
            s.times.push_back(time);
            row.resize(runs.size());
            for (size_t r = 0; r < runs.size(); ++r)
                s.values[r].push_back(row[r]);
        }
        out.push_back(std::move(s));
    }
    return out;
}

} // namespace drasim::compare
