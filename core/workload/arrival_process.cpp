// SPDX-License-Identifier: Apache-2.0
#include "core/workload/arrival_process.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace drasim::workload {

ArrivalProcess::ArrivalProcess(ArrivalSpec spec, uint64_t seed)
    : m_spec(std::move(spec))
    , m_rng(seed)
    , m_t(m_spec.start)
    , m_nextEvery(m_spec.start)
{
    std::sort(m_spec.times.begin(), m_spec.times.end());
}

double ArrivalProcess::diurnalRate(double t) const
{
    const double phase = 2.0 * std::numbers::pi * (t - m_spec.peakSeconds) / m_spec.periodSeconds;
    return m_spec.ratePerSecond * (1.0 + m_spec.amplitude * std::cos(phase));
}

std::optional<double> ArrivalProcess::raw()
{
    using P = ArrivalSpec::Process;
    switch (m_spec.process) {
    case P::Once:
        return m_spec.start;
    case P::Poisson:
        if (m_spec.ratePerSecond <= 0)
            return std::nullopt;
        m_t += m_rng.exponential(1.0 / m_spec.ratePerSecond);
        return m_t;
    case P::Diurnal: {
        // Lewis-Shedler thinning: candidates at the peak rate, each kept with probability
        // rate(t)/peak. Exact for any bounded rate function, and needs no integral inversion.
        const double peak = m_spec.ratePerSecond * (1.0 + m_spec.amplitude);
        if (peak <= 0)
            return std::nullopt;
        while (true) {
            m_t += m_rng.exponential(1.0 / peak);
            if (m_spec.until && m_t >= *m_spec.until)
                return m_t; // the caller stops; avoid looping through a long zero-rate night
            if (m_rng.uniform01() * peak < diurnalRate(m_t))
                return m_t;
        }
    }
    case P::Bursts: {
        if (m_inBurst == 0) {
            if (m_spec.every) {
                m_burstStart = m_spec.start + double(m_burstIndex) * *m_spec.every;
            } else {
                if (m_spec.ratePerSecond <= 0)
                    return std::nullopt;
                m_burstStart = (m_burstIndex == 0 ? m_spec.start : m_burstStart)
                    + m_rng.exponential(1.0 / m_spec.ratePerSecond);
            }
            ++m_burstIndex;
            m_inBurst = m_spec.burstSize;
        }
        const uint32_t k = m_spec.burstSize - m_inBurst;
        --m_inBurst;
        // A burst that would start before the previous one finished is queued behind it, so the
        // stream stays ordered.
        m_t = std::max(m_t, m_burstStart + double(k) * m_spec.burstSpacing);
        return m_t;
    }
    case P::Schedule: {
        const bool haveTime = m_scheduleIndex < m_spec.times.size();
        const bool haveEvery = m_spec.every.has_value() && *m_spec.every > 0;
        if (!haveTime && !haveEvery)
            return std::nullopt;
        if (haveTime && (!haveEvery || m_spec.times[m_scheduleIndex] <= m_nextEvery))
            return m_spec.times[m_scheduleIndex++];
        const double t = m_nextEvery;
        m_nextEvery += *m_spec.every;
        return t;
    }
    }
    return std::nullopt;
}

std::optional<double> ArrivalProcess::next()
{
    if (m_done)
        return std::nullopt;
    if (m_spec.count && m_emitted >= *m_spec.count) {
        m_done = true;
        return std::nullopt;
    }
    std::optional<double> t = raw();
    if (!t || (m_spec.until && *t >= *m_spec.until)) {
        m_done = true;
        return std::nullopt;
    }
    ++m_emitted;
    return t;
}

} // namespace drasim::workload
