// SPDX-License-Identifier: Apache-2.0
#include "core/sim/run_overrides.h"

#include <cmath>
#include <memory>

namespace drasim::sim {

namespace {

void scaleArrival(workload::ArrivalSpec& a, double f)
{
    using P = workload::ArrivalSpec::Process;
    if (a.process == P::Poisson || a.process == P::Diurnal || a.process == P::Bursts)
        a.ratePerSecond *= f;
    if (a.every)
        *a.every /= f;
    a.burstSpacing /= f;
}

void scaleDuration(workload::DurationSpec& d, double f)
{
    auto scale = [f](double& v) {
        if (std::isfinite(v))
            v *= f;
    };
    scale(d.value);
    scale(d.mean);
    scale(d.median); // lognormal: scaling the median scales every draw; sigma is unitless
    scale(d.low);
    scale(d.high);
    if (d.clampMin)
        scale(*d.clampMin);
    if (d.clampMax)
        scale(*d.clampMax);
    if (d.samples) {
        auto scaled = std::make_shared<std::vector<double>>(*d.samples);
        for (double& v : *scaled)
            scale(v);
        d.samples = std::move(scaled);
    }
}

/// Growth that adds jobs: a trace keeps its times (and its own arrival process, if it has one)
/// and gains copies of its jobs; a generator draws as many more arrivals over the same span.
void addJobs(workload::WorkloadSpec& w, double f)
{
    if (w.source == workload::WorkloadSpec::Source::Trace) {
        w.addedJobs = f - 1.0;
        return;
    }
    if (!w.arrival)
        return;
    scaleArrival(*w.arrival, f);
    if (w.arrival->count)
        w.arrival->count = uint64_t(std::llround(double(*w.arrival->count) * f));
}

} // namespace

std::vector<workload::WorkloadSpec> scaledWorkloads(const std::vector<workload::WorkloadSpec>& specs,
    double arrivalScale, double durationScale, bool growthAddsJobs)
{
    std::vector<workload::WorkloadSpec> out = specs;
    for (auto& w : out) {
        if (arrivalScale != 1.0 && growthAddsJobs) {
            addJobs(w, arrivalScale);
        } else if (arrivalScale != 1.0) {
            if (w.arrival)
                scaleArrival(*w.arrival, arrivalScale);
            if (w.trace && w.trace->useTraceTimes)
                w.trace->timeScale /= arrivalScale;
        }
        if (durationScale != 1.0) {
            if (w.duration)
                scaleDuration(*w.duration, durationScale);
            if (w.pipeline)
                for (auto& [task, d] : w.pipeline->taskDurations)
                    scaleDuration(d, durationScale);
        }
    }
    return out;
}

} // namespace drasim::sim
