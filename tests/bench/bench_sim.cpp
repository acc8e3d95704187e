// SPDX-License-Identifier: Apache-2.0
// Simulator throughput: the Alibaba 2023 trace on its own nodes, a 5,000-node x 8-GPU cluster
// with a million one-GPU jobs over 30 days, and events/s as the pending queue grows (10k, 100k,
// 1M arrivals on a small cluster). Every run uses the real kube-scheduler model.
#include <cmath>
#include <memory>
#include <sys/resource.h>

#include <benchmark/benchmark.h>

#include "core/scenario/run_scenario.h"
#include "core/scenario/scenario.h"
#include "core/scheduler/cluster.h"
#include "core/sim/scheduler_cluster_port.h"
#include "core/sim/simulator.h"

namespace {

using namespace drasim;

double cpuSeconds()
{
    rusage u {};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec)
        + double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

double peakRssMiB()
{
    rusage u {};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_maxrss) / 1024.0; // Linux reports KiB
}

/// Deterministic stream of one-GPU jobs: Poisson arrivals over `span` seconds, exponential run
/// times with the given mean. xorshift64* so the benchmark needs nothing from the workload module.
class SyntheticSource : public workload::ArrivalSource
{
public:
    SyntheticSource(uint64_t count, double span, double meanDuration, uint64_t seed)
        : m_count(count)
        , m_rate(double(count) / span)
        , m_mean(meanDuration)
        , m_state(seed * 0x9E3779B97F4A7C15ull + 1)
    {
        auto tmpl = std::make_shared<api::PodTemplateSpec>();
        api::PodResourceClaim claim;
        claim.name = "gpu";
        claim.resourceClaimTemplateName = "one-gpu";
        tmpl->spec.resourceClaims.push_back(claim);
        api::Container c;
        c.name = "main";
        c.resources.claims.push_back("gpu");
        tmpl->spec.containers.push_back(c);
        m_template = tmpl;
    }

    std::optional<workload::JobSpec> next() override
    {
        if (m_issued >= m_count)
            return std::nullopt;
        m_time += -std::log(uniform()) / m_rate;
        workload::JobSpec job;
        job.name = "j" + std::to_string(m_issued++);
        job.workload = "synthetic";
        job.arrivalSeconds = m_time;
        workload::TaskSpec task;
        task.name = "main";
        task.pod = m_template;
        task.durationSeconds = m_mean > 0 ? -std::log(uniform()) * m_mean : 60;
        job.tasks.push_back(std::move(task));
        return job;
    }

private:
    double uniform()
    {
        m_state ^= m_state >> 12;
        m_state ^= m_state << 25;
        m_state ^= m_state >> 27;
        uint64_t r = m_state * 0x2545F4914F6CDD1Dull;
        return (double(r >> 11) + 0.5) / 9007199254740992.0;
    }

    uint64_t m_count;
    uint64_t m_issued = 0;
    double m_rate;
    double m_mean;
    uint64_t m_state;
    double m_time = 0;
    std::shared_ptr<const api::PodTemplateSpec> m_template;
};

/// `nodes` nodes with `gpus` devices each of driver gpu.example.com, class "gpu", template
/// default/one-gpu.
api::ObjectSet gpuCluster(int nodes, int gpus, std::vector<sim::NodeSpec>& specs)
{
    api::ObjectSet set;
    api::DeviceClass cls;
    cls.meta.name = "gpu";
    cls.selectors.push_back(api::DeviceSelector { "device.driver == \"gpu.example.com\"", {} });
    set.deviceClasses.push_back(cls);
    api::ResourceClaimTemplate t;
    t.meta.name = "one-gpu";
    t.meta.namespace_ = "default";
    api::DeviceRequest r;
    r.name = "gpu";
    r.exactly = api::DeviceRequestSpec {};
    r.exactly->deviceClassName = "gpu";
    t.spec.requests.push_back(r);
    set.resourceClaimTemplates.push_back(t);
    for (int i = 0; i < nodes; ++i) {
        sim::NodeSpec n;
        char name[32];
        std::snprintf(name, sizeof name, "node-%05d", i);
        n.node.meta.name = name;
        n.node.allocatable["cpu"] = Quantity::fromInt(128);
        n.node.allocatable["memory"] = Quantity::fromInt(int64_t(1) << 40, Quantity::Format::BinarySI);
        n.node.allocatable["pods"] = Quantity::fromInt(110);
        n.node.capacity = n.node.allocatable;
        api::ResourceSlice s;
        s.meta.name = std::string(name) + "-gpu";
        s.driver = "gpu.example.com";
        s.pool.name = name;
        s.nodeName = name;
        for (int g = 0; g < gpus; ++g) {
            api::Device d;
            d.name = "gpu-" + std::to_string(g);
            d.attributes["model"].stringValue = "GPU-X";
            s.devices.push_back(d);
        }
        n.slices.push_back(s);
        set.nodes.push_back(n.node);
        set.resourceSlices.push_back(s);
        specs.push_back(std::move(n));
    }
    return set;
}

/// The scheduling queue a run models: today's (queueing hints, SchedulerPopFromBackoffQ), without
/// the hints, or without either (the queue as drasim modelled it before SchedulerPopFromBackoffQ).
enum class QueueModel { Current, NoHints, NoHintsNoPop };

sim::RunSummary runSynthetic(int nodes, int gpus, uint64_t arrivals, double spanSeconds, double meanDuration,
    sim::SimTime duration, sim::SimTime interval = sim::kHour, QueueModel queue = QueueModel::Current)
{
    std::vector<sim::NodeSpec> specs;
    scheduler::Cluster cluster(gpuCluster(nodes, gpus, specs));
    sim::SchedulerClusterPort port(cluster);
    sim::SimOptions o;
    o.scenarioName = "synthetic";
    o.duration = duration;
    o.metricInterval = interval;
    o.podEvents = false;
    o.queueingHints = queue == QueueModel::Current;
    o.popFromBackoffQ = queue != QueueModel::NoHintsNoPop;
    sim::Simulator s(port, o);
    sim::NodePool pool;
    pool.name = "gpu";
    pool.preloaded = true;
    pool.nodes = std::move(specs);
    s.addNodePool(pool);
    s.setArrivals(std::make_unique<SyntheticSource>(arrivals, spanSeconds, meanDuration, 7));
    return s.run();
}

void report(benchmark::State& state, const sim::RunSummary& s, double seconds)
{
    state.counters["events"] = double(s.events);
    state.counters["attempts"] = double(s.schedulingAttempts);
    // Per CPU second: the shared build machine makes wall time noisy.
    state.counters["events_per_cpu_s"] = double(s.events) / seconds;
    state.counters["peak_pending"] = double(s.peakPendingPods);
    state.counters["scheduled"] = double(s.podsScheduled);
    state.counters["peak_rss_MiB"] = peakRssMiB();
}

void BM_AlibabaDefaultTrace(benchmark::State& state)
{
    const std::string path = DRASIM_SOURCE_DIR "/scenarios/sim/alibaba-default/scenario.yaml";
    for (auto _ : state) {
        Diagnostics diags;
        auto sc = scenario::loadScenario(path, diags);
        if (!sc) {
            state.SkipWithError(diags.formatAll().c_str());
            return;
        }
        scenario::ScenarioRunOptions opts;
        opts.podEvents = false;
        double start = cpuSeconds();
        auto summary = scenario::runScenario(*sc, opts, diags);
        double secs = cpuSeconds() - start;
        if (!summary) {
            state.SkipWithError(diags.formatAll().c_str());
            return;
        }
        report(state, *summary, secs);
    }
}
BENCHMARK(BM_AlibabaDefaultTrace)->Unit(benchmark::kMillisecond)->Iterations(1);

// 5,000 nodes x 8 GPUs, one-GPU jobs at 1,000,000 per 30 days, mean run time 26 h (~94 % load).
// Args: arrivals, simulated days (the full target is 1,000,000 over 30 days).
void BM_Synthetic5000x8(benchmark::State& state)
{
    const uint64_t arrivals = uint64_t(state.range(0));
    const int64_t days = state.range(1);
    for (auto _ : state) {
        double start = cpuSeconds();
        sim::RunSummary s
            = runSynthetic(5000, 8, arrivals, double(days) * 86400, 26.0 * 3600, days * sim::kDay);
        double secs = cpuSeconds() - start;
        report(state, s, secs);
    }
}
BENCHMARK(BM_Synthetic5000x8)
    ->Args({ 100'000, 3 })
    ->Args({ 1'000'000, 30 })
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

// Pending-queue scaling: 50 nodes x 8 GPUs, N arrivals within the first minute, 60 s jobs. The
// queue grows to about N pods; events/s should stay flat as N grows (no O(pending) per event).
// Second argument: the QueueModel (0 today's, 1 without queueing hints, 2 also without
// SchedulerPopFromBackoffQ).
void BM_PendingScaling(benchmark::State& state)
{
    const uint64_t n = uint64_t(state.range(0));
    const auto queue = QueueModel(state.range(1));
    for (auto _ : state) {
        double start = cpuSeconds();
        // 400 GPUs finish 400 pods a minute: N pods need N/400 minutes; run until all are done.
        sim::SimTime horizon = sim::kHour + sim::SimTime(double(n) / 400.0 * 60.0 * 1.1) * sim::kSecond;
        sim::RunSummary s = runSynthetic(50, 8, n, 60.0, 0, horizon, sim::kMinute, queue);
        double secs = cpuSeconds() - start;
        report(state, s, secs);
    }
}
BENCHMARK(BM_PendingScaling)
    ->Args({ 10'000, 0 })
    ->Args({ 10'000, 1 })
    ->Args({ 10'000, 2 })
    ->Args({ 100'000, 0 })
    ->Args({ 1'000'000, 0 })
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

} // namespace

BENCHMARK_MAIN();
