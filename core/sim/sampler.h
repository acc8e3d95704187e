// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "core/sim/sim_context.h"

namespace drasim::sim {

class SchedulingLoop;

/// Takes the metric samples of a run: the metrics accrued to now, the pending pods by reason,
/// and (with SimOptions::fragmentation) the free devices the first blocked pod cannot use.
class Sampler
{
public:
    Sampler(SimContext& ctx, const SchedulingLoop& loop)
        : m_ctx(ctx)
        , m_loop(loop)
    { }

    /// Samples now and hands the sample to the recorders.
    void sample();

private:
    std::map<std::string, int64_t> pendingByReason() const;
    std::map<std::string, int64_t> probeFragmentation() const;
    SimTime longestPending();

    SimContext& m_ctx;
    const SchedulingLoop& m_loop;
};

} // namespace drasim::sim
