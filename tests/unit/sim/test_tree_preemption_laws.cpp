// SPDX-License-Identifier: Apache-2.0
// Laws of workload-aware preemption by CompositePodGroup hierarchies in a run (Kubernetes 1.37
// alpha, KEP-6012, kubernetes/kubernetes#140634), over random clusters of device-plugin GPUs
// (which preemption can free) loaded with lower-priority gangs and pods, and random hierarchies of
// two or three gang PodGroups under a composite root. Whatever the run, after every cycle:
//  - a hierarchy none of whose pods was bound binds none, or enough that every PodGroup with a
//    pod bound holds its minCount and the root holds its minGroupCount (never a part);
//  - every victim is being deleted and of lower priority than its preemptor (a hierarchy's root,
//    a PodGroup or a pod);
//  - no node holds more GPUs than it has, pods being deleted included;
//  - a hierarchy whose root has a rack key has its bound pods and its nominated members in one
//    rack;
//  - the run's gang figures count every hierarchy as one job, and no device is held idle by a
//    partly started one (nor by a gang PodGroup: both bind whole).
// (`allocate` has its own law: tests/unit/session/test_hierarchy_preemption_laws.cpp.)
#include <algorithm>
#include <map>
#include <random>
#include <set>

#include <gtest/gtest.h>

#include "core/scheduler/cluster.h"
#include "core/scheduler/group_tree.h"
#include "core/sim/simulator.h"
#include "tests/unit/sim/forwarding_port.h"
#include "tests/unit/sim/law_port.h"
#include "tests/unit/sim/sim_test_util.h"

using namespace drasim;
using namespace drasim::sim;
using namespace drasim::sim::testing;

namespace tree_preemption_laws {

/// Passes every call on and checks the laws on what the cluster holds after each cycle.
class TreeCheckingPort final : public LawPort
{
public:
    using LawPort::LawPort;

    BindOutcome schedule(const api::Pod& pod) override
    {
        note(pod);
        BindOutcome out = m_inner.schedule(pod);
        checkVictims(out.victims, pod.spec.priority.value_or(0), "pod " + pod.meta.name);
        checkPluginGpus();
        return out;
    }
    GroupOutcome scheduleGroup(const GroupPolicy& group, const std::vector<api::Pod>& pods,
        const std::vector<std::string>& boundMembers) override
    {
        for (const auto& p : pods)
            note(p);
        GroupOutcome out = m_inner.scheduleGroup(group, pods, boundMembers);
        checkVictims(out.victims, group.priority, group.key);
        checkPluginGpus();
        return out;
    }
    TreeOutcome scheduleGroupTree(const scheduler::GroupTreeNode& root, bool topologyAware) override
    {
        noteTree(root);
        const bool neverBound = boundIn(root) == 0;
        TreeOutcome out = m_inner.scheduleGroupTree(root, topologyAware);
        ++treeCycles;
        checkVictims(out.victims, root.policy.priority, root.policy.key);
        treePreemptions += out.victims.empty() ? 0 : 1;
        const int32_t bound = boundIn(root);
        // What the cycle says it bound is what the cluster holds of the pending pods.
        EXPECT_EQ(out.scheduled, pendingBound(root) > 0) << m_seed << " " << root.policy.key;
        if (neverBound && bound > 0) {
            ++firstBinds;
            EXPECT_TRUE(holds(root)) << m_seed << " " << root.policy.key << ": " << bound << " bound";
        }
        if (!root.policy.topologyKey.empty()) {
            std::set<std::string> nodes;
            nodesOf(root, nodes);
            for (const auto& g : out.groups)
                for (const auto& m : g.members)
                    if (!m.nominatedNode.empty())
                        nodes.insert(m.nominatedNode);
            std::set<std::string> racks;
            for (const auto& n : nodes)
                racks.insert(m_cluster.findNode(n)->meta.labels.at(root.policy.topologyKey));
            EXPECT_LE(racks.size(), 1u) << m_seed << " " << root.policy.key;
            rackedTreeCycles += nodes.empty() ? 0 : 1;
        }
        checkPluginGpus();
        return out;
    }

    int treeCycles = 0;
    int treePreemptions = 0;
    int firstBinds = 0;
    int rackedTreeCycles = 0; ///< cycles of a racked hierarchy with pods bound or nominated

private:
    void noteTree(const scheduler::GroupTreeNode& n)
    {
        for (const auto& p : n.pending)
            note(p);
        for (const auto& c : n.children)
            noteTree(c);
    }

    bool isBound(const std::string& key) const { return m_cluster.findBoundPod(key) != nullptr; }

    /// Pods of the subtree bound now (members bound before included).
    int32_t boundIn(const scheduler::GroupTreeNode& n) const
    {
        int32_t count = 0;
        for (const auto& key : n.boundMembers)
            count += isBound(key) ? 1 : 0;
        for (const auto& p : n.pending)
            count += isBound(p.meta.namespace_ + "/" + p.meta.name) ? 1 : 0;
        for (const auto& c : n.children)
            count += boundIn(c);
        return count;
    }

    /// The nodes of the subtree's bound pods.
    void nodesOf(const scheduler::GroupTreeNode& n, std::set<std::string>& out) const
    {
        auto add = [&](const std::string& key) {
            if (const auto* b = m_cluster.findBoundPod(key))
                out.insert(b->nodeName);
        };
        for (const auto& key : n.boundMembers)
            add(key);
        for (const auto& p : n.pending)
            add(p.meta.namespace_ + "/" + p.meta.name);
        for (const auto& c : n.children)
            nodesOf(c, out);
    }

    /// Pending pods of the subtree (unbound when the cycle began) bound now.
    int32_t pendingBound(const scheduler::GroupTreeNode& n) const
    {
        int32_t count = 0;
        for (const auto& p : n.pending)
            count += isBound(p.meta.namespace_ + "/" + p.meta.name) ? 1 : 0;
        for (const auto& c : n.children)
            count += pendingBound(c);
        return count;
    }

    /// Whether the group's quorum holds on what is bound now, and no PodGroup of it has fewer than
    /// its minCount bound unless it has none.
    bool holds(const scheduler::GroupTreeNode& n) const
    {
        const int32_t need = n.policy.gang ? n.policy.minCount : 1;
        if (!n.composite)
            return boundIn(n) >= need;
        int32_t held = 0;
        for (const auto& c : n.children) {
            const bool h = holds(c);
            if (!h && boundIn(c) > 0)
                return false; // a part of a child bound
            held += h ? 1 : 0;
        }
        return held >= need;
    }
};

api::GroupPolicy gangPolicy(int32_t count, int32_t priority, bool all)
{
    api::GroupPolicy p;
    p.scheduling.gang = true;
    p.scheduling.minCount = count;
    p.priority = priority;
    p.disruptionMode = all ? api::DisruptionMode::All : api::DisruptionMode::Single;
    return p;
}

/// A hierarchy `root` over 2..3 gang PodGroups of 1..3 pods (one Job each), at `priority`; `racked`:
/// the root's topology key is the rack.
std::vector<workload::JobSpec> randomTree(
    std::mt19937_64& rng, const std::string& root, int32_t priority, bool racked)
{
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    auto m = std::make_shared<workload::ManifestGroups>();
    const int leaves = pick(2, 3);
    api::CompositePodGroup c;
    c.meta.name = root;
    c.meta.namespace_ = "default";
    c.policy = gangPolicy(pick(1, leaves), priority, pick(0, 1) == 1);
    if (racked)
        c.policy.topologyKeys = { "rack" };
    m->composites.push_back(c);
    const double at = pick(0, 200);
    const double seconds = pick(100, 600);
    std::vector<workload::JobSpec> jobs;
    for (int k = 0; k < leaves; ++k) {
        const std::string leaf = root + "-" + std::to_string(k);
        const int pods = pick(1, 3);
        api::PodGroup g;
        g.meta.name = leaf;
        g.meta.namespace_ = "default";
        g.parentCompositePodGroupName = root;
        g.policy = gangPolicy(pods, priority, false);
        m->groups.push_back(g);
        workload::JobSpec job = pluginGpuJob(leaf, at, seconds, priority, pick(1, 2));
        job.parallelism = pods;
        job.completions = pods;
        job.backoffLimit = 10;
        auto tmpl = std::make_shared<api::PodTemplateSpec>(*job.tasks[0].pod);
        tmpl->spec.schedulingGroup = leaf;
        job.tasks[0].pod = tmpl;
        jobs.push_back(std::move(job));
    }
    for (auto& j : jobs)
        j.hierarchy = m;
    return jobs;
}

/// Lower-priority load: a gang (disruptionMode all or single) or a plain Job of single pods.
workload::JobSpec randomLoad(std::mt19937_64& rng, int index)
{
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    static constexpr int32_t kPriorities[] = { 0, 100, 500 };
    workload::JobSpec job = pluginGpuJob(
        "l" + std::to_string(index), pick(0, 60), pick(100, 1000), kPriorities[pick(0, 2)], pick(1, 2));
    job.parallelism = pick(1, 4);
    job.completions = job.parallelism;
    job.backoffLimit = 10;
    if (pick(0, 1) == 1) {
        workload::GroupSpec g;
        g.gang = true;
        g.disruptAll = pick(0, 1) == 1;
        job.group = g;
    }
    return job;
}

} // namespace tree_preemption_laws

TEST(TreePreemptionLaws, HierarchiesBindWholeAndEvictOnlyBelowOnRandomClusters)
{
    using namespace tree_preemption_laws;
    static constexpr int32_t kRootPriorities[] = { 100, 500, 1000 };
    int cycles = 0, preemptions = 0, firstBinds = 0, victims = 0, racked = 0, started = 0;
    for (uint64_t seed = 9'100'000; seed < 9'100'300; ++seed) {
        std::mt19937_64 rng(seed);
        auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
        std::vector<workload::JobSpec> jobs;
        for (int i = 0, n = pick(1, 5); i < n; ++i)
            jobs.push_back(randomLoad(rng, i));
        const auto gangLoads = std::count_if(
            jobs.begin(), jobs.end(), [](const workload::JobSpec& j) { return j.group.has_value(); });
        const int trees = pick(1, 2);
        for (int t = 0, n = trees; t < n; ++t)
            for (auto& j :
                randomTree(rng, "h" + std::to_string(t), kRootPriorities[pick(0, 2)], pick(0, 1) == 1))
                jobs.push_back(std::move(j));
        scheduler::SchedulerOptions options;
        options.podGroupUnitsInPreemption = true; // 1.37's DefaultPreemption respects victims' groups
        scheduler::Cluster cluster(api::ObjectSet {}, options);
        TreeCheckingPort port(cluster, "seed " + std::to_string(seed));
        SimOptions o;
        o.scenarioName = "tree-preemption-laws";
        o.duration = 1500 * kSecond;
        o.metricInterval = 0;
        o.podEvents = false;
        o.podGroups = true;
        o.workloadAwarePreemption = true;
        o.topologyAwareGroups = true;
        Simulator sim(port, o);
        NodePool pool = devicePluginPool(pick(2, 6), pick(1, 4));
        const int perRack = pick(1, 3);
        for (size_t i = 0; i < pool.nodes.size(); ++i)
            pool.nodes[i].node.meta.labels["rack"] = "r" + std::to_string(int(i) / perRack);
        sim.addNodePool(pool);
        sim.setArrivals(source(std::move(jobs)));
        const RunSummary summary = sim.run();
        // Each hierarchy is one job (again, only if all its pods ended and one came back).
        EXPECT_GE(summary.gangs.jobs, gangLoads + trees) << seed;
        EXPECT_EQ(summary.gangs.idleDeviceHours, 0) << seed;
        started += int(summary.gangs.started);
        cycles += port.treeCycles;
        preemptions += port.treePreemptions;
        firstBinds += port.firstBinds;
        victims += port.victims;
        racked += port.rackedTreeCycles;
        if (::testing::Test::HasFailure())
            break; // one seed's failures are enough to read
    }
    // The laws were exercised, not vacuously true.
    EXPECT_GT(cycles, 300);
    EXPECT_GT(firstBinds, 200);
    EXPECT_GT(preemptions, 30);
    EXPECT_GT(victims, 100);
    EXPECT_GT(racked, 50);
    EXPECT_GT(started, 300);
}
