// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/sim/run_summary.h"
#include "core/sim/sim_time.h"

namespace drasim::sim {

/// What preemption did in a run and who waited how long by priority class: preemptions and
/// their victims, the device-hours of work the victims lost (the work since their last
/// checkpoint), and the pod waits of each priority class (a pod's spec.priorityClassName after
/// admission; "" for pods without one). Each update is O(1).
class PreemptionMetrics
{
public:
    /// The index of a priority class, interned on first sight.
    uint32_t classIndex(const std::string& name, int32_t value);
    void podScheduled(uint32_t cls, SimTime waited) { m_classes[cls].waits.push_back(toSeconds(waited)); }
    /// Never bound: its wait so far is a censored value, as the workload waits count it.
    void podNeverScheduled(uint32_t cls, SimTime waitedSoFar)
    {
        m_classes[cls].neverScheduled.push_back(toSeconds(waitedSoFar));
    }
    /// A preemptor deleted `victims` pods.
    void preemption(int64_t victims);
    /// A victim stopped working, losing `deviceSeconds` of work (devices x seconds).
    void workLost(double deviceSeconds) { m_lostDeviceSeconds += deviceSeconds; }
    /// Fills the summary's preemption figures, and its priority classes when the run saw pods of
    /// more than one PriorityClass (pods without a class are then listed too, as "").
    void summarize(RunSummary& out) const;

private:
    struct ClassRec
    {
        std::string name;
        int32_t value = 0;
        std::vector<double> waits;
        std::vector<double> neverScheduled;
    };
    std::map<std::string, uint32_t> m_ids;
    std::vector<ClassRec> m_classes;
    int64_t m_preemptions = 0;
    int64_t m_victims = 0;
    int64_t m_maxVictims = 0;
    double m_lostDeviceSeconds = 0;
};

} // namespace drasim::sim
