// SPDX-License-Identifier: Apache-2.0
// The simulation's main loop and the wiring of its parts: the job controller creates and ends
// pods, the scheduling loop binds them, the eviction controller and the event injector act on
// the cluster, the sampler records metrics. Each part is a plain class over the shared
// SimContext (sim_context.h); they call each other directly, never through virtual functions.
#include "core/sim/simulator.h"

#include <algorithm>
#include <map>
#include <optional>

#include "core/sim/device_ledger.h"
#include "core/sim/event_injector.h"
#include "core/sim/eviction_controller.h"
#include "core/sim/job_controller.h"
#include "core/sim/sampler.h"
#include "core/sim/scheduling_loop_hints.h"
#include "core/sim/scheduling_loop_permit.h"
#include "core/sim/scheduling_loop_trees.h"
#include "core/sim/sim_context.h"

namespace drasim::sim {

struct Simulator::Impl
{
    /// The stream's next job, built where it waits for its arrival: initialized from the
    /// stream's result, not assigned it (an assignment moved every JobSpec once more, and
    /// destroyed what it was moved from).
    struct NextArrival
    {
        explicit NextArrival(workload::ArrivalSource& source)
            : job(source.next())
        { }
        std::optional<workload::JobSpec> job;
    };

    // Parts refer to parts declared after them; references are only bound at construction.
    SimContext ctx;
    DeviceLedger ledger { ctx.metrics };
    SchedulingLoop loop { ctx, ledger, jobs, evictions };
    JobController jobs { ctx, ledger, loop };
    EvictionController evictions { ctx, jobs };
    EventInjector injector { ctx, jobs, evictions };
    Sampler sampler { ctx, loop, jobs };

    std::unique_ptr<workload::ArrivalSource> arrivals;
    std::optional<NextArrival> nextArrival;
    uint64_t processed = 0;
    /// runUntil(): the last simulated time whose events are processed; -1 runs to the end.
    SimTime stopAfter = -1;

    Impl(ClusterPort& c, SimOptions o)
        : ctx(c, std::move(o))
    { }

    RunInfo announceRun();
    void pullArrival();
    void dispatch(const Event& e);
    void sampleAt(SimTime& lastSample);
    void reportProgress(ProgressSink* progress, double& lastProgress) const;
    RunSummary finish(const RunInfo& info, bool cancelled);
    RunSummary run(ProgressSink* progress, const CancelToken* cancel);
};

RunInfo Simulator::Impl::announceRun()
{
    const SimOptions& o = ctx.options;
    RunInfo info;
    info.scenario = o.scenarioName;
    info.scenarioFile = o.scenarioFile;
    info.scenarioHash = o.scenarioHash;
    info.seed = o.seed;
    info.duration = o.duration;
    info.metricInterval = o.metricInterval;
    info.nodes = ctx.metrics.nodeCount();
    info.devices = ctx.metrics.deviceCount();
    for (auto* r : ctx.recorders)
        r->onRunStarted(info);
    return info;
}

void Simulator::Impl::pullArrival()
{
    nextArrival.reset();
    if (!arrivals)
        return;
    nextArrival.emplace(*arrivals);
    if (!nextArrival->job) {
        nextArrival.reset();
        return;
    }
    SimTime t = std::max(ctx.now, fromSeconds(nextArrival->job->arrivalSeconds));
    if (t > ctx.options.duration) {
        nextArrival.reset();
        return;
    }
    ctx.events.push(t, EventKind::Arrival);
}

/// Hands an event to the part it belongs to (Sample and End are the main loop's).
void Simulator::Impl::dispatch(const Event& e)
{
    switch (e.kind) {
    case EventKind::Arrival:
        if (nextArrival)
            jobs.startJob(std::move(*nextArrival->job)); // pullArrival replaces what is left of it
        pullArrival();
        break;
    case EventKind::PodCreate:
        jobs.podCreateDue(e);
        break;
    case EventKind::PodComplete:
        jobs.podCompleteDue(e);
        break;
    case EventKind::BackoffExpired:
        loop.backoffExpired(e);
        break;
    case EventKind::Injected:
        injector.apply(e);
        break;
    case EventKind::TaintEviction:
        evictions.deviceTaintDue(e);
        break;
    case EventKind::NodeTaintEviction:
        evictions.nodeTaintDue(e);
        break;
    case EventKind::GroupBackoffExpired:
        loop.groupBackoffExpired(e);
        break;
    case EventKind::VictimGone:
        loop.victimGone(e);
        break;
    case EventKind::UnschedulableFlush:
        SchedulingLoop::Hints::flush(loop, e);
        break;
    case EventKind::PermitTimeout:
        SchedulingLoop::Permit::timeout(loop, e);
        break;
    case EventKind::Sample:
    case EventKind::End:
        break;
    }
}

/// A Sample event: the queue is drained first, so the sample sees what the scheduler decided.
void Simulator::Impl::sampleAt(SimTime& lastSample)
{
    loop.run();
    sampler.sample();
    lastSample = ctx.now;
    if (ctx.now + ctx.options.metricInterval <= ctx.options.duration)
        ctx.events.push(ctx.now + ctx.options.metricInterval, EventKind::Sample);
}

/// Every 1024 events: reports progress (at most once per percent of the run).
void Simulator::Impl::reportProgress(ProgressSink* progress, double& lastProgress) const
{
    if ((processed & 1023) != 0 || !progress || ctx.options.duration <= 0)
        return;
    double f = double(ctx.now) / double(ctx.options.duration);
    if (f - lastProgress >= 0.01) {
        progress->progress(f, "simulating");
        lastProgress = f;
    }
}

RunSummary Simulator::Impl::finish(const RunInfo& info, bool cancelled)
{
    ctx.metrics.accrue(ctx.now);
    std::map<uint32_t, std::pair<int64_t, int64_t>> atEnd; // workload → (pending pods, live jobs)
    for (const auto& p : ctx.pods)
        if (p.state != PodState::Free && p.state != PodState::Running) {
            atEnd[ctx.jobs[p.job].workload].first++;
            ctx.metrics.podNeverScheduled(ctx.jobs[p.job].workload, ctx.now - p.created);
            ctx.preemption.podNeverScheduled(ctx.priorityClassOf(p), ctx.now - p.created);
        }
    for (const auto& j : ctx.jobs)
        if (j.live)
            atEnd[j.workload].second++;
    for (const auto& [w, counts] : atEnd)
        ctx.metrics.setAtEnd(w, counts.first, counts.second);
    RunSummary summary = ctx.metrics.summary(ctx.now);
    ctx.preemption.summarize(summary);
    ctx.failures.summarize(summary, ctx.now);
    summary.info = info;
    summary.cancelled = cancelled;
    summary.simulatedTime = ctx.now;
    summary.events = processed;
    summary.schedulingAttempts = loop.attempts();
    summary.gangs = jobs.gangSummary(ctx.now);
    summary.gangs.groupCycles = loop.groupCycles();
    summary.speed = jobs.speedSummary();
    for (const auto& p : ctx.pods) {
        if (p.state == PodState::Free)
            continue;
        if (p.state == PodState::Running)
            summary.podsRunningAtEnd++;
        else
            summary.podsPendingAtEnd++;
    }
    for (auto* r : ctx.recorders)
        r->onRunFinished(summary);
    return summary;
}

/// The main loop: events in (time, insertion) order, each followed by a drain of the scheduling
/// queue; samples at every metric interval and at the end.
RunSummary Simulator::Impl::run(ProgressSink* progress, const CancelToken* cancel)
{
    const RunInfo info = announceRun();
    loop.start();
    injector.schedule();
    if (ctx.options.metricInterval > 0)
        ctx.events.push(0, EventKind::Sample);
    ctx.events.push(ctx.options.duration, EventKind::End);
    pullArrival();

    bool cancelled = false;
    bool stopped = false;
    SimTime lastSample = -1;
    double lastProgress = -1;
    while (!ctx.events.empty()) {
        if (stopAfter >= 0 && ctx.events.top().time > stopAfter) {
            stopped = true; // the state at stopAfter: every event up to it, none after
            break;
        }
        // Before every event, not every 1024: a recorder that has decided the run (the
        // planner's service levels) stops it right after the event that decided it, at the
        // cost of one relaxed load per event.
        if (cancel && cancel->cancelled()) {
            cancelled = true;
            break;
        }
        const Event e = ctx.events.pop();
        ctx.now = e.time;
        ++processed;
        reportProgress(progress, lastProgress);
        ctx.cluster.setTime(toSeconds(ctx.now));
        if (e.kind == EventKind::End)
            break;
        if (e.kind == EventKind::Sample) {
            sampleAt(lastSample);
            continue;
        }
        dispatch(e);
        loop.run();
    }
    if (!cancelled && !stopped) {
        ctx.now = ctx.options.duration;
        if (lastSample != ctx.now && ctx.options.metricInterval > 0)
            sampler.sample();
    }
    return finish(info, cancelled);
}

Simulator::Simulator(ClusterPort& cluster, SimOptions options)
    : m_impl(std::make_unique<Impl>(cluster, std::move(options)))
{ }

Simulator::~Simulator() = default;

void Simulator::addNodePool(const NodePool& pool)
{
    addNodePool(std::make_shared<const NodePool>(pool));
}

void Simulator::addNodePool(std::shared_ptr<const NodePool> pool)
{
    SimContext& ctx = m_impl->ctx;
    if (pool->failures.any())
        ctx.failures.configure();
    ctx.metrics.addPool(pool->name, pool->pricePerHour);
    for (const auto& n : pool->nodes) {
        // Each node's spec shares the pool's ownership (aliasing): nothing is copied.
        std::shared_ptr<const NodeSpec> spec(pool, &n);
        if (pool->preloaded)
            ctx.metrics.addNode(std::move(spec), pool->name);
        else
            ctx.addNode(std::move(spec), pool->name);
    }
}

void Simulator::setArrivals(std::unique_ptr<workload::ArrivalSource> arrivals)
{
    m_impl->arrivals = std::move(arrivals);
}

void Simulator::addEvent(InjectedEvent event)
{
    m_impl->injector.add(std::move(event));
}

void Simulator::addRecorder(RunRecorder* recorder)
{
    m_impl->ctx.recorders.push_back(recorder);
}

RunSummary Simulator::run(ProgressSink* progress, const CancelToken* cancel)
{
    return m_impl->run(progress, cancel);
}

void Simulator::runUntil(SimTime t, const CancelToken* cancel)
{
    m_impl->stopAfter = std::max<SimTime>(0, t);
    m_impl->run(nullptr, cancel);
}

Simulator::PodAt Simulator::podAt(const std::string& key) const
{
    const SimContext& ctx = m_impl->ctx;
    PodAt at;
    auto it = ctx.podByKey.find(key);
    if (it == ctx.podByKey.end())
        return at;
    const SimPod& p = ctx.pods[it->second];
    if (p.state == PodState::Free)
        return at;
    at.state = p.state == PodState::Running ? PodAt::State::Running : PodAt::State::Pending;
    at.node = p.node;
    at.pod = ctx.buildPod(p);
    if (p.state == PodState::Grouped && !ctx.jobs[p.job].group)
        at.group = SchedulingLoop::Trees::status(m_impl->loop, it->second);
    else if (p.state == PodState::Grouped)
        at.group = m_impl->loop.groupStatus(p.job);
    else if (p.state != PodState::Running && ctx.jobs[p.job].permitGang)
        at.group = SchedulingLoop::Permit::status(m_impl->loop, p.job);
    const workload::JobSpec& job = ctx.jobs[p.job].spec;
    if (p.state == PodState::Running && p.workStart >= 0 && job.speed) {
        at.pace = m_impl->jobs.pace().paceOf(it->second);
        at.paceModel = m_impl->jobs.pace().modelOf(it->second);
        at.reference = job.speed->reference;
        at.workSeconds = job.tasks[p.task].durationSeconds;
    }
    return at;
}

} // namespace drasim::sim
