// SPDX-License-Identifier: Apache-2.0
#pragma once

// Growth that adds jobs to a stream that keeps its own times (a trace): every job is followed by
// copies of itself, each arriving at a random time between the job's arrival and the next job's,
// so the stream carries more jobs over the same span instead of the same jobs sooner. The number
// of copies of each job is floor(extra), plus one more with probability frac(extra): on average
// the stream grows by `extra` (0.25: 25 % more jobs). Drawn from the workload's seed, so a run
// is reproducible; the copies are named "<job>-growth-<k>".

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>

#include "core/workload/rng.h"
#include "core/workload/workload.h"

namespace drasim::workload {

class AddedJobsSource final : public ArrivalSource
{
public:
    AddedJobsSource(std::unique_ptr<ArrivalSource> inner, double extra, uint64_t seed);
    std::optional<JobSpec> next() override;

private:
    /// Queues the copies of `job`, arriving before `until` (the next job's arrival).
    void queueCopies(const JobSpec& job, double until);

    std::unique_ptr<ArrivalSource> m_inner;
    double m_extra = 0;
    Rng m_rng;
    std::optional<JobSpec> m_pending; ///< the inner stream's next job, read ahead
    std::deque<JobSpec> m_ready; ///< in arrival order
    double m_lastGap = 0; ///< the gap before the last job: the span for the copies of the very last
    bool m_started = false;
};

} // namespace drasim::workload
