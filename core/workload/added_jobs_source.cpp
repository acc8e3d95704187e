// SPDX-License-Identifier: Apache-2.0
#include "core/workload/added_jobs_source.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace drasim::workload {

AddedJobsSource::AddedJobsSource(std::unique_ptr<ArrivalSource> inner, double extra, uint64_t seed)
    : m_inner(std::move(inner))
    , m_extra(extra)
    , m_rng(mixSeed(seed, 0x67726f77)) // a stream of its own: the inner source's draws are unchanged
{ }

void AddedJobsSource::queueCopies(const JobSpec& job, double until)
{
    const double whole = std::floor(m_extra);
    int copies = int(whole);
    if (m_rng.uniform01() < m_extra - whole)
        ++copies;
    std::vector<double> times;
    for (int k = 0; k < copies; ++k)
        times.push_back(job.arrivalSeconds + m_rng.uniform01() * std::max(0.0, until - job.arrivalSeconds));
    std::sort(times.begin(), times.end());
    for (int k = 0; k < copies; ++k) {
        JobSpec copy = job;
        copy.name = job.name + "-growth-" + std::to_string(k + 1);
        copy.arrivalSeconds = times[size_t(k)];
        m_ready.push_back(std::move(copy));
    }
}

std::optional<JobSpec> AddedJobsSource::next()
{
    if (!m_started) {
        m_started = true;
        m_pending = m_inner->next();
    }
    if (!m_ready.empty()) {
        JobSpec job = std::move(m_ready.front());
        m_ready.pop_front();
        return job;
    }
    if (!m_pending)
        return std::nullopt;
    JobSpec job = std::move(*m_pending);
    m_pending = m_inner->next();
    const double until = m_pending ? m_pending->arrivalSeconds : job.arrivalSeconds + m_lastGap;
    if (m_pending)
        m_lastGap = m_pending->arrivalSeconds - job.arrivalSeconds;
    queueCopies(job, until);
    return job;
}

} // namespace drasim::workload
