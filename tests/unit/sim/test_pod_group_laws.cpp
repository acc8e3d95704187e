// SPDX-License-Identifier: Apache-2.0
// Laws over random gangs on random clusters, run by the engine with PodGroups on: a gang that has
// no member bound binds none or at least minCount of them in one cycle (never a part), every
// cycle that binds members leaves at least minCount bound, the members of a group with a topology
// key lie in one domain, and no device is ever held twice or beyond a node's devices. With
// workload-aware preemption on (1.37), also: no victim is of the preemptor's priority or above,
// and the victims and nominated nodes of a group with a topology key lie in one domain.
#include <map>
#include <random>
#include <set>

#include <gtest/gtest.h>

#include "core/scheduler/cluster.h"
#include "core/sim/scheduler_cluster_port.h"
#include "core/sim/simulator.h"
#include "tests/unit/sim/forwarding_port.h"
#include "tests/unit/sim/law_port.h"
#include "tests/unit/sim/sim_test_util.h"

using namespace drasim;
using namespace drasim::sim;
using namespace drasim::sim::testing;

namespace {

constexpr int kMaxGpusPerPod = 4;

/// Passes every call to the scheduler's port and checks the laws after each cycle, on what the
/// cluster holds (not on what the engine believes).
class CheckingPort final : public LawPort
{
public:
    using LawPort::LawPort;

    BindOutcome schedule(const api::Pod& pod) override
    {
        note(pod);
        BindOutcome out = m_inner.schedule(pod);
        checkVictims(out.victims, pod.spec.priority.value_or(0), "pod " + pod.meta.name);
        checkCapacity();
        return out;
    }
    GroupOutcome scheduleGroup(const GroupPolicy& group, const std::vector<api::Pod>& pods,
        const std::vector<std::string>& boundMembers) override
    {
        for (const auto& p : pods)
            note(p);
        GroupOutcome out = m_inner.scheduleGroup(group, pods, boundMembers);
        ++cycles;
        checkVictims(out.victims, group.priority, group.key);
        if (!out.victims.empty() && group.topologyAware && !group.topologyKey.empty()) {
            ++confinedPreemptions;
            std::vector<std::string> nodes;
            for (const auto& v : out.victims)
                nodes.push_back(m_cluster.findBoundPod(v)->nodeName);
            for (const auto& m : out.members)
                if (!m.nominatedNode.empty())
                    nodes.push_back(m.nominatedNode);
            checkOneDomain(group, nodes);
        }
        checkMemberVictims(pods, out);
        checkGroup(group, pods, boundMembers, out);
        checkCapacity();
        return out;
    }

    int cycles = 0;
    int memberPreemptions = 0; ///< members that preempted for themselves (1.36 without the gate)
    int gangsFirstBound = 0;
    int confinedPreemptions = 0; ///< preemptions by groups with a topology key

private:
    /// A member that preempted for itself: its victims are below it, the cycle bound nothing,
    /// and a nominated member's victims are on its nominated node.
    void checkMemberVictims(const std::vector<api::Pod>& pods, const GroupOutcome& out)
    {
        for (size_t i = 0; i < pods.size() && i < out.members.size(); ++i) {
            const BindOutcome& m = out.members[i];
            if (m.victims.empty())
                continue;
            ++memberPreemptions;
            EXPECT_FALSE(out.scheduled) << m_seed << " " << pods[i].meta.name;
            checkVictims(m.victims, pods[i].spec.priority.value_or(0), "pod " + pods[i].meta.name);
            for (const auto& v : m.victims) {
                const auto* b = m_cluster.findBoundPod(v);
                if (b && !m.nominatedNode.empty()) {
                    EXPECT_EQ(b->nodeName, m.nominatedNode) << m_seed << " " << v;
                }
            }
        }
    }

    void checkGroup(const GroupPolicy& group, const std::vector<api::Pod>& pods,
        const std::vector<std::string>& boundMembers, const GroupOutcome& out)
    {
        ASSERT_EQ(out.members.size(), pods.size()) << m_seed;
        int32_t placed = 0;
        std::vector<std::string> nodes;
        for (const auto& key : boundMembers)
            nodes.push_back(m_cluster.findBoundPod(key)->nodeName);
        for (size_t i = 0; i < pods.size(); ++i) {
            const auto* bound = m_cluster.findBoundPod(pods[i].meta.namespace_ + "/" + pods[i].meta.name);
            // The cluster holds exactly the members the cycle reports bound.
            EXPECT_EQ(bound != nullptr, out.members[i].scheduled) << m_seed << " " << pods[i].meta.name;
            if (bound) {
                ++placed;
                nodes.push_back(bound->nodeName);
            }
        }
        EXPECT_EQ(out.scheduled, placed > 0) << m_seed;
        if (group.gang && boundMembers.empty()) {
            // The instant a never-bound gang first binds: none, or at least minCount.
            EXPECT_TRUE(placed == 0 || placed >= group.minCount)
                << m_seed << " " << group.key << ": " << placed << " of minCount " << group.minCount;
            gangsFirstBound += placed > 0 ? 1 : 0;
        }
        if (group.gang && placed > 0) {
            EXPECT_GE(int32_t(boundMembers.size()) + placed, group.minCount) << m_seed << " " << group.key;
        }
        if (group.topologyAware && !group.topologyKey.empty())
            checkOneDomain(group, nodes);
    }

    void checkOneDomain(const GroupPolicy& group, const std::vector<std::string>& nodes)
    {
        std::set<std::string> domains;
        for (const auto& n : nodes)
            domains.insert(m_cluster.findNode(n)->meta.labels.at(group.topologyKey));
        EXPECT_LE(domains.size(), 1u) << m_seed << " " << group.key;
    }

    /// No device is allocated to two claims, every allocated device exists on its node, and no
    /// node has more devices allocated than it has.
    void checkCapacity()
    {
        std::set<std::string> held;
        for (const auto* claim : m_cluster.claims()) {
            if (!claim->allocation)
                continue;
            for (const auto& r : claim->allocation->results) {
                EXPECT_TRUE(held.insert(r.pool + "/" + r.device).second)
                    << m_seed << ": " << r.pool << "/" << r.device << " held twice";
            }
        }
        for (const auto& u : m_cluster.deviceUsage())
            EXPECT_LE(u.allocated, u.total) << m_seed << " node " << u.node;
        checkPluginGpus();
    }
};

/// `count` nodes with `gpus` devices each (device-plugin GPUs with `plugin`), labelled with a rack
/// of `perRack` nodes.
NodePool rackedPool(int count, int gpus, int perRack, bool plugin = false)
{
    NodePool pool = plugin ? devicePluginPool(count, gpus) : gpuPool("n", count, gpus);
    for (int i = 0; i < count; ++i) {
        pool.nodes[i].node.meta.name = "n-" + std::to_string(i);
        pool.nodes[i].node.meta.labels["rack"] = "r" + std::to_string(i / perRack);
    }
    return pool;
}

/// `priorities`: the job's priority is one of 0, 100 and 1000 (drawn after everything else, so the
/// jobs are otherwise those of the same seed without), and its pods ask for device-plugin GPUs,
/// which preemption can free (a victim's DRA devices it cannot, KEP-5710's known limitation).
workload::JobSpec randomJob(std::mt19937_64& rng, int index, bool priorities = false)
{
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    workload::JobSpec job = gpuJob("j" + std::to_string(index), pick(0, 60), pick(5, 120), pick(1, 3));
    job.parallelism = pick(1, 6);
    job.completions = job.parallelism * pick(1, 2);
    job.backoffLimit = pick(0, 3);
    const int kind = pick(0, 9);
    if (kind < 7) {
        workload::GroupSpec g;
        g.gang = kind < 6;
        g.minCount = pick(0, job.parallelism); // 0: parallelism
        if (pick(0, 2) == 0)
            g.topologyKey = "rack";
        job.group = g;
    }
    if (priorities) {
        static constexpr int32_t kPriorities[] = { 0, 100, 1000 };
        const int gpus = std::stoi(job.tasks[0].pod->meta.annotations.at("fake/gpus"));
        workload::JobSpec plugin = pluginGpuJob(
            job.name, job.arrivalSeconds, job.tasks[0].durationSeconds, kPriorities[pick(0, 2)], gpus);
        job.tasks = plugin.tasks;
    }
    return job;
}

struct LawCase
{
    SimOptions options;
    NodePool pool;
    std::vector<workload::JobSpec> jobs;
    std::vector<InjectedEvent> events;
};

/// `preemption`: workload-aware preemption on (1.37) and jobs of random priority.
LawCase randomCase(uint64_t seed, bool preemption = false)
{
    std::mt19937_64 rng(seed);
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    LawCase c;
    c.options.scenarioName = "gang-laws";
    c.options.duration = 600 * kSecond;
    c.options.metricInterval = 0;
    c.options.podEvents = false;
    c.options.podGroups = true;
    c.options.topologyAwareGroups = pick(0, 1) == 1;
    c.options.popFromBackoffQ = pick(0, 1) == 1;
    const int nodes = pick(1, 6);
    c.pool = rackedPool(nodes, pick(1, 8), pick(1, 3), preemption);
    const int jobs = pick(1, 8);
    for (int i = 0; i < jobs; ++i)
        c.jobs.push_back(randomJob(rng, i, preemption));
    if (pick(0, 3) == 0) {
        // A node fails and comes back: members are lost after binding and replaced.
        InjectedEvent fail;
        fail.at = pick(1, 200) * kSecond;
        fail.type = InjectedEvent::Type::NodeFailure;
        fail.node = "n-" + std::to_string(pick(0, nodes - 1));
        InjectedEvent back = fail;
        back.at = fail.at + pick(1, 100) * kSecond;
        back.type = InjectedEvent::Type::NodeReturn;
        c.events = { fail, back };
    }
    c.options.workloadAwarePreemption = preemption;
    return c;
}

/// Runs the case's jobs and events on its pool through `port`, which checks the laws as it goes.
void runCase(LawCase c, CheckingPort& port)
{
    Simulator sim(port, c.options);
    sim.addNodePool(c.pool);
    sim.setArrivals(source(std::move(c.jobs)));
    for (auto& e : c.events)
        sim.addEvent(std::move(e));
    sim.run();
}

} // namespace

TEST(PodGroupLaws, GangsBindWholeOrNotAtAllOnRandomClusters)
{
    int cycles = 0;
    int firstBinds = 0;
    for (uint64_t seed = 7'200'000; seed < 7'200'300; ++seed) {
        LawCase c = randomCase(seed);
        scheduler::Cluster cluster(gpuClassAndTemplates(kMaxGpusPerPod));
        CheckingPort port(cluster, "seed " + std::to_string(seed));
        runCase(std::move(c), port);
        cycles += port.cycles;
        firstBinds += port.gangsFirstBound;
        if (::testing::Test::HasFailure())
            break; // one seed's failures are enough to read
    }
    // The laws were exercised, not vacuously true.
    EXPECT_GT(cycles, 1000);
    EXPECT_GT(firstBinds, 300);
}

// The same laws with workload-aware preemption on and jobs at three priorities, topology keys
// honoured in every run: a group under a topology key preempts from 1.37
// (kubernetes/kubernetes#140683), its victims and nominations in one domain, and binds there once
// they are gone; nothing of equal or higher priority is ever a victim.
TEST(PodGroupLaws, PreemptingGangsStayInOneDomainOnRandomClusters)
{
    int cycles = 0;
    int firstBinds = 0;
    int confined = 0;
    int victims = 0;
    for (uint64_t seed = 7'300'000; seed < 7'301'000; ++seed) {
        LawCase c = randomCase(seed, true);
        c.options.topologyAwareGroups = true;
        scheduler::Cluster cluster(gpuClassAndTemplates(kMaxGpusPerPod));
        CheckingPort port(cluster, "seed " + std::to_string(seed));
        runCase(std::move(c), port);
        cycles += port.cycles;
        firstBinds += port.gangsFirstBound;
        confined += port.confinedPreemptions;
        victims += port.victims;
        if (::testing::Test::HasFailure())
            break;
    }
    EXPECT_GT(cycles, 1000);
    EXPECT_GT(firstBinds, 300);
    EXPECT_GT(victims, 100);
    EXPECT_GT(confined, 30);
}

// 1.36 without the WorkloadAwarePreemption gate, jobs at three priorities: members preempt for
// themselves inside group cycles. The gang laws hold as they do without preemption, every
// member's victims are below it and on its nominated node, and a cycle with a preempting member
// binds nothing.
TEST(PodGroupLaws, MembersPreemptingForThemselvesKeepTheGangLawsIn136)
{
    int cycles = 0;
    int firstBinds = 0;
    int preempting = 0;
    scheduler::SchedulerOptions v136;
    v136.kubernetesVersion = api::KubernetesVersion::V1_36;
    for (uint64_t seed = 7'400'000; seed < 7'400'400; ++seed) {
        LawCase c = randomCase(seed, true);
        c.options.workloadAwarePreemption = false;
        scheduler::Cluster cluster(gpuClassAndTemplates(kMaxGpusPerPod), v136);
        CheckingPort port(cluster, "seed " + std::to_string(seed));
        runCase(std::move(c), port);
        cycles += port.cycles;
        firstBinds += port.gangsFirstBound;
        preempting += port.memberPreemptions;
        if (::testing::Test::HasFailure())
            break;
    }
    EXPECT_GT(cycles, 1000);
    EXPECT_GT(firstBinds, 100);
    EXPECT_GT(preempting, 30);
}
