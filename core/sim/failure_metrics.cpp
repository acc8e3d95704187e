// SPDX-License-Identifier: Apache-2.0
#include "core/sim/failure_metrics.h"

namespace drasim::sim {

void FailureMetrics::nodeDown(
    const std::string& node, bool reclaim, SimTime now, int64_t pods, double lostDeviceSeconds)
{
    (reclaim ? m_summary.reclaims : m_summary.failures)++;
    m_summary.podsEnded += pods;
    m_summary.lostDeviceHours += lostDeviceSeconds / 3600.0;
    m_downSince.emplace(node, now);
}

void FailureMetrics::nodeBack(const std::string& node, SimTime now)
{
    auto it = m_downSince.find(node);
    if (it == m_downSince.end())
        return;
    m_downTime += now - it->second;
    m_downSince.erase(it);
}

void FailureMetrics::summarize(RunSummary& out, SimTime end) const
{
    if (!m_configured)
        return;
    FailureSummary s = m_summary;
    SimTime down = m_downTime;
    for (const auto& [node, since] : m_downSince)
        down += end - since;
    s.nodeHoursDown = double(down) / double(kHour);
    out.failures = s;
}

} // namespace drasim::sim
