// SPDX-License-Identifier: Apache-2.0
#pragma once

// The gang series of a run's samples, for the tests of the PodGroup and 1.35 Permit gangs.

#include <map>
#include <utility>

#include "core/sim/run_recorder.h"
#include "core/sim/sim_time.h"

namespace drasim::sim::testing {

/// (gangs.not_started, gangs.idle_devices) by sample time.
struct GangSeries : RunRecorder
{
    std::map<SimTime, std::pair<double, double>> at;
    void onSample(const MetricSample& s) override
    {
        for (const auto& p : s.points) {
            if (p.metric == "gangs.not_started")
                at[s.time].first = p.value;
            if (p.metric == "gangs.idle_devices")
                at[s.time].second = p.value;
        }
    }
};

} // namespace drasim::sim::testing
