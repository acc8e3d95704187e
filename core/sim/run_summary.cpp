// SPDX-License-Identifier: Apache-2.0
#include "core/sim/run_summary.h"

#include <cmath>
#include <cstdio>
#include <utility>

namespace drasim::sim {

namespace {

/// Rounds to 6 significant decimals so that summaries do not depend on the last bits of floating
/// point sums (the figures are deterministic anyway; this keeps them readable and diff-friendly).
DataValue tidy(double v)
{
    if (!std::isfinite(v))
        return DataValue(int64_t(0));
    double r = std::round(v * 1e6) / 1e6;
    // Whole numbers print as integers ("86400", not "8.64e+04").
    if (r == std::floor(r) && std::fabs(r) < 1e15)
        return DataValue(int64_t(r));
    return DataValue(r);
}

DataValue distribution(const DistributionSummary& d)
{
    DataValue m = DataValue::map();
    m.set("count", int64_t(d.count));
    m.set("mean", tidy(d.mean));
    m.set("min", tidy(d.min));
    m.set("p50", tidy(d.p50));
    m.set("p90", tidy(d.p90));
    m.set("p95", tidy(d.p95));
    m.set("p99", tidy(d.p99));
    m.set("max", tidy(d.max));
    return m;
}

/// The figures of a distribution that censored values leave as lower bounds, by name.
DataValue lowerBounds(const LowerBounds& atLeast)
{
    DataValue bounds = DataValue::list();
    const std::pair<const char*, bool> named[]
        = { { "mean", atLeast.mean }, { "min", atLeast.min }, { "p50", atLeast.p50 }, { "p90", atLeast.p90 },
              { "p95", atLeast.p95 }, { "p99", atLeast.p99 }, { "max", atLeast.max } };
    for (const auto& [name, bound] : named)
        if (bound)
            bounds.push(std::string(name));
    return bounds;
}

/// A wait distribution: every pod created, the never scheduled ones censored (their wait so far),
/// with the figures they leave as lower bounds named, the longest wait of a scheduled pod and the
/// longest a never-scheduled one waited.
DataValue waitDistribution(const DistributionSummary& d)
{
    DataValue m = distribution(d);
    m.set("neverScheduled", int64_t(d.censored));
    m.set("lowerBounds", lowerBounds(d.atLeast));
    m.set("maxScheduled", tidy(d.maxExact));
    m.set("longestPending", tidy(d.maxCensored));
    return m;
}

DataValue keyed(const std::vector<KeyedValue>& values)
{
    DataValue m = DataValue::map();
    for (const auto& v : values)
        m.set(v.key, tidy(v.value));
    return m;
}

std::string fixed(double v, int decimals)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

/// "p50 0.0s  p90 12.0s ..." with a ">= " before each figure that is only a lower bound.
std::string figures(const DistributionSummary& d, const LowerBounds& atLeast)
{
    auto figure = [](const char* name, double v, bool bound) {
        return std::string(name) + (bound ? " >= " : " ") + fixed(v, 1) + "s";
    };
    return figure("p50", d.p50, atLeast.p50) + "  " + figure("p90", d.p90, atLeast.p90) + "  "
        + figure("p95", d.p95, atLeast.p95) + "  " + figure("p99", d.p99, atLeast.p99)
        + "  (n=" + std::to_string(d.count);
}

std::string distText(const DistributionSummary& d)
{
    return figures(d, {}) + ")";
}

/// Waits: bounds marked, and how many of the pods never got scheduled.
std::string waitText(const DistributionSummary& d)
{
    return figures(d, d.atLeast)
        + (d.censored > 0 ? ", " + std::to_string(d.censored) + " never scheduled)" : std::string(")"));
}

/// Gang start times: bounds marked, and how many jobs never started.
std::string startText(const DistributionSummary& d)
{
    return figures(d, d.atLeast)
        + (d.censored > 0 ? ", " + std::to_string(d.censored) + " never started)" : std::string(")"));
}

/// Gang completion times: bounds marked, and how many jobs had not ended.
std::string completeText(const DistributionSummary& d)
{
    return figures(d, d.atLeast)
        + (d.censored > 0 ? ", " + std::to_string(d.censored) + " not ended)" : std::string(")"));
}

DataValue preemptionData(const PreemptionSummary& p)
{
    DataValue m = DataValue::map();
    m.set("preemptions", p.preemptions);
    m.set("victims", p.victims);
    m.set("victimsPerPreemptor", tidy(double(p.victims) / double(std::max<int64_t>(1, p.preemptions))));
    m.set("maxVictimsPerPreemptor", p.maxVictimsPerPreemptor);
    m.set("lostDeviceHours", tidy(p.lostDeviceHours));
    return m;
}

/// Preemptions and the waits per priority class, when there is something to show.
std::string preemptionText(const RunSummary& s)
{
    std::string out;
    const PreemptionSummary& p = s.preemption;
    if (p.preemptions > 0)
        out += "preemption: " + std::to_string(p.preemptions) + " preemptions, " + std::to_string(p.victims)
            + " victims (" + fixed(double(p.victims) / double(p.preemptions), 1) + " per preemptor, at most "
            + std::to_string(p.maxVictimsPerPreemptor) + "), " + fixed(p.lostDeviceHours, 2)
            + " device-hours of work lost\n";
    if (!s.priorityClasses.empty()) {
        out += "wait by priority class:\n";
        for (const auto& c : s.priorityClasses)
            out += "  "
                + (c.name.empty() ? std::string("(no class)") : c.name + " (" + std::to_string(c.value) + ")")
                + ": " + waitText(c.waitSeconds) + "\n";
    }
    return out;
}

DataValue failureData(const FailureSummary& f)
{
    DataValue m = DataValue::map();
    m.set("failures", f.failures);
    m.set("reclaims", f.reclaims);
    m.set("nodeHoursDown", tidy(f.nodeHoursDown));
    m.set("podsEnded", f.podsEnded);
    m.set("lostDeviceHours", tidy(f.lostDeviceHours));
    return m;
}

std::string failureText(const std::optional<FailureSummary>& f)
{
    if (!f)
        return {};
    return "failures: " + std::to_string(f->failures) + " node failures, " + std::to_string(f->reclaims)
        + " spot reclaims, " + fixed(f->nodeHoursDown, 2) + " node-hours down, "
        + std::to_string(f->podsEnded) + " pods ended by them, " + fixed(f->lostDeviceHours, 2)
        + " device-hours of work lost\n";
}

/// Per workload under a speed table: its reference, each model's factor, pods and run time,
/// and the run time saved (keyed by workload, then model; "" is "(no listed model)").
DataValue speedData(const std::vector<SpeedSummary>& speed)
{
    DataValue out = DataValue::map();
    for (const auto& w : speed) {
        DataValue m = DataValue::map();
        m.set("reference", w.reference);
        m.set("savedPodHours", tidy(w.savedPodHours));
        DataValue models = DataValue::map();
        for (const auto& model : w.models) {
            DataValue one = DataValue::map();
            one.set("factor", tidy(model.factor));
            one.set("pods", model.pods);
            one.set("podHours", tidy(model.podHours));
            models.set(model.model.empty() ? "(no listed model)" : model.model, std::move(one));
        }
        m.set("models", std::move(models));
        out.set(w.workload, std::move(m));
    }
    return out;
}

std::string speedText(const std::vector<SpeedSummary>& speed)
{
    if (speed.empty())
        return {};
    std::string out = "run time by device model (duration x reference speed / speed):\n";
    for (const auto& w : speed) {
        out += "  workload " + w.workload + " (reference " + w.reference + "): " + fixed(w.savedPodHours, 2)
            + " pod-hours of run time saved\n";
        for (const auto& m : w.models)
            out += "    " + (m.model.empty() ? std::string("(no listed model)") : m.model) + ": x"
                + fixed(m.factor, 2) + ", " + std::to_string(m.pods) + " pods, " + fixed(m.podHours, 2)
                + " pod-hours\n";
    }
    return out;
}

} // namespace

DataValue toData(const RunSummary& s)
{
    DataValue root = DataValue::map();
    DataValue run = DataValue::map();
    run.set("scenario", s.info.scenario);
    run.set("seed", int64_t(s.info.seed));
    run.set("durationSeconds", tidy(toSeconds(s.info.duration)));
    run.set("metricIntervalSeconds", tidy(toSeconds(s.info.metricInterval)));
    run.set("simulatedSeconds", tidy(toSeconds(s.simulatedTime)));
    run.set("cancelled", s.cancelled);
    run.set("nodesAtStart", s.info.nodes);
    run.set("devicesAtStart", s.info.devices);
    run.set("events", int64_t(s.events));
    run.set("schedulingAttempts", int64_t(s.schedulingAttempts));
    run.set("samples", int64_t(s.samples));
    root.set("run", std::move(run));

    DataValue pods = DataValue::map();
    pods.set("created", s.podsCreated);
    pods.set("scheduled", s.podsScheduled);
    pods.set("succeeded", s.podsSucceeded);
    pods.set("failed", s.podsFailed);
    pods.set("evicted", s.podsEvicted);
    pods.set("pendingAtEnd", s.podsPendingAtEnd);
    pods.set("runningAtEnd", s.podsRunningAtEnd);
    pods.set("peakPending", s.peakPendingPods);
    root.set("pods", std::move(pods));
    root.set("waitSeconds", waitDistribution(s.waitSeconds));

    DataValue workloads = DataValue::list();
    for (const auto& w : s.workloads) {
        DataValue m = DataValue::map();
        m.set("name", w.name);
        DataValue jobs = DataValue::map();
        jobs.set("arrived", w.jobsArrived);
        jobs.set("succeeded", w.jobsSucceeded);
        jobs.set("failed", w.jobsFailed);
        jobs.set("unfinished", w.jobsUnfinished);
        m.set("jobs", std::move(jobs));
        DataValue p = DataValue::map();
        p.set("created", w.podsCreated);
        p.set("scheduled", w.podsScheduled);
        p.set("succeeded", w.podsSucceeded);
        p.set("failed", w.podsFailed);
        p.set("evicted", w.podsEvicted);
        p.set("pendingAtEnd", w.podsPendingAtEnd);
        m.set("pods", std::move(p));
        m.set("waitSeconds", waitDistribution(w.waitSeconds));
        m.set("jobCompletionSeconds", distribution(w.jobCompletionSeconds));
        if (w.pipelineCompletionSeconds.count > 0)
            m.set("pipelineCompletionSeconds", distribution(w.pipelineCompletionSeconds));
        workloads.push(std::move(m));
    }
    root.set("workloads", std::move(workloads));

    DataValue util = DataValue::map();
    for (const auto& u : s.utilization) {
        DataValue* dim = const_cast<DataValue*>(util.find(u.dimension));
        if (!dim)
            dim = &util.set(u.dimension, DataValue::map());
        DataValue m = DataValue::map();
        if (u.dimension == "class") {
            m.set("meanAllocated", tidy(u.meanAllocated));
            m.set("allocatedAtEnd", u.devicesAtEnd);
        } else {
            m.set("devices", u.devicesAtEnd);
            m.set("devicesInstalled", u.devicesInstalled);
            m.set("meanDevicesUp", tidy(u.meanDevicesUp));
            m.set("meanAllocated", tidy(u.meanAllocated));
            m.set("mean", tidy(u.mean));
            m.set("peak", tidy(u.peak));
        }
        dim->set(u.key, std::move(m));
    }
    root.set("utilization", std::move(util));
    root.set("unschedulablePodHours", keyed(s.unschedulablePodHours));
    root.set("fragmentationMeanFreeDevices", keyed(s.fragmentation));
    if (const auto& f = s.gpuShareFragmentation) {
        DataValue share = DataValue::map();
        share.set("meanPercentOfCapacity", tidy(f->meanPercentOfCapacity));
        share.set("peakPercentOfCapacity", tidy(f->peakPercentOfCapacity));
        share.set("meanPercentOfFree", tidy(f->meanPercentOfFree));
        root.set("gpuShareFragmentation", std::move(share));
    }
    if (!s.claimFragmentation.empty()) {
        DataValue claims = DataValue::map();
        for (const ClaimFragmentationSummary& f : s.claimFragmentation) {
            DataValue c = DataValue::map();
            c.set("meanDevices", tidy(f.meanDevices));
            c.set("peakDevices", tidy(f.peakDevices));
            c.set("meanFreeDevices", tidy(f.meanFreeDevices));
            c.set("meanPercentOfFree", tidy(f.meanPercentOfFree));
            claims.set(f.deviceClass, std::move(c));
        }
        root.set("claimFragmentation", std::move(claims));
        if (s.claimFragmentationOnShares)
            root.set("claimFragmentationMeasure", DataValue(std::string("device-shares")));
    }
    root.set("placement", keyed(s.placement));
    DataValue cost = DataValue::map();
    cost.set("totalUsd", tidy(s.costUsd));
    cost.set("byPool", keyed(s.costByPool));
    root.set("cost", std::move(cost));
    if (s.gangs.jobs > 0) {
        DataValue g = DataValue::map();
        g.set("jobs", s.gangs.jobs);
        g.set("started", s.gangs.started);
        DataValue start = distribution(s.gangs.secondsToStart);
        start.set("neverStarted", int64_t(s.gangs.secondsToStart.censored));
        start.set("lowerBounds", lowerBounds(s.gangs.secondsToStart.atLeast));
        g.set("secondsToStart", std::move(start));
        DataValue complete = distribution(s.gangs.secondsToComplete);
        complete.set("notEnded", int64_t(s.gangs.secondsToComplete.censored));
        complete.set("lowerBounds", lowerBounds(s.gangs.secondsToComplete.atLeast));
        g.set("secondsToComplete", std::move(complete));
        g.set("idleDeviceHours", tidy(s.gangs.idleDeviceHours));
        g.set("groupCycles", int64_t(s.gangs.groupCycles));
        root.set("gangs", std::move(g));
    }
    if (s.preemption.preemptions > 0)
        root.set("preemption", preemptionData(s.preemption));
    if (!s.priorityClasses.empty()) {
        DataValue classes = DataValue::list();
        for (const auto& c : s.priorityClasses) {
            DataValue m = DataValue::map();
            m.set("name", c.name);
            if (!c.name.empty())
                m.set("value", int64_t(c.value));
            m.set("waitSeconds", waitDistribution(c.waitSeconds));
            classes.push(std::move(m));
        }
        root.set("priorityClasses", std::move(classes));
    }
    if (!s.speed.empty())
        root.set("speed", speedData(s.speed));
    if (s.failures)
        root.set("failures", failureData(*s.failures));
    return root;
}

std::string formatText(const RunSummary& s)
{
    std::string out;
    out += "scenario " + s.info.scenario + " (seed " + std::to_string(s.info.seed) + "): simulated "
        + formatDuration(s.simulatedTime) + (s.cancelled ? " (cancelled)" : "") + ", "
        + std::to_string(s.events) + " events, " + std::to_string(s.schedulingAttempts)
        + " scheduling attempts\n";
    out += "pods: " + std::to_string(s.podsCreated) + " created, " + std::to_string(s.podsScheduled)
        + " scheduled, " + std::to_string(s.podsSucceeded) + " succeeded, " + std::to_string(s.podsFailed)
        + " failed (" + std::to_string(s.podsEvicted) + " evicted), " + std::to_string(s.podsPendingAtEnd)
        + " pending and " + std::to_string(s.podsRunningAtEnd) + " running at end, peak pending "
        + std::to_string(s.peakPendingPods) + "\n";
    out += "wait: " + waitText(s.waitSeconds) + "\n";
    out += "  max wait " + fixed(s.waitSeconds.maxExact, 1) + "s"
        + (s.waitSeconds.censored > 0
                ? ", longest pending " + fixed(s.waitSeconds.maxCensored, 1) + "s (never scheduled)"
                : std::string())
        + "\n";
    for (const auto& w : s.workloads) {
        out += "  workload " + w.name + ": jobs " + std::to_string(w.jobsSucceeded) + "/"
            + std::to_string(w.jobsArrived) + " succeeded, " + std::to_string(w.jobsFailed) + " failed; wait "
            + waitText(w.waitSeconds) + "\n";
        if (w.jobCompletionSeconds.count > 0)
            out += "    job completion: " + distText(w.jobCompletionSeconds) + "\n";
    }
    out += "utilization (mean / peak):\n";
    for (const auto& u : s.utilization) {
        if (u.dimension == "class")
            out += "  class " + u.key + ": mean allocated " + fixed(u.meanAllocated, 1) + " devices\n";
        else
            out += "  " + u.dimension + " " + u.key + ": " + fixed(100 * u.mean, 1) + "% / "
                + fixed(100 * u.peak, 1) + "% of the devices up (mean " + fixed(u.meanDevicesUp, 1)
                + " up of " + std::to_string(u.devicesInstalled) + " installed)\n";
    }
    if (!s.unschedulablePodHours.empty()) {
        out += "pending pod-hours by reason:\n";
        for (const auto& r : s.unschedulablePodHours)
            out += "  " + fixed(r.value, 2) + "  " + r.key + "\n";
    }
    if (!s.fragmentation.empty()) {
        out += "stranded free devices (mean) by reason:\n";
        for (const auto& r : s.fragmentation)
            out += "  " + fixed(r.value, 2) + "  " + r.key + "\n";
    }
    if (const auto& f = s.gpuShareFragmentation)
        out += "GPU fragmentation (the FGD paper's measure, against the trace's typical pods): mean "
            + fixed(f->meanPercentOfCapacity, 1) + "% of GPU capacity (peak "
            + fixed(f->peakPercentOfCapacity, 1) + "%), " + fixed(f->meanPercentOfFree, 1)
            + "% of the free GPU\n";
    if (!s.claimFragmentation.empty()) {
        out += s.claimFragmentationOnShares
            ? "claim fragmentation (the FGD measure on DRA devices in shares of a device: MIG profiles, "
              "consumable capacity, alignment; against the workload's typical claims):\n"
            : "claim fragmentation (the FGD measure on whole devices, against the workload's typical "
              "claims):\n";
        for (const ClaimFragmentationSummary& f : s.claimFragmentation)
            out += "  " + f.deviceClass + ": mean " + fixed(f.meanDevices, 2) + " devices (peak "
                + fixed(f.peakDevices, 2) + "), " + fixed(f.meanPercentOfFree, 1)
                + "% of the free devices (mean " + fixed(f.meanFreeDevices, 2) + " free)\n";
    }
    if (!s.placement.empty()) {
        out += "placement of multi-device claims:\n";
        for (const auto& r : s.placement)
            out += "  " + r.key + ": " + fixed(r.value, 0) + "\n";
    }
    if (s.gangs.jobs > 0) {
        out += "gangs: " + std::to_string(s.gangs.started) + "/" + std::to_string(s.gangs.jobs)
            + " started (minCount members running), " + std::to_string(s.gangs.groupCycles)
            + " group cycles; start after arrival " + startText(s.gangs.secondsToStart) + "\n";
        out += "  device-hours held idle by partly started gangs: " + fixed(s.gangs.idleDeviceHours, 2)
            + "\n";
        out += "  last member ended after arrival " + completeText(s.gangs.secondsToComplete) + "\n";
    }
    out += preemptionText(s);
    out += speedText(s.speed);
    out += failureText(s.failures);
    out += "cost: $" + fixed(s.costUsd, 2) + "\n";
    return out;
}

} // namespace drasim::sim
