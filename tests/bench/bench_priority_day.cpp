// SPDX-License-Identifier: Apache-2.0
// A day of a 5,000-node cluster (8 device-plugin GPUs each) that fills up by the afternoon:
// 200,000 one-GPU jobs arrive over 24 h, each runs 8 h on average, so the queue grows once the
// 40,000 GPUs are taken. WithPriorities gives 5 % of the arrivals priority 1,000,000 (they preempt
// the others: device-plugin GPUs are freed by preemption, DRA devices are not in Kubernetes 1.37);
// WithoutPriorities runs the same arrivals, every pod of priority 0.
//
//   build-*/tests/bench/bench_priority_day
//
// Target (issue: priorities and preemption): the run with priorities within 1.5x the time of the
// run without.
#include <cmath>
#include <memory>
#include <sys/resource.h>

#include <benchmark/benchmark.h>

#include "core/scheduler/cluster.h"
#include "core/sim/scheduler_cluster_port.h"
#include "core/sim/simulator.h"

namespace {

using namespace drasim;

constexpr int kNodes = 5000;
constexpr int kGpusPerNode = 8;
constexpr uint64_t kArrivals = 200'000;
constexpr double kMeanRunSeconds = 8 * 3600.0;
constexpr int32_t kHighPriority = 1'000'000;

double cpuSeconds()
{
    rusage u {};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec)
        + double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

/// One pod asking for one nvidia.com/gpu (a device-plugin resource), of the given priority.
std::shared_ptr<const api::PodTemplateSpec> gpuTemplate(int32_t priority)
{
    auto tmpl = std::make_shared<api::PodTemplateSpec>();
    api::Container c;
    c.name = "main";
    c.resources.requests["nvidia.com/gpu"] = Quantity::fromInt(1);
    c.resources.limits["nvidia.com/gpu"] = Quantity::fromInt(1);
    tmpl->spec.containers.push_back(c);
    if (priority != 0)
        tmpl->spec.priority = priority;
    return tmpl;
}

/// Poisson arrivals over one day with exponential run times; every 20th job (5 %) is of high
/// priority when `priorities` is set. The stream is the same with and without priorities.
class DaySource : public workload::ArrivalSource
{
public:
    explicit DaySource(bool priorities)
        : m_low(gpuTemplate(0))
        , m_high(priorities ? gpuTemplate(kHighPriority) : m_low)
        , m_priorities(priorities)
    { }

    std::optional<workload::JobSpec> next() override
    {
        if (m_issued >= kArrivals)
            return std::nullopt;
        m_time += -std::log(uniform()) / (double(kArrivals) / 86400.0);
        const bool high = m_issued % 20 == 19;
        workload::JobSpec job;
        job.name = "j" + std::to_string(m_issued++);
        job.workload = high ? "inference" : "training";
        job.arrivalSeconds = m_time;
        workload::TaskSpec task;
        task.name = "main";
        task.pod = high ? m_high : m_low;
        task.priority = high && m_priorities ? kHighPriority : 0;
        task.durationSeconds = -std::log(uniform()) * kMeanRunSeconds;
        job.tasks.push_back(std::move(task));
        return job;
    }

private:
    double uniform() // xorshift64*: deterministic, needs nothing from the workload module
    {
        m_state ^= m_state >> 12;
        m_state ^= m_state << 25;
        m_state ^= m_state >> 27;
        const uint64_t r = m_state * 0x2545F4914F6CDD1Dull;
        return (double(r >> 11) + 0.5) / 9007199254740992.0;
    }

    std::shared_ptr<const api::PodTemplateSpec> m_low, m_high;
    bool m_priorities;
    uint64_t m_issued = 0;
    uint64_t m_state = 7 * 0x9E3779B97F4A7C15ull + 1;
    double m_time = 0;
};

std::vector<sim::NodeSpec> gpuNodes(api::ObjectSet& set)
{
    std::vector<sim::NodeSpec> specs;
    for (int i = 0; i < kNodes; ++i) {
        sim::NodeSpec n;
        char name[32];
        std::snprintf(name, sizeof name, "node-%05d", i);
        n.node.meta.name = name;
        n.node.allocatable["cpu"] = Quantity::fromInt(128);
        n.node.allocatable["memory"] = Quantity::fromInt(int64_t(1) << 40, Quantity::Format::BinarySI);
        n.node.allocatable["pods"] = Quantity::fromInt(110);
        n.node.allocatable["nvidia.com/gpu"] = Quantity::fromInt(kGpusPerNode);
        n.node.capacity = n.node.allocatable;
        set.nodes.push_back(n.node);
        specs.push_back(std::move(n));
    }
    return specs;
}

sim::RunSummary runDay(bool priorities)
{
    api::ObjectSet set;
    std::vector<sim::NodeSpec> specs = gpuNodes(set);
    scheduler::Cluster cluster(std::move(set));
    sim::SchedulerClusterPort port(cluster);
    sim::SimOptions o;
    o.scenarioName = priorities ? "day-with-priorities" : "day-without-priorities";
    o.duration = sim::kDay;
    o.metricInterval = sim::kHour;
    o.podEvents = false;
    sim::Simulator s(port, o);
    sim::NodePool pool;
    pool.name = "gpu";
    pool.preloaded = true;
    pool.nodes = std::move(specs);
    s.addNodePool(pool);
    s.setArrivals(std::make_unique<DaySource>(priorities));
    return s.run();
}

void day(benchmark::State& state, bool priorities)
{
    for (auto _ : state) {
        const double start = cpuSeconds();
        const sim::RunSummary s = runDay(priorities);
        const double secs = cpuSeconds() - start;
        // CPU seconds: the shared build machine makes wall time noisy.
        state.counters["cpu_s"] = secs;
        state.counters["events"] = double(s.events);
        state.counters["attempts"] = double(s.schedulingAttempts);
        state.counters["scheduled"] = double(s.podsScheduled);
        state.counters["peak_pending"] = double(s.peakPendingPods);
        state.counters["preemptions"] = double(s.preemption.preemptions);
        state.counters["victims"] = double(s.preemption.victims);
    }
}

void BM_DayWithoutPriorities(benchmark::State& state)
{
    day(state, false);
}
BENCHMARK(BM_DayWithoutPriorities)->Unit(benchmark::kMillisecond)->Iterations(1);

void BM_DayWithPriorities(benchmark::State& state)
{
    day(state, true);
}
BENCHMARK(BM_DayWithPriorities)->Unit(benchmark::kMillisecond)->Iterations(1);

} // namespace

BENCHMARK_MAIN();
