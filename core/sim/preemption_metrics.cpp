// SPDX-License-Identifier: Apache-2.0
#include "core/sim/preemption_metrics.h"

#include <algorithm>

namespace drasim::sim {

uint32_t PreemptionMetrics::classIndex(const std::string& name, int32_t value)
{
    auto [it, fresh] = m_ids.try_emplace(name, uint32_t(m_classes.size()));
    if (fresh) {
        ClassRec& c = m_classes.emplace_back();
        c.name = name;
        c.value = value;
    }
    return it->second;
}

void PreemptionMetrics::preemption(int64_t victims)
{
    ++m_preemptions;
    m_victims += victims;
    m_maxVictims = std::max(m_maxVictims, victims);
}

void PreemptionMetrics::summarize(RunSummary& out) const
{
    out.preemption.preemptions = m_preemptions;
    out.preemption.victims = m_victims;
    out.preemption.maxVictimsPerPreemptor = m_maxVictims;
    out.preemption.lostDeviceHours = m_lostDeviceSeconds / 3600.0;
    // Only a scenario with more than one PriorityClass has waits to set side by side.
    const auto named = std::count_if(
        m_classes.begin(), m_classes.end(), [](const ClassRec& c) { return !c.name.empty(); });
    if (named < 2)
        return;
    for (const ClassRec& c : m_classes) {
        PriorityClassSummary s;
        s.name = c.name;
        s.value = c.value;
        s.waitSeconds = summarizeCensored(c.waits, c.neverScheduled);
        out.priorityClasses.push_back(std::move(s));
    }
    // Most important first, as the scheduling queue orders them.
    std::sort(out.priorityClasses.begin(), out.priorityClasses.end(),
        [](const PriorityClassSummary& a, const PriorityClassSummary& b) {
            return a.value != b.value ? a.value > b.value : a.name < b.name;
        });
}

} // namespace drasim::sim
