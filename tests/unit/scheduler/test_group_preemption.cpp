// SPDX-License-Identifier: Apache-2.0
// Workload-aware preemption (KEP-5710): a PodGroup that cannot be placed evicts lower-priority
// units cluster-wide. The cases follow the KEP's algorithm (one dry run without every
// lower-priority unit, then reprieve most important first) and its disruptionMode rules; a law
// over random clusters checks what any answer must satisfy.
#include <algorithm>
#include <map>
#include <memory>
#include <random>

#include <gtest/gtest.h>

#include "core/scheduler/cluster.h"
#include "core/scheduler/pod_group.h"
#include "tests/unit/allocator/fixtures.h"
#include "tests/unit/scheduler/priority_pod.h"

using namespace drasim;
using namespace drasim::testing;
using scheduler::Cluster;
using scheduler::PodGroupPolicy;

namespace {

api::ObjectSet unitNodes(int count, const std::string& cpu = "4")
{
    api::ObjectSet o;
    for (int i = 0; i < count; ++i)
        o.nodes.push_back(node(numbered("n", i), {}, cpu));
    return o;
}

/// Three full nodes, a, b and c at priority 100 on n0, n1 and n2; only n0 and n1 are in pool x.
api::ObjectSet poolXFullOfLowPods()
{
    auto o = unitNodes(3);
    o.nodes[0].meta.labels["pool"] = "x";
    o.nodes[1].meta.labels["pool"] = "x";
    o.pods.push_back(priorityPod("a", "4", 100, "n0"));
    o.pods.push_back(priorityPod("b", "4", 100, "n1"));
    o.pods.push_back(priorityPod("c", "4", 100, "n2"));
    return o;
}

PodGroupPolicy wapGang(const std::string& name, int32_t minCount, int32_t priority)
{
    PodGroupPolicy g { "default/" + name, true, minCount, "" };
    g.workloadAwarePreemption = true;
    g.priority = priority;
    return g;
}

std::vector<api::Pod> wapMembers(const std::string& group, int n, const std::string& cpu, int32_t priority)
{
    std::vector<api::Pod> out;
    for (int i = 0; i < n; ++i)
        out.push_back(priorityPod(group + "-" + std::to_string(i), cpu, priority, "", group));
    return out;
}

bool isTerminating(const Cluster& c, const std::string& key)
{
    const auto* b = c.findBoundPod(key);
    return b && b->terminating;
}

} // namespace

// KEP-5710 step 2: evicting every lower-priority unit frees one slot of the two the gang needs.
TEST(GroupPreemption, EvictsNothingWhenTheGroupWouldStillNotFit)
{
    auto o = unitNodes(2);
    o.pods.push_back(priorityPod("a", "4", 100, "n0"));
    o.pods.push_back(priorityPod("b", "4", 2000, "n1"));
    Cluster c(std::move(o));
    auto r = c.scheduleGroup(wapGang("g", 2, 1000), wapMembers("g", 2, "4", 1000), {}, false);
    EXPECT_FALSE(r.scheduled);
    ASSERT_TRUE(r.preemption);
    EXPECT_TRUE(r.preemption->victims.empty());
    // The dry run's own status, behind DefaultPreemption's lead (podgrouppreemption.go returns
    // podGroupSchedulingFunc's status when the group does not fit even without its victims).
    EXPECT_EQ(r.preemption->message,
        "pod group preemption: minCount (2) cannot be satisfied: 1 scheduled, 0 remaining");
    EXPECT_FALSE(isTerminating(c, "default/a"));
    for (const auto& m : r.members)
        EXPECT_FALSE(m.preemption);
}

// The reprieve keeps what the group does not need: c stands on a node the group cannot use.
TEST(GroupPreemption, ReprievesUnitsTheGroupDoesNotNeedAndNominatesItsMembers)
{
    auto o = poolXFullOfLowPods();
    Cluster c(std::move(o));
    auto pods = wapMembers("g", 2, "4", 1000);
    for (auto& p : pods)
        p.spec.nodeSelector["pool"] = "x";
    auto r = c.scheduleGroup(wapGang("g", 2, 1000), pods, {}, false);
    EXPECT_FALSE(r.scheduled);
    ASSERT_TRUE(r.preemption);
    EXPECT_EQ(r.preemption->victims, (std::vector<std::string> { "default/a", "default/b" }));
    EXPECT_EQ(
        r.preemption->message, "pod group preemption: found a placement for podgroup, preempting 2 victims");
    ASSERT_EQ(r.members.size(), 2u);
    ASSERT_TRUE(r.members[0].preemption && r.members[1].preemption);
    EXPECT_EQ(r.members[0].preemption->nominatedNode, "n0");
    EXPECT_EQ(r.members[1].preemption->nominatedNode, "n1");
    EXPECT_TRUE(isTerminating(c, "default/a"));
    EXPECT_FALSE(isTerminating(c, "default/c"));

    // While the victims terminate the group waits and preempts nothing more.
    auto again = c.scheduleGroup(wapGang("g", 2, 1000), pods, {}, false);
    EXPECT_FALSE(again.scheduled);
    ASSERT_TRUE(again.preemption);
    EXPECT_EQ(again.preemption->message, "pod group preemption: ongoing preemption on nominated nodes");
    EXPECT_FALSE(isTerminating(c, "default/c"));

    // Once they are gone the members bind where they were nominated.
    c.podFinished("default/a");
    c.podFinished("default/b");
    auto done = c.scheduleGroup(wapGang("g", 2, 1000), pods, {}, false);
    ASSERT_TRUE(done.scheduled);
    EXPECT_EQ(done.members[0].nodeName, "n0");
    EXPECT_EQ(done.members[1].nodeName, "n1");
}

// Every unit reprieved: the cycle put the small member on the emptier n0 and left no whole node
// for the large one; the dry run, with l gone, puts the small member on n1 and the large one on
// n0, and l then fits back beside the small member. Upstream actuates with no victim and still
// nominates the members to the dry run's nodes (podgrouppreemption.go builds the nominations from
// every valid assignment), so the next cycle finds them there.
TEST(GroupPreemption, NominatesTheMembersWhenEveryUnitIsReprieved)
{
    api::ObjectSet o;
    o.nodes.push_back(node("n0", {}, "4"));
    o.nodes.push_back(node("n1", {}, "5"));
    o.pods.push_back(priorityPod("l", "2", 100, "n1"));
    Cluster c(std::move(o));
    const std::vector<api::Pod> pods { priorityPod("g-small", "1", 1000, "", "g"),
        priorityPod("g-large", "4", 1000, "", "g") };
    auto r = c.scheduleGroup(wapGang("g", 2, 1000), pods, {}, false);
    EXPECT_FALSE(r.scheduled);
    ASSERT_TRUE(r.preemption);
    EXPECT_TRUE(r.preemption->victims.empty());
    EXPECT_EQ(
        r.preemption->message, "pod group preemption: found a placement for podgroup, preempting 0 victims");
    EXPECT_FALSE(isTerminating(c, "default/l"));
    ASSERT_EQ(r.members.size(), 2u);
    ASSERT_TRUE(r.members[0].preemption && r.members[1].preemption);
    EXPECT_EQ(r.members[0].preemption->nominatedNode, "n1");
    EXPECT_EQ(r.members[1].preemption->nominatedNode, "n0");

    // Nothing to wait for: the next cycle binds the members where they were nominated.
    auto next = c.scheduleGroup(wapGang("g", 2, 1000), pods, {}, false);
    ASSERT_TRUE(next.scheduled);
    EXPECT_EQ(next.members[0].nodeName, "n1");
    EXPECT_EQ(next.members[1].nodeName, "n0");
    EXPECT_FALSE(isTerminating(c, "default/l"));
}

// A group whose disruptionMode is all is one unit: its member on another node goes too.
TEST(GroupPreemption, AGroupWithDisruptionModeAllIsEvictedWhole)
{
    for (bool all : { false, true }) {
        auto o = unitNodes(2);
        o.pods.push_back(priorityPod("l-0", "4", 100, "n0", "l"));
        o.pods.push_back(priorityPod("l-1", "4", 100, "n1", "l"));
        Cluster c(std::move(o));
        PodGroupPolicy low = wapGang("l", 2, 100);
        low.disruptAll = all;
        c.registerPodGroup(low);
        auto r = c.scheduleGroup(wapGang("g", 1, 1000), wapMembers("g", 1, "4", 1000), {}, false);
        ASSERT_TRUE(r.preemption) << all;
        const std::vector<std::string> expected = all
            ? std::vector<std::string> { "default/l-0", "default/l-1" }
            : std::vector<std::string> { "default/l-0" };
        EXPECT_EQ(r.preemption->victims, expected) << all;
    }
}

TEST(GroupPreemption, NeverPreemptsWithPolicyNeverOrWithoutTheGate)
{
    for (bool never : { true, false }) {
        auto o = unitNodes(1);
        o.pods.push_back(priorityPod("a", "4", 1, "n0"));
        Cluster c(std::move(o));
        PodGroupPolicy g = wapGang("g", 1, 1000);
        g.preemptionNever = never;
        g.workloadAwarePreemption = never; // the gate off in the second round
        auto r = c.scheduleGroup(g, wapMembers("g", 1, "4", 1000), {}, false);
        EXPECT_FALSE(r.scheduled);
        if (never) {
            ASSERT_TRUE(r.preemption);
            EXPECT_EQ(
                r.preemption->message, "pod group preemption: not eligible due to preemptionPolicy=Never.");
        } else {
            EXPECT_FALSE(r.preemption);
        }
        EXPECT_FALSE(isTerminating(c, "default/a"));
    }
}

// Nothing of lower priority runs anywhere: upstream's PodGroupPostFilter finds no potential
// victim and says so (podgrouppreemption.go, selectVictimsOnDomain), as a pod's DefaultPreemption
// says "No preemption victims found for incoming pod". Its eligibility comes first: a group that
// may not preempt says that instead, even here.
TEST(GroupPreemption, SaysNoVictimsWereFoundWhenNothingRunsBelowIt)
{
    const std::string noVictims = "pod group preemption: No preemption victims found for incoming preemptor";
    for (int32_t other : { 1000, 2000 }) { // the same priority, and a higher one: neither is a victim
        auto o = unitNodes(1);
        o.pods.push_back(priorityPod("a", "4", other, "n0"));
        Cluster c(std::move(o));
        auto r = c.scheduleGroup(wapGang("g", 1, 1000), wapMembers("g", 1, "4", 1000), {}, false);
        EXPECT_FALSE(r.scheduled);
        ASSERT_TRUE(r.preemption) << other;
        EXPECT_EQ(r.preemption->message, noVictims) << other;
        EXPECT_TRUE(r.preemption->victims.empty());
        EXPECT_FALSE(isTerminating(c, "default/a"));
        EXPECT_FALSE(r.members[0].preemption);
    }
    // An empty cluster has no victims either.
    Cluster empty(api::ObjectSet {});
    auto none = empty.scheduleGroup(wapGang("g", 1, 1000), wapMembers("g", 1, "4", 1000), {}, false);
    ASSERT_TRUE(none.preemption);
    EXPECT_EQ(none.preemption->message, noVictims);
    // The group's own members bound earlier are no victims of it.
    auto own = unitNodes(1);
    own.pods.push_back(priorityPod("g-0", "4", 1000, "n0", "g"));
    Cluster mine(std::move(own));
    auto self = mine.scheduleGroup(wapGang("g", 2, 1000), wapMembers("g", 2, "4", 1000), {}, false);
    ASSERT_TRUE(self.preemption);
    EXPECT_EQ(self.preemption->message, noVictims);
    // preemptionPolicy Never: not eligible, whatever runs below.
    auto o = unitNodes(1);
    o.pods.push_back(priorityPod("a", "4", 2000, "n0"));
    Cluster c(std::move(o));
    PodGroupPolicy never = wapGang("g", 1, 1000);
    never.preemptionNever = true;
    auto r = c.scheduleGroup(never, wapMembers("g", 1, "4", 1000), {}, false);
    ASSERT_TRUE(r.preemption);
    EXPECT_EQ(r.preemption->message, "pod group preemption: not eligible due to preemptionPolicy=Never.");
}

// Pass 1 gives back the units a PodDisruptionBudget protects, before more important ones: on one
// node with room for one of the two, the budget decides which stays.
TEST(GroupPreemption, ReprievesUnitsProtectedByABudgetFirst)
{
    for (bool budget : { false, true }) {
        auto o = unitNodes(1, "8");
        o.pods.push_back(priorityPod("a", "4", 100, "n0"));
        o.pods.push_back(priorityPod("b", "4", 150, "n0"));
        o.pods[0].meta.labels["app"] = "protected";
        if (budget) {
            api::PodDisruptionBudget pdb;
            pdb.meta.name = "keep-a";
            pdb.meta.namespace_ = "default";
            pdb.minAvailable = api::IntOrString::ofInt(1);
            pdb.selector = api::LabelSelector {};
            pdb.selector->matchLabels["app"] = "protected";
            o.podDisruptionBudgets.push_back(pdb);
        }
        Cluster c(std::move(o));
        auto r = c.scheduleGroup(wapGang("g", 1, 1000), wapMembers("g", 1, "4", 1000), {}, false);
        ASSERT_TRUE(r.preemption) << budget;
        EXPECT_EQ(r.preemption->victims, std::vector<std::string> { budget ? "default/b" : "default/a" })
            << budget;
        EXPECT_EQ(r.preemption->budgetViolations, 0) << budget;
    }
}

// Laws over random clusters: every victim is of lower priority than the group, the dry runs leave
// the cluster as they found it apart from the victims, and once the victims are gone the group
// schedules.
TEST(GroupPreemptionLaws, VictimsAreLowerAndMakeRoomOnRandomClusters)
{
    std::mt19937 rng(20261205);
    int preempted = 0;
    for (int round = 0; round < 200; ++round) {
        const int nodes = 2 + int(rng() % 5);
        auto o = unitNodes(nodes, "8");
        int serial = 0;
        for (int n = 0; n < nodes; ++n)
            for (int k = int(rng() % 4); k > 0; --k) {
                const std::string cpu = std::to_string(1 + rng() % 4);
                o.pods.push_back(
                    priorityPod(numbered("p", serial++), cpu, int32_t(rng() % 300), numbered("n", n)));
            }
        Cluster c(std::move(o));
        const auto before = c.boundPods();
        const int32_t prio = int32_t(100 + rng() % 200);
        const int size = 1 + int(rng() % 3);
        const auto pods = wapMembers("g", size, std::to_string(2 + rng() % 6), prio);
        const auto group = wapGang("g", size, prio);
        auto r = c.scheduleGroup(group, pods, {}, false);
        if (r.scheduled || !r.preemption || r.preemption->victims.empty()) {
            for (const auto& b : c.boundPods())
                EXPECT_FALSE(b.terminating && !r.scheduled) << round;
            continue;
        }
        ++preempted;
        EXPECT_EQ(c.boundPods().size(), before.size()) << round;
        for (const auto& v : r.preemption->victims) {
            const auto* b = c.findBoundPod(v);
            ASSERT_TRUE(b) << round;
            EXPECT_LT(b->priority, prio) << round;
            EXPECT_TRUE(b->terminating) << round;
        }
        for (const auto& v : r.preemption->victims)
            c.podFinished(v);
        EXPECT_TRUE(c.scheduleGroup(group, pods, {}, false).scheduled) << round;
    }
    EXPECT_GT(preempted, 20);
}

// Topology-aware scheduling triggers no preemption in 1.36 (its runWorkloadAwarePreemption refuses
// a PodGroup with scheduling constraints): a gang confined to one rack stays unschedulable; 1.37
// preempts for it (kubernetes/kubernetes#140683, test_topology_preemption.cpp), and without the
// gate the key is dropped and the same gang preempts in either version.
TEST(GroupPreemption, AGangConfinedToATopologyDomainPreemptsFrom137)
{
    auto o = unitNodes(2);
    for (auto& n : o.nodes)
        n.meta.labels["rack"] = "r0";
    o.pods.push_back(priorityPod("a", "4", 100, "n0"));
    o.pods.push_back(priorityPod("b", "4", 100, "n1"));
    PodGroupPolicy g = wapGang("g", 2, 1000);
    g.topologyKey = "rack";
    scheduler::SchedulerOptions v136;
    v136.kubernetesVersion = api::KubernetesVersion::V1_36;
    Cluster confined(o, v136);
    auto r = confined.scheduleGroup(g, wapMembers("g", 2, "4", 1000), {}, true);
    EXPECT_FALSE(r.scheduled);
    ASSERT_TRUE(r.preemption);
    EXPECT_TRUE(r.preemption->victims.empty());
    EXPECT_FALSE(isTerminating(confined, "default/a"));
    const std::vector<std::string> both { "default/a", "default/b" };
    Cluster v137(o);
    auto now = v137.scheduleGroup(g, wapMembers("g", 2, "4", 1000), {}, true);
    ASSERT_TRUE(now.preemption);
    EXPECT_EQ(now.preemption->victims, both);
    Cluster gateOff(std::move(o), v136);
    auto off = gateOff.scheduleGroup(g, wapMembers("g", 2, "4", 1000), {}, false);
    ASSERT_TRUE(off.preemption);
    EXPECT_EQ(off.preemption->victims, both);
}

namespace {

/// Case 10 of the workload-scheduling cases: a node with four slots, full of PodGroup L's pods
/// (priority 100), and a pod of priority 1000 that needs one slot.
scheduler::PreemptionResult preemptOneSlot(bool disruptAll, bool groupUnits)
{
    auto o = unitNodes(1);
    for (int i = 0; i < 4; ++i)
        o.pods.push_back(priorityPod("l-" + std::to_string(i), "1", 100, "n0", "l"));
    scheduler::SchedulerOptions options;
    options.podGroupUnitsInPreemption = groupUnits;
    Cluster c(std::move(o), options);
    PodGroupPolicy l { "default/l", true, 4, "" };
    l.priority = 100;
    l.disruptAll = disruptAll;
    c.registerPodGroup(l);
    auto r = c.schedule(priorityPod("p", "1", 1000));
    EXPECT_FALSE(r.scheduled);
    return r.preemption.value_or(scheduler::PreemptionResult {});
}

} // namespace

// 1.37: a pod's DefaultPreemption evicts a disruptionMode all group whole; 1.36 took one member,
// and a group with disruptionMode single gives up one member in both.
TEST(GroupPreemption, APodPreemptingADisruptAllGroupEvictsItWholeFrom137)
{
    const std::vector<std::string> all { "default/l-0", "default/l-1", "default/l-2", "default/l-3" };
    EXPECT_EQ(preemptOneSlot(true, true).victims, all);
    EXPECT_EQ(preemptOneSlot(true, false).victims.size(), 1u);
    EXPECT_EQ(preemptOneSlot(false, true).victims.size(), 1u);
    EXPECT_EQ(preemptOneSlot(false, false).victims.size(), 1u);
}

// The unit reaches members on other nodes, and counts whole in the choice of node: a node whose
// only victim is a plain pod beats a node where the group would go.
TEST(GroupPreemption, AWholeGroupUnitCountsItsMembersOnOtherNodes)
{
    auto o = unitNodes(3, "2");
    o.pods.push_back(priorityPod("l-0", "2", 100, "n0", "l"));
    o.pods.push_back(priorityPod("l-1", "2", 100, "n1", "l"));
    o.pods.push_back(priorityPod("solo", "2", 100, "n2"));
    scheduler::SchedulerOptions options;
    options.podGroupUnitsInPreemption = true;
    Cluster c(o, options);
    PodGroupPolicy l { "default/l", true, 2, "" };
    l.priority = 100;
    l.disruptAll = true;
    c.registerPodGroup(l);
    auto r = c.schedule(priorityPod("p", "2", 1000));
    ASSERT_TRUE(r.preemption);
    EXPECT_EQ(r.preemption->nominatedNode, "n2");
    EXPECT_EQ(r.preemption->victims, (std::vector<std::string> { "default/solo" }));

    // Without the plain pod the group is the only way: both members go, one of them elsewhere.
    o.pods.pop_back();
    o.nodes.pop_back();
    Cluster onlyGroup(std::move(o), options);
    onlyGroup.registerPodGroup(l);
    auto g = onlyGroup.schedule(priorityPod("p", "2", 1000));
    ASSERT_TRUE(g.preemption);
    EXPECT_EQ(g.preemption->victims, (std::vector<std::string> { "default/l-0", "default/l-1" }));
    EXPECT_TRUE(isTerminating(onlyGroup, "default/l-1"));
}

namespace {

/// Two nodes with one DRA GPU each, both held by low-priority pods.
std::unique_ptr<Cluster> heldGpus(bool whatIf)
{
    api::ObjectSet o = unitNodes(2);
    for (int i = 0; i < 2; ++i) {
        const std::string n = numbered("n", i);
        o.resourceSlices.push_back(slice(n + "-gpus", drasim::testing::kDrv, n, n, { device("gpu-0") }));
    }
    addOneGpuClassAndTemplate(o);
    scheduler::SchedulerOptions options;
    options.whatIfDraPreemption = whatIf;
    auto cluster = std::make_unique<Cluster>(std::move(o), options);
    for (int i = 0; i < 2; ++i)
        EXPECT_TRUE(
            cluster->schedule(pod("low-" + std::to_string(i), {}, { { "gpu", "one-gpu" } })).scheduled);
    return cluster;
}

/// A gang of two one-GPU pods at priority 1000.
std::vector<api::Pod> gpuGang()
{
    std::vector<api::Pod> members;
    for (int i = 0; i < 2; ++i) {
        api::Pod m = pod("g-" + std::to_string(i), {}, { { "gpu", "one-gpu" } });
        m.spec.priority = 1000;
        m.spec.schedulingGroup = "g";
        members.push_back(m);
    }
    return members;
}

} // namespace

// Upstream's dry run keeps the victims' claims allocated, so a gang short of DRA devices never
// preempts; the KEP-5690 what-if releases them and the gang evicts both holders.
TEST(GroupPreemption, DraDevicesAreFreedOnlyByTheWhatIf)
{
    auto upstream = heldGpus(false)->scheduleGroup(wapGang("g", 2, 1000), gpuGang(), {}, false);
    ASSERT_TRUE(upstream.preemption);
    EXPECT_TRUE(upstream.preemption->victims.empty());
    EXPECT_EQ(upstream.preemption->message,
        "pod group preemption: minCount (2) cannot be satisfied: 0 scheduled, 1 remaining");
    auto c = heldGpus(true);
    auto whatIf = c->scheduleGroup(wapGang("g", 2, 1000), gpuGang(), {}, false);
    ASSERT_TRUE(whatIf.preemption);
    EXPECT_EQ(whatIf.preemption->victims, (std::vector<std::string> { "default/low-0", "default/low-1" }));
    ASSERT_EQ(whatIf.members.size(), 2u);
    ASSERT_TRUE(whatIf.members[0].preemption && whatIf.members[1].preemption);
    EXPECT_NE(whatIf.members[0].preemption->nominatedNode, whatIf.members[1].preemption->nominatedNode);
    EXPECT_TRUE(isTerminating(*c, "default/low-0"));
    // The dry runs left every claim as it was: the victims hold their GPUs while they terminate.
    ASSERT_TRUE(c->findClaim("default/low-0-gpu"));
    EXPECT_TRUE(c->findClaim("default/low-0-gpu")->allocation);
}

// Laws for a pod's preemption among disruptionMode all groups (1.37): a group is evicted whole or
// not at all, every victim is of lower priority, and once the victims are gone the pod schedules
// on the node it was nominated to. Groups spread over several nodes, beside plain pods.
TEST(GroupPreemptionLaws, APodEvictsWholeGroupsOrNoneOnRandomClusters)
{
    std::mt19937 rng(20261206);
    int preempted = 0, groupsTaken = 0;
    for (int round = 0; round < 200; ++round) {
        const int nodes = 2 + int(rng() % 4);
        auto o = unitNodes(nodes, "8");
        std::vector<PodGroupPolicy> groups;
        std::map<std::string, std::vector<std::string>> membersOf;
        for (int g = int(rng() % 3); g > 0; --g) {
            PodGroupPolicy p { "default/grp" + std::to_string(g), true, 1, "" };
            p.priority = int32_t(rng() % 300);
            p.disruptAll = true;
            groups.push_back(p);
        }
        int serial = 0;
        for (int n = 0; n < nodes; ++n)
            for (int k = int(rng() % 4); k > 0; --k) {
                const std::string name = numbered("p", serial++);
                const std::string cpu = std::to_string(1 + rng() % 3);
                if (!groups.empty() && rng() % 2) {
                    const PodGroupPolicy& g = groups[rng() % groups.size()];
                    const std::string short_ = g.key.substr(g.key.find('/') + 1);
                    o.pods.push_back(priorityPod(name, cpu, g.priority, numbered("n", n), short_));
                    membersOf[g.key].push_back("default/" + name);
                } else {
                    o.pods.push_back(priorityPod(name, cpu, int32_t(rng() % 300), numbered("n", n)));
                }
            }
        scheduler::SchedulerOptions options;
        options.podGroupUnitsInPreemption = true;
        Cluster c(std::move(o), options);
        for (const auto& g : groups)
            c.registerPodGroup(g);
        const int32_t prio = int32_t(100 + rng() % 250);
        const api::Pod preemptor = priorityPod("preemptor", std::to_string(3 + rng() % 6), prio);
        auto r = c.schedule(preemptor);
        if (r.scheduled || !r.preemption || r.preemption->victims.empty())
            continue;
        ++preempted;
        const auto& victims = r.preemption->victims;
        auto isVictim = [&](const std::string& k) {
            return std::find(victims.begin(), victims.end(), k) != victims.end();
        };
        for (const auto& [key, members] : membersOf) {
            const auto taken = std::count_if(members.begin(), members.end(), isVictim);
            EXPECT_TRUE(taken == 0 || size_t(taken) == members.size()) << round << " " << key;
            groupsTaken += taken > 0 ? 1 : 0;
        }
        for (const auto& v : victims) {
            const auto* b = c.findBoundPod(v);
            ASSERT_TRUE(b) << round;
            EXPECT_LT(b->priority, prio) << round;
            EXPECT_TRUE(b->terminating) << round;
        }
        for (const auto& v : victims)
            c.podFinished(v);
        auto again = c.schedule(preemptor);
        EXPECT_TRUE(again.scheduled) << round;
        EXPECT_EQ(again.nodeName, r.preemption->nominatedNode) << round;
    }
    EXPECT_GT(preempted, 20);
    EXPECT_GT(groupsTaken, 5);
}

// Kubernetes 1.36's PodGroupPostFilter (scheduling.k8s.io/v1alpha2) returned its evaluator's
// status without the plugin's "pod group preemption: " lead, and nothing when it found a
// placement (actuatePodGroupPreemption's success carries no message); while earlier victims still
// terminated it refused (preemptorEligibleToPreemptOthers) instead of 1.37's Success.
TEST(GroupPreemption, WordsItsStatusAs136DidInThatVersion)
{
    auto o = poolXFullOfLowPods();
    scheduler::SchedulerOptions v136;
    v136.kubernetesVersion = api::KubernetesVersion::V1_36;
    Cluster c(std::move(o), v136);
    auto pods = wapMembers("g", 2, "4", 1000);
    for (auto& p : pods)
        p.spec.nodeSelector["pool"] = "x";
    auto r = c.scheduleGroup(wapGang("g", 2, 1000), pods, {}, false);
    ASSERT_TRUE(r.preemption);
    EXPECT_EQ(r.preemption->victims, (std::vector<std::string> { "default/a", "default/b" }));
    EXPECT_EQ(r.preemption->message, "");
    ASSERT_TRUE(r.members[0].preemption && r.members[1].preemption);
    EXPECT_EQ(r.members[0].preemption->nominatedNode, "n0");

    auto again = c.scheduleGroup(wapGang("g", 2, 1000), pods, {}, false);
    ASSERT_TRUE(again.preemption);
    EXPECT_EQ(again.preemption->message, "not eligible due to a terminating pod on the nominated node.");
    EXPECT_FALSE(isTerminating(c, "default/c"));

    PodGroupPolicy never = wapGang("h", 1, 1000);
    never.preemptionNever = true;
    auto refused = c.scheduleGroup(never, wapMembers("h", 1, "8", 1000), {}, false);
    ASSERT_TRUE(refused.preemption);
    EXPECT_EQ(refused.preemption->message, "not eligible due to preemptionPolicy=Never.");

    auto highest = c.scheduleGroup(wapGang("k", 1, 50), wapMembers("k", 1, "8", 50), {}, false);
    ASSERT_TRUE(highest.preemption);
    EXPECT_EQ(highest.preemption->message, "No preemption victims found for incoming preemptor");
}

// A group nominated by its preemption whose later cycle fails, with nothing to wait for and no
// victim to take: submitPodGroupAlgorithmResult hands the member that fitted in that cycle to the
// FailureHandler with clearNominatedNode, and the member that did not fit with its own result,
// which nominates nothing and so leaves its nomination as it was (1.36 and 1.37 alike).
TEST(GroupPreemption, AFailedLaterCycleTakesBackTheNominationsOfTheMembersItPlaced)
{
    for (const auto version : { api::KubernetesVersion::V1_36, api::KubernetesVersion::V1_37 }) {
        SCOPED_TRACE(api::kubernetesVersionName(version));
        auto o = unitNodes(2);
        o.nodes[1].meta.labels["slot"] = "h";
        o.pods.push_back(priorityPod("a", "4", 100, "n0"));
        o.pods.push_back(priorityPod("b", "4", 100, "n1"));
        scheduler::SchedulerOptions options;
        options.kubernetesVersion = version;
        Cluster c(std::move(o), options);
        const auto pods = wapMembers("g", 2, "4", 1000);
        auto r = c.scheduleGroup(wapGang("g", 2, 1000), pods, {}, false);
        ASSERT_TRUE(r.members[0].preemption && r.members[1].preemption);
        EXPECT_EQ(r.members[0].preemption->nominatedNode, "n0");
        EXPECT_EQ(r.members[1].preemption->nominatedNode, "n1");
        c.podFinished("default/a");
        c.podFinished("default/b");
        // A pod above the group takes n1 (nominations hold room only for pods not above them).
        api::Pod h = priorityPod("h", "4", 2000);
        h.spec.nodeSelector["slot"] = "h";
        ASSERT_TRUE(c.schedule(h).scheduled);

        // g-0 fits on n0, g-1 nowhere: minCount is out of reach and nothing runs below the group.
        auto later = c.scheduleGroup(wapGang("g", 2, 1000), pods, {}, false);
        EXPECT_FALSE(later.scheduled);
        ASSERT_EQ(later.fitted, (std::vector<bool> { true, false }));
        EXPECT_EQ(later.nominationsCleared, 1);

        // n0 is free again for a pod below the group; g-1 still holds n1 once h is gone.
        auto lower = c.schedule(priorityPod("l", "4", 500));
        ASSERT_TRUE(lower.scheduled) << lower.message;
        EXPECT_EQ(lower.nodeName, "n0");
        c.podFinished("default/h");
        EXPECT_FALSE(c.schedule(priorityPod("m", "4", 500)).scheduled);
    }
}
