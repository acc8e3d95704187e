// SPDX-License-Identifier: Apache-2.0
// Laws of workload-aware preemption for a CompositePodGroup hierarchy (Kubernetes 1.37 alpha,
// KEP-6012, kubernetes/kubernetes#140634), as `drasim allocate` runs it, over random small
// clusters: nodes filled with bound single pods, PodGroups and hierarchies of random priorities and
// disruption modes, and one pending hierarchy (gangs of every pod, minGroupCount every child) at
// priority 1000. Whatever the cluster:
//  - no pod of a unit whose priority is at least the root's is evicted;
//  - the hierarchy is never partly bound, and nothing of it binds in the cycle that preempted;
//  - a unit under a disruptionMode all group (the highest such ancestor) is evicted whole or not
//    at all;
//  - when it preempts, every member is nominated, and the nominated members fit beside the pods
//    that stay (no node's cpu is overcommitted once the victims are gone).
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/api/feature_gates.h"
#include "core/api/object_key.h"
#include "core/scheduler/cluster.h"
#include "core/session/one_shot.h"
#include "core/yamlio/loader.h"

using namespace drasim;

namespace hierarchy_preemption_laws {

constexpr int32_t kRootPriority = 1000;

/// A random bundle and what the laws need to know of it.
struct Bundle
{
    std::string yaml;
    std::map<std::string, int32_t> priorityOf; ///< bound pods: their unit's priority
    std::map<std::string, std::string> unitOf; ///< bound pods in a whole unit: the unit's name
    std::map<std::string, std::string> nodeOf; ///< bound pods
    std::map<std::string, int> cpuOf; ///< nodes
    std::vector<std::string> preemptors; ///< the pending hierarchy's pods
};

std::string priorityClass(int32_t value)
{
    return "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: p"
        + std::to_string(value) + "\nvalue: " + std::to_string(value) + "\n---\n";
}

std::string node(const std::string& name, int cpu)
{
    const std::string res = "    cpu: \"" + std::to_string(cpu) + "\"\n    memory: 32Gi\n    pods: \"110\"\n";
    return "apiVersion: v1\nkind: Node\nmetadata:\n  name: " + name + "\nstatus:\n  capacity:\n" + res
        + "  allocatable:\n" + res + "---\n";
}

std::string pod(const std::string& name, int32_t priority, const std::string& group, const std::string& on)
{
    std::string s = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: " + name
        + "\n  namespace: default\n  uid: uid-" + name
        + "\nspec:\n  containers:\n  - name: main\n    image: registry.k8s.io/pause:3.10\n"
        + "    resources:\n      requests:\n        cpu: \"1\"\n";
    if (!on.empty())
        s += "  nodeName: " + on + "\n";
    if (!group.empty())
        s += "  schedulingGroup:\n    podGroupName: " + group + "\n";
    return s + "  priorityClassName: p" + std::to_string(priority) + "\n---\n";
}

std::string disruption(bool all)
{
    return std::string("  disruptionMode:\n    ") + (all ? "all" : "single") + ": {}\n";
}

/// A PodGroup (a leaf of `parent` when given, in workload `workload`).
std::string podGroup(const std::string& name, int32_t minCount, bool all, int32_t priority,
    const std::string& parent, const std::string& workload)
{
    std::string s = "apiVersion: scheduling.k8s.io/v1beta1\nkind: PodGroup\nmetadata:\n  name: " + name
        + "\n  namespace: default\nspec:\n";
    if (!parent.empty())
        s += "  parentCompositePodGroupName: " + parent + "\n  workloadRef:\n    workloadName: " + workload
            + "\n    templateName: " + name + "\n";
    s += "  schedulingPolicy:\n    gang:\n      minCount: " + std::to_string(minCount) + "\n"
        + disruption(all);
    if (parent.empty())
        s += "  priorityClassName: p" + std::to_string(priority) + "\n";
    return s + "---\n";
}

std::string composite(const std::string& name, int32_t minGroupCount, bool all, int32_t priority)
{
    return "apiVersion: scheduling.k8s.io/v1alpha3\nkind: CompositePodGroup\nmetadata:\n  name: " + name
        + "\n  namespace: default\nspec:\n  workloadRef:\n    workloadName: " + name + "\n    templateName: "
        + name + "\n" + disruption(all) + "  schedulingPolicy:\n    gang:\n      minGroupCount: "
        + std::to_string(minGroupCount) + "\n  priorityClassName: p" + std::to_string(priority) + "\n---\n";
}

class Generator
{
public:
    explicit Generator(uint32_t seed)
        : m_rng(seed)
    { }

    Bundle make()
    {
        for (int32_t p : { 100, 500, 1000, 2000 })
            m_b.yaml += priorityClass(p);
        const int nodes = pick(1, 4);
        for (int i = 0; i < nodes; ++i) {
            const std::string name = "n" + std::to_string(i);
            m_free[name] = m_b.cpuOf[name] = pick(2, 4);
            m_b.yaml += node(name, m_b.cpuOf[name]);
        }
        for (int u = 0, units = pick(1, 6); u < units; ++u) {
            const int kind = pick(0, 2);
            if (kind == 0)
                solo("s" + std::to_string(u));
            else if (kind == 1)
                group("g" + std::to_string(u));
            else
                hierarchy("h" + std::to_string(u));
        }
        preemptor();
        return m_b;
    }

private:
    int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(m_rng); }
    int32_t priority() { return std::vector<int32_t> { 100, 500, 1000, 2000 }[size_t(pick(0, 3))]; }
    /// A node with a free cpu, "" when the cluster is full.
    std::string room()
    {
        std::vector<std::string> free;
        for (const auto& [name, cpu] : m_free)
            if (cpu > 0)
                free.push_back(name);
        if (free.empty())
            return {};
        const std::string on = free[size_t(pick(0, int(free.size()) - 1))];
        --m_free[on];
        return on;
    }
    /// Bound pods of one unit (`unit` "" for pods evicted one by one).
    void bound(const std::string& name, int32_t prio, const std::string& group, const std::string& unit)
    {
        const std::string on = room();
        if (on.empty())
            return;
        m_b.yaml += pod(name, prio, group, on);
        m_b.priorityOf["default/" + name] = prio;
        m_b.nodeOf["default/" + name] = on;
        if (!unit.empty())
            m_b.unitOf["default/" + name] = unit;
    }
    void solo(const std::string& name) { bound(name, priority(), "", ""); }
    void group(const std::string& name)
    {
        const int32_t prio = priority();
        const bool all = pick(0, 1) == 1;
        const int n = pick(1, 3);
        m_b.yaml += podGroup(name, 1, all, prio, "", "");
        for (int i = 0; i < n; ++i)
            bound(name + "-" + std::to_string(i), prio, name, all ? name : "");
    }
    void hierarchy(const std::string& name)
    {
        const int32_t prio = priority();
        const bool rootAll = pick(0, 1) == 1;
        const int leaves = pick(1, 2);
        m_b.yaml += composite(name, 1, rootAll, prio);
        for (int l = 0; l < leaves; ++l) {
            const std::string leaf = name + "l" + std::to_string(l);
            const bool leafAll = pick(0, 1) == 1;
            m_b.yaml += podGroup(leaf, 1, leafAll, prio, name, name);
            const std::string unit = rootAll ? name : leafAll ? leaf : "";
            for (int i = 0, n = pick(1, 2); i < n; ++i)
                bound(leaf + "-" + std::to_string(i), prio, leaf, unit);
        }
    }
    void preemptor()
    {
        const int leaves = pick(1, 2);
        m_b.yaml += composite("hi", leaves, false, kRootPriority);
        for (int l = 0; l < leaves; ++l) {
            const std::string leaf = "hil" + std::to_string(l);
            const int n = pick(1, 3);
            m_b.yaml += podGroup(leaf, n, false, kRootPriority, "hi", "hi");
            for (int i = 0; i < n; ++i) {
                const std::string name = leaf + "-" + std::to_string(i);
                m_b.yaml += pod(name, kRootPriority, leaf, "");
                m_b.preemptors.push_back("default/" + name);
            }
        }
    }

    std::mt19937 m_rng;
    Bundle m_b;
    std::map<std::string, int> m_free;
};

struct Outcome
{
    std::map<std::string, api::Pod> pods; ///< by key, as scheduled
    std::set<std::string> victims;
};

Outcome allocate(const Bundle& b)
{
    api::FeatureGates gates;
    EXPECT_TRUE(
        gates.parse("GenericWorkload=true,TopologyAwareWorkloadScheduling=true,CompositePodGroup=true")
            .empty());
    yamlio::LoadOptions options;
    options.gates = gates;
    auto loaded = yamlio::loadText(b.yaml, "random.yaml", options);
    EXPECT_FALSE(loaded.diagnostics.hasErrors()) << loaded.diagnostics.formatAll();
    const api::ObjectSet objects = loaded.objects;
    scheduler::Cluster cluster(std::move(loaded.objects), session::clusterOptionsFor(gates, {}));
    std::vector<api::PodGroup> groups;
    const scheduler::BatchResult batch = session::scheduleManifests(cluster, objects, gates, groups);
    Outcome r;
    for (const auto& p : batch.pods) {
        const std::string key = api::objectKey(p.meta);
        r.pods[key] = p;
        for (const auto& c : p.conditions)
            if (c.type == "DisruptionTarget" && c.status == "True")
                r.victims.insert(key);
    }
    return r;
}

TEST(HierarchyPreemptionLaws, OverRandomClusters)
{
    int preempted = 0, bound = 0;
    for (uint32_t seed = 1; seed <= 300; ++seed) {
        const Bundle b = Generator(seed).make();
        const Outcome r = allocate(b);
        int placed = 0;
        for (const auto& key : b.preemptors)
            placed += r.pods.at(key).spec.nodeName.empty() ? 0 : 1;
        ASSERT_TRUE(placed == 0 || placed == int(b.preemptors.size())) << "seed " << seed << ": partly bound";
        bound += placed > 0 ? 1 : 0;
        if (r.victims.empty())
            continue;
        ++preempted;
        ASSERT_EQ(placed, 0) << "seed " << seed << ": bound in the cycle that preempted";
        std::map<std::string, int> used; // cpu of each node once the victims are gone
        for (const auto& [key, on] : b.nodeOf) {
            if (r.victims.count(key)) {
                ASSERT_LT(b.priorityOf.at(key), kRootPriority) << "seed " << seed << ": evicted " << key;
                continue;
            }
            ++used[on];
            auto unit = b.unitOf.find(key);
            if (unit == b.unitOf.end())
                continue;
            for (const auto& [other, u] : b.unitOf) {
                ASSERT_FALSE(u == unit->second && r.victims.count(other))
                    << "seed " << seed << ": unit " << u << " split (" << key << " stays, " << other
                    << " goes)";
            }
        }
        for (const auto& key : b.preemptors) {
            const std::string& nominated = r.pods.at(key).nominatedNodeName;
            ASSERT_FALSE(nominated.empty()) << "seed " << seed << ": " << key << " not nominated";
            ++used[nominated];
        }
        for (const auto& [on, cpu] : used)
            ASSERT_LE(cpu, b.cpuOf.at(on)) << "seed " << seed << ": node " << on << " overcommitted";
    }
    // The random clusters exercise both outcomes.
    EXPECT_GT(preempted, 20);
    EXPECT_GT(bound, 20);
}

} // namespace hierarchy_preemption_laws
