// SPDX-License-Identifier: Apache-2.0
// DefaultPreemption with PodTopologySpread and InterPodAffinity: a node these plugins reject with
// status Unschedulable (spread skew, anti-affinity) is a candidate, one they reject as
// UnschedulableAndUnresolvable (missing topology label, unmet pod affinity) is not, and the dry
// run takes victims out of the plugins' PreFilter state and puts reprieved ones back
// (default_preemption.go SelectVictimsOnNode; podtopologyspread/filtering.go and
// interpodaffinity/filtering.go updateWithPod). Expectations worked out from those rules first.
#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/scheduler/cluster.h"
#include "core/scheduler/pod_topology.h"
#include "tests/unit/allocator/fixtures.h"

using namespace drasim;
using namespace drasim::testing;
using scheduler::Cluster;

namespace preemption_placement_test {

constexpr const char* kZone = "topology.kubernetes.io/zone";
constexpr const char* kHost = "kubernetes.io/hostname";

api::Node hostNode(const std::string& name, const std::string& zone, const std::string& cpu)
{
    std::map<std::string, std::string> labels { { kHost, name } };
    if (!zone.empty())
        labels[kZone] = zone;
    return node(name, labels, cpu);
}

api::Pod podOf(const std::string& name, api::Labels labels, int32_t priority, const std::string& cpu,
    const std::string& nodeName = "")
{
    api::Pod p = pod(name);
    p.meta.labels = std::move(labels);
    p.spec.priority = priority;
    p.spec.nodeName = nodeName;
    p.spec.containers[0].resources.requests["cpu"] = q(cpu);
    return p;
}

api::LabelSelector selectorOf(api::Labels match)
{
    api::LabelSelector s;
    s.matchLabels = std::move(match);
    return s;
}

api::PodAffinityTerm term(const std::string& key, api::Labels sel)
{
    api::PodAffinityTerm t;
    t.topologyKey = key;
    t.labelSelector = selectorOf(std::move(sel));
    return t;
}

void avoid(api::Pod& p, api::Labels sel)
{
    p.spec.podAntiAffinity.emplace();
    p.spec.podAntiAffinity->required.push_back(term(kHost, std::move(sel)));
}

void spreadOverZones(api::Pod& p, api::Labels sel)
{
    api::TopologySpreadConstraint c;
    c.topologyKey = kZone;
    c.maxSkew = 1;
    c.doNotSchedule = true;
    c.labelSelector = selectorOf(std::move(sel));
    p.spec.topologySpreadConstraints.push_back(std::move(c));
}

const api::Labels kWeb { { "app", "web" } };

// n1: a web pod of priority 1, n2: one of priority 1000. Both nodes fail only the preemptor's
// anti-affinity (Unschedulable): n1 is a candidate with w1 as its victim; on n2 no pod is lower.
TEST(PreemptionPlacement, AntiAffinityToALowerPriorityPodMakesItTheVictim)
{
    for (const bool whatIf : { false, true }) {
        api::ObjectSet o;
        o.nodes = { hostNode("n1", "", "8"), hostNode("n2", "", "8") };
        o.pods = { podOf("w1", kWeb, 1, "1", "n1"), podOf("w2", kWeb, 1000, "1", "n2") };
        scheduler::SchedulerOptions options;
        options.whatIfDraPreemption = whatIf; // the dry run that deletes victims agrees
        Cluster c(std::move(o), options);
        auto p = podOf("p", { { "app", "api" } }, 100, "1");
        avoid(p, kWeb);
        auto r = c.schedule(p, true);
        ASSERT_FALSE(r.scheduled);
        EXPECT_EQ(r.message, "0/2 nodes are available: 2 node(s) didn't match pod anti-affinity rules.");
        ASSERT_TRUE(r.preemption);
        EXPECT_EQ(r.preemption->nominatedNode, "n1") << whatIf;
        EXPECT_EQ(r.preemption->victims, std::vector<std::string> { "default/w1" });
        ASSERT_TRUE(r.diagnosis);
        for (const auto& n : r.diagnosis->nodes)
            EXPECT_EQ(n.preemption,
                n.node == "n1" ? "would evict default/w1 (priority 1)" : "no pod of lower priority runs here")
                << n.node;
    }
}

// Without any pod of lower priority, the nodes anti-affinity rejects are still candidates: the
// PostFilter says no victims were found there, not that preemption cannot help.
TEST(PreemptionPlacement, NodesRejectedByAntiAffinityCountAsHavingNoVictims)
{
    api::ObjectSet o;
    o.nodes = { hostNode("n1", "", "8"), hostNode("n2", "", "8") };
    o.pods = { podOf("w1", kWeb, 100, "1", "n1"), podOf("w2", kWeb, 100, "1", "n2"),
        podOf("low", { { "app", "batch" } }, 1, "1", "n2") };
    Cluster c(std::move(o));
    auto p = podOf("p", { { "app", "api" } }, 100, "1");
    avoid(p, kWeb);
    auto r = c.schedule(p);
    ASSERT_TRUE(r.preemption);
    EXPECT_EQ(r.preemption->nominatedNode, "");
    // n2's lower-priority pod is no help: without it the web pod is still there.
    EXPECT_EQ(r.preemption->message,
        "preemption: 0/2 nodes are available: 1 No preemption victims found for incoming pod, 1 node(s) "
        "didn't match pod anti-affinity rules.");
}

// A running pod of priority 1 avoids web pods: the node is rejected by existing pods'
// anti-affinity (Unschedulable) and evicting that pod, not its neighbour, lets the preemptor in.
TEST(PreemptionPlacement, ARunningPodThatAvoidsThePreemptorIsTheVictim)
{
    api::ObjectSet o;
    o.nodes = { hostNode("n1", "", "8") };
    auto guard = podOf("guard", { { "app", "guard" } }, 1, "1", "n1");
    avoid(guard, kWeb);
    o.pods = { podOf("other", { { "app", "batch" } }, 1, "1", "n1"), guard };
    Cluster c(std::move(o));
    auto r = c.schedule(podOf("p", kWeb, 100, "1"));
    ASSERT_FALSE(r.scheduled);
    EXPECT_EQ(
        r.message, "0/1 nodes are available: 1 node(s) didn't satisfy existing pods anti-affinity rules.");
    ASSERT_TRUE(r.preemption);
    EXPECT_EQ(r.preemption->nominatedNode, "n1");
    EXPECT_EQ(r.preemption->victims, std::vector<std::string> { "default/guard" });
}

// Zone a: web pods a1 (priority 1) and a2 (priority 2) and a batch pod (priority 50); zone b: one
// web pod of priority 1000 on a full node. A web pod in zone a would make the skew 2 + 1 − 1 = 2.
// The dry run removes all three, reprieves the batch pod (not selected), then a2 (skew 1 + 1 − 1
// = 1), and a1 would make it 2 again: a1 alone is the victim.
TEST(PreemptionPlacement, ASpreadSkewIsResolvedByEvictingTheLeastImportantMatchingPod)
{
    api::ObjectSet o;
    o.nodes = { hostNode("na", "a", "8"), hostNode("nb", "b", "2") };
    o.pods = { podOf("a1", kWeb, 1, "1", "na"), podOf("a2", kWeb, 2, "1", "na"),
        podOf("batch", { { "app", "batch" } }, 50, "1", "na"), podOf("b1", kWeb, 1000, "2", "nb") };
    Cluster c(std::move(o));
    auto p = podOf("p", kWeb, 100, "1");
    spreadOverZones(p, kWeb);
    auto r = c.schedule(p);
    ASSERT_FALSE(r.scheduled);
    EXPECT_EQ(r.message,
        "0/2 nodes are available: 1 Insufficient cpu, 1 node(s) didn't match pod topology spread "
        "constraints.");
    ASSERT_TRUE(r.preemption);
    EXPECT_EQ(r.preemption->nominatedNode, "na");
    EXPECT_EQ(r.preemption->victims, std::vector<std::string> { "default/a1" });
}

// A node without the constraint's key is rejected as unresolvable: never a candidate, however
// many lower-priority pods run there.
TEST(PreemptionPlacement, ANodeMissingTheTopologyLabelIsNoCandidate)
{
    api::ObjectSet o;
    o.nodes = { hostNode("n1", "", "8") };
    o.pods = { podOf("w1", kWeb, 1, "1", "n1") };
    Cluster c(std::move(o));
    auto p = podOf("p", kWeb, 100, "1");
    spreadOverZones(p, kWeb);
    auto r = c.schedule(p, true);
    ASSERT_TRUE(r.preemption);
    EXPECT_EQ(r.preemption->nominatedNode, "");
    EXPECT_EQ(r.preemption->message,
        "preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.");
    ASSERT_TRUE(r.diagnosis);
    EXPECT_EQ(r.diagnosis->nodes.at(0).preemption,
        "not a candidate: evicting pods does not change what rejects the pod here");
}

// Both nodes lack cpu (Unschedulable), so both are dry-run; the preemptor's required affinity
// selects only db, which has a lower priority. Without db the affinity fails on n1 (upstream does
// not keep victims for affinity), and n2 never had a selected pod: no candidate, and the
// PostFilter reports the affinity rejections of the dry run.
TEST(PreemptionPlacement, AffinityToAVictimLeavesNoCandidate)
{
    api::ObjectSet o;
    o.nodes = { hostNode("n1", "", "4"), hostNode("n2", "", "4") };
    o.pods = { podOf("db", { { "app", "db" } }, 1, "3", "n1"),
        podOf("filler", { { "app", "batch" } }, 1, "3", "n2") };
    Cluster c(std::move(o));
    auto p = podOf("p", { { "app", "api" } }, 100, "2");
    p.spec.podAffinity.emplace();
    p.spec.podAffinity->required.push_back(term(kHost, { { "app", "db" } }));
    auto r = c.schedule(p);
    ASSERT_TRUE(r.preemption);
    EXPECT_EQ(r.preemption->nominatedNode, "");
    EXPECT_EQ(r.preemption->message,
        "preemption: 0/2 nodes are available: 2 node(s) didn't match pod affinity rules.");
}

// The same, but the preemptor matches its own term: once db is out, no pod anywhere is selected
// and the first-of-its-kind rule lets it pass (RemovePod drops the pair at zero), so db is the
// victim on n1. On n2 db still counts (it is not removed there): the affinity fails.
TEST(PreemptionPlacement, AffinityToItselfPassesOnceTheOnlySelectedPodIsRemoved)
{
    api::ObjectSet o;
    o.nodes = { hostNode("n1", "", "4"), hostNode("n2", "", "4") };
    o.pods = { podOf("db", { { "app", "db" } }, 1, "3", "n1"),
        podOf("filler", { { "app", "batch" } }, 1, "3", "n2") };
    Cluster c(std::move(o));
    auto p = podOf("p", { { "app", "db" } }, 100, "2");
    p.spec.podAffinity.emplace();
    p.spec.podAffinity->required.push_back(term(kHost, { { "app", "db" } }));
    auto r = c.schedule(p);
    ASSERT_TRUE(r.preemption);
    EXPECT_EQ(r.preemption->nominatedNode, "n1");
    EXPECT_EQ(r.preemption->victims, std::vector<std::string> { "default/db" });
}

// The state updates themselves: RemovePod then AddPod restores every count; pods of another
// namespace do not count; an empty selector takes every pod out although PreFilter counted none
// (upstream's updateWithPod has no Empty() test), so a count may fall below zero.
TEST(PreemptionPlacement, SpreadStateUpdatesFollowUpstream)
{
    scheduler::TopologyDomains zones { { 0, 1 }, { "a", "b" } };
    api::Node na = hostNode("na", "a", "8");
    auto preemptor = podOf("p", kWeb, 100, "1");
    spreadOverZones(preemptor, kWeb);
    scheduler::SpreadFilterState s;
    s.constraints = scheduler::spreadConstraintsOf(preemptor, true);
    s.domains = { &zones };
    s.matchNum = { { 2, 1 } };
    s.selfMatch = { 1 };
    s.finish();
    ASSERT_STREQ(s.check(0), scheduler::kSpreadMismatch); // 2 + 1 − 1 = 2
    const scheduler::PlacementPod web = scheduler::placementPodOf(podOf("w", kWeb, 1, "1"));
    s.updateWithPod(web, preemptor, na, 0, -1);
    EXPECT_EQ(s.matchNum[0], (std::vector<int64_t> { 1, 1 }));
    EXPECT_EQ(s.check(0), nullptr);
    s.updateWithPod(web, preemptor, na, 0, -1);
    EXPECT_EQ(s.minMatch[0], 0); // the minimum follows the changed domain
    s.updateWithPod(web, preemptor, na, 0, +1);
    s.updateWithPod(web, preemptor, na, 0, +1);
    EXPECT_EQ(s.matchNum[0], (std::vector<int64_t> { 2, 1 }));
    EXPECT_EQ(s.minMatch[0], 1);
    auto elsewhere = podOf("w", kWeb, 1, "1");
    elsewhere.meta.namespace_ = "other";
    s.updateWithPod(scheduler::placementPodOf(elsewhere), preemptor, na, 0, -1);
    EXPECT_EQ(s.matchNum[0], (std::vector<int64_t> { 2, 1 }));
    s.constraints[0].selector = api::LabelSelector {};
    const scheduler::PlacementPod batch
        = scheduler::placementPodOf(podOf("b", { { "app", "batch" } }, 1, "1"));
    s.updateWithPod(batch, preemptor, na, 0, -1);
    s.updateWithPod(batch, preemptor, na, 0, -1);
    s.updateWithPod(batch, preemptor, na, 0, -1);
    EXPECT_EQ(s.matchNum[0], (std::vector<int64_t> { -1, 1 }));
    EXPECT_EQ(s.minMatch[0], -1);
}

// Anti-affinity counts of a topology pair come and go with the pods; a pair down to zero is
// dropped, so an emptied affinity map lets a pod that selects itself pass again.
TEST(PreemptionPlacement, AffinityStateDropsPairsThatComeDownToZero)
{
    auto self = podOf("p", { { "app", "db" } }, 100, "1");
    self.spec.podAffinity.emplace();
    self.spec.podAffinity->required.push_back(term(kHost, { { "app", "db" } }));
    avoid(self, kWeb);
    const scheduler::PlacementPod me = scheduler::placementPodOf(self);
    scheduler::AffinityFilterState st;
    st.pod = &me;
    st.selfMatchesAll = true;
    const api::Node n1 = hostNode("n1", "", "8");
    const scheduler::PlacementPod db = scheduler::placementPodOf(podOf("db", { { "app", "db" } }, 1, "1"));
    const scheduler::PlacementPod web = scheduler::placementPodOf(podOf("w", kWeb, 1, "1"));
    st.updateWithPod(db, n1, nullptr, nullptr, +1);
    st.updateWithPod(web, n1, nullptr, nullptr, +1);
    EXPECT_EQ(st.affinity.size(), 1u);
    EXPECT_STREQ(st.check(n1), scheduler::kAntiAffinityMismatch);
    st.updateWithPod(web, n1, nullptr, nullptr, -1);
    EXPECT_TRUE(st.antiAffinity.empty());
    EXPECT_EQ(st.check(n1), nullptr);
    st.updateWithPod(db, n1, nullptr, nullptr, -1);
    EXPECT_TRUE(st.affinity.empty());
    EXPECT_EQ(st.check(hostNode("n2", "", "8")), nullptr); // the first of its kind again
}

// Laws over random clusters of zones with web and batch pods (some batch pods avoid web pods) and
// a web preemptor that avoids web pods, spreads over zones, or both: every victim has a lower
// priority and runs on the nominated node, and once the victims are gone the preemptor is placed
// on that node (the dry run's state is the one Filter then finds).
TEST(PreemptionPlacement, LawsOverRandomClusters)
{
    std::mt19937_64 rng(20261205);
    int nominated = 0, byPlacement = 0;
    for (int round = 0; round < 400; ++round) {
        api::ObjectSet o;
        const int nodes = 1 + int(rng() % 6);
        int k = 0;
        for (int n = 0; n < nodes; ++n) {
            const std::string name = "n" + std::to_string(n);
            o.nodes.push_back(hostNode(name, std::string(1, char('a' + rng() % 3)), "8"));
            for (int used = 0, cpu = 1 + int(rng() % 4); used + cpu <= 8;
                 used += cpu, cpu = 1 + int(rng() % 4)) {
                const bool web = rng() % 2 == 0;
                auto p = podOf("p" + std::to_string(k++), { { "app", web ? "web" : "batch" } },
                    int32_t(rng() % 5) * 10, std::to_string(cpu), name);
                if (!web && rng() % 5 == 0)
                    avoid(p, kWeb);
                o.pods.push_back(std::move(p));
            }
        }
        Cluster c(std::move(o));
        const int32_t prio = int32_t(rng() % 5) * 10 + 5;
        auto preemptor = podOf("preemptor", kWeb, prio, std::to_string(1 + rng() % 4));
        const int mode = int(rng() % 3);
        if (mode != 1)
            avoid(preemptor, kWeb);
        if (mode != 0)
            spreadOverZones(preemptor, kWeb);
        auto r = c.schedule(preemptor, true);
        if (r.scheduled)
            continue;
        ASSERT_TRUE(r.preemption) << r.message;
        const std::string& target = r.preemption->nominatedNode;
        if (target.empty())
            continue;
        ++nominated;
        for (const auto& n : r.diagnosis->nodes)
            if (n.node == target && !n.nodeReasons.empty()
                && scheduler::placementRejectionResolvable(n.nodeReasons.front()))
                ++byPlacement;
        for (const auto& v : r.preemption->victims) {
            const auto* b = c.findBoundPod(v);
            ASSERT_NE(b, nullptr) << v;
            EXPECT_LT(b->priority, prio) << v;
            EXPECT_EQ(b->nodeName, target) << v;
        }
        for (const auto& v : r.preemption->victims)
            c.podFinished(v);
        auto placed = c.schedule(preemptor);
        ASSERT_TRUE(placed.scheduled) << "round " << round << ": " << placed.message;
        EXPECT_EQ(placed.nodeName, target) << "round " << round;
    }
    // 256 nominations, 44 of them on a node the two plugins had rejected.
    EXPECT_GT(nominated, 100);
    EXPECT_GT(byPlacement, 30) << nominated << " nominations";
}

// Laws over random clusters for the pods that come after a nomination: a web preemptor that avoids
// web pods is nominated, its victims still terminating, then a web pod of lower priority is scheduled
// (RunFilterPluginsWithNominatedPods adds the nominated pod to its node for it). If that pod avoids
// web pods it never lands on the nominated node; if it spreads web pods over zones (maxSkew 1) its
// zone's count plus one is within the skew of the least-counted zone without the nominated pod
// and, on the nominated node (the only one the framework adds it to), also with it: the two
// passes of the framework.
TEST(PreemptionPlacement, NominatedPodsCountForPodsThatComeAfter)
{
    std::mt19937_64 rng(20261206);
    int checked = 0, onNominatedNode = 0;
    for (int round = 0; round < 800; ++round) {
        api::ObjectSet o;
        std::map<std::string, std::string> zoneOf;
        std::map<std::string, int64_t> webIn; // running web pods per zone, terminating left out
        std::map<std::string, std::string> webPodZone;
        const int nodes = 2 + int(rng() % 5);
        int k = 0;
        for (int n = 0; n < nodes; ++n) {
            const std::string name = "n" + std::to_string(n);
            zoneOf[name] = std::string(1, char('a' + rng() % 3));
            webIn.try_emplace(zoneOf[name], 0);
            o.nodes.push_back(hostNode(name, zoneOf[name], "8"));
            for (int used = 0, cpu = 1 + int(rng() % 4); used + cpu <= 6;
                 used += cpu, cpu = 1 + int(rng() % 4)) {
                const bool web = rng() % 2 == 0;
                const std::string podName = "p" + std::to_string(k++);
                auto p = podOf(podName, { { "app", web ? "web" : "batch" } }, int32_t(rng() % 5) * 10,
                    std::to_string(cpu), name);
                if (web) {
                    ++webIn[zoneOf[name]];
                    webPodZone["default/" + podName] = zoneOf[name];
                }
                o.pods.push_back(std::move(p));
            }
        }
        Cluster c(std::move(o));
        auto preemptor = podOf("preemptor", kWeb, 45, std::to_string(1 + rng() % 4));
        avoid(preemptor, kWeb); // it preempts the web pods of lower priority on one node
        auto r = c.schedule(preemptor, true);
        if (r.scheduled || !r.preemption || r.preemption->nominatedNode.empty())
            continue;
        const std::string target = r.preemption->nominatedNode;
        for (const auto& v : r.preemption->victims)
            if (auto it = webPodZone.find(v); it != webPodZone.end())
                --webIn[it->second];
        const bool avoids = rng() % 2 == 0;
        auto later = podOf("later", kWeb, int32_t(rng() % 45), "1");
        if (avoids)
            avoid(later, kWeb);
        else
            spreadOverZones(later, kWeb);
        auto placed = c.schedule(later);
        if (!placed.scheduled)
            continue;
        ++checked;
        if (avoids) {
            EXPECT_NE(placed.nodeName, target) << "round " << round;
            continue;
        }
        const std::string zone = zoneOf.at(placed.nodeName);
        onNominatedNode += placed.nodeName == target;
        for (const int64_t withNominated : { placed.nodeName == target ? 1 : 0, 0 }) {
            auto counts = webIn;
            counts[zoneOf.at(target)] += withNominated;
            int64_t least = counts.begin()->second;
            for (const auto& [z, n] : counts)
                least = std::min(least, n);
            EXPECT_LE(counts[zone] + 1 - least, 1)
                << "round " << round << " with nominated " << withNominated;
        }
    }
    EXPECT_GT(checked, 100);
    EXPECT_GT(onNominatedNode, 20) << checked << " pods placed after a nomination";
}

} // namespace preemption_placement_test
