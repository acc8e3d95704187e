// SPDX-License-Identifier: Apache-2.0
#pragma once

// Run summaries built in code, stored as the recorder stores them (sim::toData as JSON).

#include <string>

#include "core/compare/comparison.h"
#include "core/sim/run_summary.h"

namespace drasim::compare::testing {

inline sim::DistributionSummary waits(double p50, double p95, double p99)
{
    sim::DistributionSummary d;
    d.count = 10;
    d.p50 = p50;
    d.p95 = p95;
    d.p99 = p99;
    return d;
}

inline sim::WorkloadSummary workload(const std::string& name, double p50, double p95, double p99)
{
    sim::WorkloadSummary w;
    w.name = name;
    w.waitSeconds = waits(p50, p95, p99);
    return w;
}

inline sim::UtilizationSummary model(const std::string& key, double mean, double peak)
{
    sim::UtilizationSummary u;
    u.dimension = "model";
    u.key = key;
    u.devicesAtEnd = 8;
    u.mean = mean;
    u.peak = peak;
    return u;
}

inline RunData runData(int64_t id, const sim::RunSummary& s, std::vector<storage::SeriesPoint> series = {})
{
    RunData r;
    r.info.id = id;
    r.info.scenario = s.info.scenario;
    r.info.seed = s.info.seed;
    r.info.status = "finished";
    r.info.summaryJson = toJson(sim::toData(s), 0);
    r.series = std::move(series);
    return r;
}

} // namespace drasim::compare::testing
