// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "core/sim/run_summary.h"
#include "core/sim/sim_time.h"

namespace drasim::sim {

/// What the pools' failure processes and spot reclaims did in a run (failure_draws.h): the nodes
/// they took down, for how long, the pods on them and the work those lost. Named scenario events
/// are not counted. Summarized only when some pool has failure settings, so runs without them
/// report exactly what they did before.
class FailureMetrics
{
public:
    void configure() { m_configured = true; }
    /// A drawn NodeFailure took `node` down at `now`, ending `pods` running pods that lost
    /// `lostDeviceSeconds` of work; `reclaim`: a spot reclaim rather than a hardware failure.
    void nodeDown(const std::string& node, bool reclaim, SimTime now, int64_t pods, double lostDeviceSeconds);
    /// The node is back (by a drawn return or a named one); ends its down time if a draw began it.
    void nodeBack(const std::string& node, SimTime now);
    /// Sets out.failures when configured; nodes still down count until `end`.
    void summarize(RunSummary& out, SimTime end) const;

private:
    bool m_configured = false;
    FailureSummary m_summary;
    SimTime m_downTime = 0;
    std::map<std::string, SimTime> m_downSince;
};

} // namespace drasim::sim
