// SPDX-License-Identifier: Apache-2.0
// A PodGroup cycle that an equal group already failed on the identical cluster state is answered
// from that failure instead of being run again (GroupFailureMemo). The law: a run gives the same
// summary and the same pod events, messages included, whether the engine may reuse failures (the
// scheduler's port promises when the cluster is unchanged) or never can (a port that promises
// nothing), over random clusters of alike gangs with priorities, preemption, topology keys and
// node failures. And the reuse happens: the cycles the scheduler ran are fewer than those counted.
#include <random>

#include <gtest/gtest.h>

#include "core/scheduler/cluster.h"
#include "core/sim/scheduler_cluster_port.h"
#include "core/sim/scheduling_signature.h"
#include "core/sim/simulator.h"
#include "tests/unit/sim/forwarding_port.h"
#include "tests/unit/sim/sim_test_util.h"

using namespace drasim;
using namespace drasim::sim;
using namespace drasim::sim::testing;

namespace {

constexpr int kReuseMaxGpus = 4;

/// Counts the group cycles the scheduler runs; `promise` decides whether the scheduler port's
/// state generation is passed on (reuse possible) or the base class's is kept (never).
class CountingPort final : public ForwardingPort
{
public:
    CountingPort(scheduler::Cluster& cluster, bool promise)
        : ForwardingPort(cluster)
        , m_promise(promise)
    { }

    GroupOutcome scheduleGroup(const GroupPolicy& group, const std::vector<api::Pod>& pods,
        const std::vector<std::string>& boundMembers) override
    {
        ++cyclesRun;
        return m_inner.scheduleGroup(group, pods, boundMembers);
    }
    uint64_t stateGeneration() const override
    {
        return m_promise ? m_inner.stateGeneration() : ClusterPort::stateGeneration();
    }

    uint64_t cyclesRun = 0;

private:
    bool m_promise;
};

/// Every pod event, messages included, and the summary: what a run shows.
struct EverythingLog : RunRecorder
{
    std::string text;
    void onPodEvent(const PodEvent& e) override
    {
        text += formatDuration(e.time) + " " + podEventTypeName(e.type) + " " + e.pod + " @" + e.node + ": "
            + e.message + "\n";
    }
};

/// One of a few gang shapes, so that many jobs share a group signature.
workload::JobSpec shapedJob(std::mt19937_64& rng, int index, int shape)
{
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    const int gpus = 1 + shape % kReuseMaxGpus;
    const int32_t priority = shape == 2 ? 1000 : 10 * (shape % 2);
    workload::JobSpec job = gpuJob("j" + std::to_string(index), pick(0, 120), pick(30, 300), gpus, priority);
    job.parallelism = 2 + shape % 3;
    job.completions = job.parallelism;
    job.backoffLimit = 3;
    if (shape != 3) { // shape 3: plain pods, the victims preemption may find
        workload::GroupSpec g;
        g.gang = true;
        g.disruptAll = shape == 1;
        if (shape == 4)
            g.topologyKey = "rack";
        job.group = g;
    }
    return job;
}

struct ReuseCase
{
    SimOptions options;
    NodePool pool;
    std::vector<workload::JobSpec> jobs;
    std::vector<InjectedEvent> events;
};

ReuseCase reuseCase(uint64_t seed)
{
    std::mt19937_64 rng(seed);
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    ReuseCase c;
    c.options.scenarioName = "group-reuse";
    c.options.duration = 900 * kSecond;
    c.options.metricInterval = 300 * kSecond;
    c.options.podGroups = true;
    c.options.topologyAwareGroups = pick(0, 1) == 1;
    c.options.workloadAwarePreemption = pick(0, 2) > 0;
    c.options.popFromBackoffQ = pick(0, 1) == 1;
    const int nodes = pick(2, 6);
    const int perRack = pick(1, 3);
    c.pool = gpuPool("n", nodes, pick(2, 8));
    for (int i = 0; i < nodes; ++i)
        c.pool.nodes[i].node.meta.labels["rack"] = "r" + std::to_string(i / perRack);
    const int jobs = pick(4, 14);
    for (int i = 0; i < jobs; ++i)
        c.jobs.push_back(shapedJob(rng, i, pick(0, 4)));
    if (pick(0, 2) == 0) {
        InjectedEvent fail;
        fail.at = pick(1, 400) * kSecond;
        fail.type = InjectedEvent::Type::NodeFailure;
        fail.node = "n-" + std::to_string(pick(0, nodes - 1));
        InjectedEvent back = fail;
        back.at = fail.at + pick(1, 200) * kSecond;
        back.type = InjectedEvent::Type::NodeReturn;
        c.events = { fail, back };
    }
    return c;
}

/// The first line where two texts differ, in both ("" when they agree).
std::string firstDifference(const std::string& a, const std::string& b)
{
    size_t start = 0;
    while (true) {
        const size_t ea = a.find('\n', start);
        const size_t eb = b.find('\n', start);
        const std::string la = a.substr(start, ea == std::string::npos ? std::string::npos : ea - start);
        const std::string lb = b.substr(start, eb == std::string::npos ? std::string::npos : eb - start);
        if (la != lb)
            return "reused: " + la + "\nrun:    " + lb;
        if (ea == std::string::npos || eb == std::string::npos)
            return ea == eb ? std::string() : "one text is longer";
        start = ea + 1;
    }
}

struct ReuseRun
{
    std::string shown;
    uint64_t cyclesCounted = 0;
    uint64_t cyclesRun = 0;
};

ReuseRun runReuseCase(uint64_t seed, bool promise)
{
    ReuseCase c = reuseCase(seed);
    scheduler::Cluster cluster(gpuClassAndTemplates(kReuseMaxGpus));
    CountingPort port(cluster, promise);
    Simulator sim(port, c.options);
    sim.addNodePool(c.pool);
    sim.setArrivals(source(std::move(c.jobs)));
    for (auto& e : c.events)
        sim.addEvent(std::move(e));
    EverythingLog log;
    sim.addRecorder(&log);
    const RunSummary summary = sim.run();
    return ReuseRun { log.text + formatText(summary), summary.gangs.groupCycles, port.cyclesRun };
}

GroupPolicy reusePolicy(const std::string& key)
{
    GroupPolicy g;
    g.key = key;
    g.gang = true;
    g.minCount = 2;
    return g;
}

api::Pod reusePod(const std::string& name)
{
    api::Pod p;
    p.meta.name = name;
    p.meta.namespace_ = "default";
    p.meta.labels["job-name"] = name;
    api::PodResourceClaim claim;
    claim.name = "gpu";
    claim.resourceClaimTemplateName = "gpu-2";
    p.spec.resourceClaims.push_back(claim);
    return p;
}

} // namespace

TEST(GroupFailureReuse, ARunShowsTheSameWhetherFailuresAreReusedOrNot)
{
    uint64_t counted = 0;
    uint64_t run = 0;
    for (uint64_t seed = 9'100'000; seed < 9'100'150; ++seed) {
        const ReuseRun reused = runReuseCase(seed, true);
        const ReuseRun plain = runReuseCase(seed, false);
        ASSERT_EQ(firstDifference(reused.shown, plain.shown), "") << "seed " << seed;
        ASSERT_EQ(reused.cyclesCounted, plain.cyclesCounted) << "seed " << seed;
        EXPECT_EQ(plain.cyclesRun, plain.cyclesCounted) << "seed " << seed;
        counted += reused.cyclesCounted;
        run += reused.cyclesRun;
    }
    // The law was exercised: many cycles, and a good share of them answered from a failure.
    RecordProperty("groupCyclesCounted", std::to_string(counted));
    RecordProperty("groupCyclesRun", std::to_string(run));
    EXPECT_GT(counted, 2000u);
    EXPECT_GT(counted - run, counted / 20) << run << " of " << counted << " cycles run";
}

TEST(GroupFailureReuse, TheSignatureIgnoresNamesAndLabelsButNotWhatDecidesPlacement)
{
    const std::vector<api::Pod> a { reusePod("a-0"), reusePod("a-1") };
    const std::vector<api::Pod> b { reusePod("b-0"), reusePod("b-1") };
    EXPECT_EQ(groupSchedulingSignature(reusePolicy("default/a"), a),
        groupSchedulingSignature(reusePolicy("default/b"), b));

    std::vector<api::Pod> preferring = b;
    api::PreferredSchedulingTerm term;
    term.weight = 5;
    term.preference.matchExpressions.push_back(api::NodeSelectorRequirement { "rack", "In", { "r1" } });
    preferring[1].spec.nodeAffinity.emplace();
    preferring[1].spec.nodeAffinity->preferred.push_back(term);
    EXPECT_NE(groupSchedulingSignature(reusePolicy("default/a"), a),
        groupSchedulingSignature(reusePolicy("default/b"), preferring));

    GroupPolicy confined = reusePolicy("default/b");
    confined.topologyKey = "rack";
    EXPECT_NE(groupSchedulingSignature(reusePolicy("default/a"), a), groupSchedulingSignature(confined, b));
    GroupPolicy larger = reusePolicy("default/b");
    larger.minCount = 3;
    EXPECT_NE(groupSchedulingSignature(reusePolicy("default/a"), a), groupSchedulingSignature(larger, b));
    EXPECT_NE(groupSchedulingSignature(reusePolicy("default/a"), a),
        groupSchedulingSignature(reusePolicy("default/b"), { b[0] }));
}
