// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "core/sim/sim_context.h"

namespace drasim::sim {

class JobController;
class SchedulingLoop;

/// Takes the metric samples of a run: the metrics accrued to now, the pending pods by reason,
/// and (with SimOptions::fragmentation) the free devices the first blocked pod cannot use; once a
/// grouped job has arrived, the gangs not started and the devices they hold idle.
class Sampler
{
public:
    Sampler(SimContext& ctx, const SchedulingLoop& loop, const JobController& jobs)
        : m_ctx(ctx)
        , m_loop(loop)
        , m_jobs(jobs)
    { }

    /// Samples now and hands the sample to the recorders.
    void sample();

private:
    std::map<std::string, int64_t> pendingByReason() const;
    std::map<std::string, int64_t> probeFragmentation() const;
    SimTime longestPending();
    void addGangPoints(MetricSample& s) const;

    SimContext& m_ctx;
    const SchedulingLoop& m_loop;
    const JobController& m_jobs;
};

} // namespace drasim::sim
