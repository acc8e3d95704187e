// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>

#include "core/workload/rng.h"
#include "core/workload/workload_spec.h"

namespace drasim::workload {

/// The arrival times of one workload, generated one at a time in non-decreasing order.
/// Process::Once yields `start` again and again (up to `count`): the source decides how many items
/// "everything once" means (every manifest object, every trace row, one pipeline run).
class ArrivalProcess
{
public:
    ArrivalProcess(ArrivalSpec spec, uint64_t seed);
    /// The next arrival time, or nullopt once `until`/`count`/the schedule is exhausted.
    std::optional<double> next();
    const ArrivalSpec& spec() const { return m_spec; }

private:
    double diurnalRate(double t) const;
    std::optional<double> raw();

    ArrivalSpec m_spec;
    Rng m_rng;
    double m_t; ///< time of the last event (or start)
    uint64_t m_emitted = 0;
    size_t m_scheduleIndex = 0; ///< Schedule: next explicit time
    double m_nextEvery; ///< Schedule/Bursts with `every`: next periodic time
    uint32_t m_inBurst = 0; ///< Bursts: jobs left in the current burst
    double m_burstStart = 0;
    uint32_t m_burstIndex = 0;
    bool m_done = false;
};

} // namespace drasim::workload
