// SPDX-License-Identifier: Apache-2.0
#include <algorithm>

#include "core/workload/workload.h"

namespace drasim::workload {

MergedSource::MergedSource(std::vector<std::unique_ptr<ArrivalSource>> sources)
    : m_sources(std::move(sources))
{
    m_heads.resize(m_sources.size());
}

std::optional<JobSpec> MergedSource::next()
{
    // One source (most scenarios) is its own merge: its jobs are handed straight through, not
    // held as a pending head first (that cost two moves of every JobSpec). The source is then
    // read only as far as the run takes jobs, never one ahead.
    if (m_sources.size() == 1)
        return m_sources[0] ? m_sources[0]->next() : std::nullopt;
    // Pull lazily so that constructing the merge does not already consume the first job of every
    // source (some sources report errors while streaming).
    if (!m_primed) {
        for (size_t i = 0; i < m_sources.size(); ++i)
            m_heads[i] = m_sources[i] ? m_sources[i]->next() : std::nullopt;
        m_primed = true;
    }
    // A linear scan: scenarios have a handful of workloads, and strict "<" keeps the lowest index
    // at equal times.
    size_t best = m_heads.size();
    for (size_t i = 0; i < m_heads.size(); ++i) {
        if (!m_heads[i])
            continue;
        if (best == m_heads.size() || m_heads[i]->arrivalSeconds < m_heads[best]->arrivalSeconds)
            best = i;
    }
    if (best == m_heads.size())
        return std::nullopt;
    std::optional<JobSpec> out = std::move(m_heads[best]);
    m_heads[best] = m_sources[best]->next();
    return out;
}

VectorSource::VectorSource(std::vector<JobSpec> jobs)
    : m_jobs(std::move(jobs))
{
    std::stable_sort(m_jobs.begin(), m_jobs.end(),
        [](const JobSpec& a, const JobSpec& b) { return a.arrivalSeconds < b.arrivalSeconds; });
}

std::optional<JobSpec> VectorSource::next()
{
    if (m_next >= m_jobs.size())
        return std::nullopt;
    return std::move(m_jobs[m_next++]);
}

} // namespace drasim::workload
