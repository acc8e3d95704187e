// SPDX-License-Identifier: Apache-2.0
// PodTopologySpread and InterPodAffinity in the scheduling cycle: cases rewritten from upstream's
// plugin tests (podtopologyspread/filtering_test.go, scoring_test.go; interpodaffinity/
// filtering_test.go, scoring_test.go), each with its expectation worked out by hand from the
// plugin's rules first, and the laws upstream promises over random clusters.
#include <random>

#include <gtest/gtest.h>

#include "core/scheduler/cluster.h"
#include "tests/unit/allocator/fixtures.h"

using namespace drasim;
using namespace drasim::testing;
using scheduler::Cluster;

namespace pod_topology_test {

constexpr const char* kZone = "topology.kubernetes.io/zone";
constexpr const char* kHost = "kubernetes.io/hostname";

api::Node zonedNode(const std::string& name, const std::string& zone, const std::string& cpu = "8")
{
    std::map<std::string, std::string> labels { { kHost, name } };
    if (!zone.empty())
        labels[kZone] = zone;
    return node(name, labels, cpu);
}

api::Pod labelled(const std::string& name, api::Labels labels, const std::string& nodeName = "")
{
    api::Pod p = pod(name);
    p.meta.labels = std::move(labels);
    p.spec.nodeName = nodeName;
    return p;
}

api::LabelSelector selectorOf(api::Labels match)
{
    api::LabelSelector s;
    s.matchLabels = std::move(match);
    return s;
}

/// A ReplicaSet of the default namespace selecting `match`.
api::PodController replicaSet(const std::string& name, api::Labels match)
{
    api::PodController rs;
    rs.kind = api::PodController::Kind::ReplicaSet;
    rs.meta.name = name;
    rs.meta.namespace_ = "default";
    rs.selector = selectorOf(std::move(match));
    return rs;
}

api::TopologySpreadConstraint spread(
    const std::string& key, int32_t maxSkew, bool doNotSchedule, api::Labels sel)
{
    api::TopologySpreadConstraint c;
    c.topologyKey = key;
    c.maxSkew = maxSkew;
    c.doNotSchedule = doNotSchedule;
    c.labelSelector = selectorOf(std::move(sel));
    return c;
}

api::PodAffinityTerm term(const std::string& key, api::Labels sel)
{
    api::PodAffinityTerm t;
    t.topologyKey = key;
    t.labelSelector = selectorOf(std::move(sel));
    return t;
}

/// The node reasons explain gives for one node.
std::vector<std::string> reasonsOn(const scheduler::ScheduleResult& r, const std::string& nodeName)
{
    for (const auto& n : r.diagnosis->nodes)
        if (n.node == nodeName)
            return n.nodeReasons;
    return { "no such node" };
}

// Two zones: zone a holds two pods of app=web, zone b none. maxSkew 1 lets a third web pod only
// into zone b (a: 2 + 1 − 0 = 3 > 1; b: 0 + 1 − 0 = 1).
TEST(PodTopologySpread, DoNotScheduleKeepsTheSkewAtMostMaxSkew)
{
    api::ObjectSet o;
    o.nodes = { zonedNode("a1", "a"), zonedNode("a2", "a"), zonedNode("b1", "b") };
    o.pods = { labelled("w0", { { "app", "web" } }, "a1"), labelled("w1", { { "app", "web" } }, "a2") };
    Cluster c(std::move(o));
    auto p = labelled("w2", { { "app", "web" } });
    p.spec.topologySpreadConstraints = { spread(kZone, 1, true, { { "app", "web" } }) };
    auto r = c.schedule(p, true);
    ASSERT_TRUE(r.scheduled) << r.message;
    EXPECT_EQ(r.nodeName, "b1");
    EXPECT_EQ(reasonsOn(r, "a1"),
        std::vector<std::string> { "node(s) didn't match pod topology spread constraints" });
}

// A pod the constraint's selector does not take adds nothing to its own domain: zone a may then
// hold it (2 + 0 − 0 = 2 ≤ 2).
TEST(PodTopologySpread, APodItsSelectorDoesNotTakeDoesNotCountItself)
{
    api::ObjectSet o;
    o.nodes = { zonedNode("a1", "a", "64"), zonedNode("b1", "b", "2") };
    o.pods = { labelled("w0", { { "app", "web" } }, "a1"), labelled("w1", { { "app", "web" } }, "a1") };
    Cluster c(std::move(o));
    auto p = labelled("other", { { "app", "batch" } });
    p.spec.topologySpreadConstraints = { spread(kZone, 2, true, { { "app", "web" } }) };
    auto r = c.schedule(p);
    ASSERT_TRUE(r.scheduled) << r.message;
    EXPECT_EQ(r.nodeName, "a1"); // the larger node scores higher once both pass
}

TEST(PodTopologySpread, ANodeWithoutTheKeyIsRejectedAsMissingTheLabel)
{
    api::ObjectSet o;
    o.nodes = { zonedNode("a1", "a"), zonedNode("nokey", "") };
    o.pods = { labelled("w0", { { "app", "web" } }, "a1") };
    Cluster c(std::move(o));
    auto p = labelled("w1", { { "app", "web" } });
    p.spec.topologySpreadConstraints = { spread(kZone, 1, true, { { "app", "web" } }) };
    // Zone a is the only domain, so its count is the minimum: 1 + 1 − 1 = 1 ≤ 1.
    auto r = c.schedule(p, true);
    ASSERT_TRUE(r.scheduled) << r.message;
    EXPECT_EQ(r.nodeName, "a1");
    EXPECT_EQ(reasonsOn(r, "nokey"),
        std::vector<std::string> {
            "node(s) didn't match pod topology spread constraints (missing required label)" });
    // NodeResourcesFit runs first: a node it rejects reports its own reason.
    p.meta.name = "big";
    p.spec.containers[0].resources.requests["cpu"] = q("7");
    Cluster c2 = [] {
        api::ObjectSet o2;
        o2.nodes = { zonedNode("a1", "a", "4"), zonedNode("nokey", "", "8") };
        return Cluster(std::move(o2));
    }();
    auto r2 = c2.schedule(p);
    ASSERT_FALSE(r2.scheduled);
    EXPECT_EQ(r2.message,
        "0/2 nodes are available: 1 Insufficient cpu, 1 node(s) didn't match pod topology spread constraints "
        "(missing required label).");
}

// minDomains 3 with two zones: the global minimum counts as 0, so a zone already holding one
// matching pod takes no second one with maxSkew 1 (1 + 1 − 0 = 2), though without minDomains
// both zones would (1 + 1 − 1 = 1).
TEST(PodTopologySpread, FewerDomainsThanMinDomainsMakeTheMinimumZero)
{
    auto make = [] {
        api::ObjectSet o;
        o.nodes = { zonedNode("a1", "a"), zonedNode("b1", "b") };
        o.pods = { labelled("w0", { { "app", "web" } }, "a1"), labelled("w1", { { "app", "web" } }, "b1") };
        return Cluster(std::move(o));
    };
    auto p = labelled("w2", { { "app", "web" } });
    p.spec.topologySpreadConstraints = { spread(kZone, 1, true, { { "app", "web" } }) };
    auto plain = make();
    EXPECT_TRUE(plain.schedule(p).scheduled);
    p.spec.topologySpreadConstraints[0].minDomains = 3;
    auto withMin = make();
    auto r = withMin.schedule(p);
    ASSERT_FALSE(r.scheduled);
    EXPECT_EQ(r.message, "0/2 nodes are available: 2 node(s) didn't match pod topology spread constraints.");
}

// nodeAffinityPolicy: Honor (the default) counts only the domains of nodes the pod's node
// selector accepts; Ignore counts zone b's empty node too, which makes the minimum 0.
TEST(PodTopologySpread, NodeAffinityPolicyDecidesWhichDomainsCount)
{
    auto make = [] {
        api::ObjectSet o;
        o.nodes = { zonedNode("a1", "a"), zonedNode("b1", "b") };
        o.nodes[0].meta.labels["pool"] = "x";
        o.pods = { labelled("w0", { { "app", "web" } }, "a1") };
        return Cluster(std::move(o));
    };
    auto p = labelled("w1", { { "app", "web" } });
    p.spec.nodeSelector = { { "pool", "x" } };
    p.spec.topologySpreadConstraints = { spread(kZone, 1, true, { { "app", "web" } }) };
    auto honor = make();
    auto r = honor.schedule(p);
    EXPECT_TRUE(r.scheduled) << r.message;
    p.spec.topologySpreadConstraints[0].honorNodeAffinity = false;
    auto ignore = make();
    r = ignore.schedule(p);
    ASSERT_FALSE(r.scheduled);
    EXPECT_EQ(r.message,
        "0/2 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 1 node(s) didn't "
        "match "
        "pod topology spread constraints.");
}

// nodeTaintsPolicy: Ignore (the default) counts a tainted node's domain; Honor leaves it out.
TEST(PodTopologySpread, NodeTaintsPolicyDecidesWhetherTaintedNodesCount)
{
    auto make = [] {
        api::ObjectSet o;
        o.nodes = { zonedNode("a1", "a"), zonedNode("b1", "b") };
        o.nodes[1].taints.push_back(api::Taint { "dedicated", "gpu", "NoSchedule", "" });
        o.pods = { labelled("w0", { { "app", "web" } }, "a1") };
        return Cluster(std::move(o));
    };
    auto p = labelled("w1", { { "app", "web" } });
    p.spec.topologySpreadConstraints = { spread(kZone, 1, true, { { "app", "web" } }) };
    auto ignore = make();
    EXPECT_FALSE(ignore.schedule(p).scheduled); // a: 1 + 1 − 0 = 2 > 1, b tainted
    p.spec.topologySpreadConstraints[0].honorNodeTaints = true;
    auto honor = make();
    auto r = honor.schedule(p);
    ASSERT_TRUE(r.scheduled) << r.message; // only zone a counts: 1 + 1 − 1 = 1
    EXPECT_EQ(r.nodeName, "a1");
}

// matchLabelKeys adds the pod's own value of each key to the selector: pods of another version
// do not count.
TEST(PodTopologySpread, MatchLabelKeysCountOnlyPodsWithTheSameValues)
{
    api::ObjectSet o;
    o.nodes = { zonedNode("a1", "a"), zonedNode("b1", "b") };
    o.pods = { labelled("old0", { { "app", "web" }, { "version", "1" } }, "a1"),
        labelled("old1", { { "app", "web" }, { "version", "1" } }, "a1") };
    Cluster c(std::move(o));
    auto p = labelled("new0", { { "app", "web" }, { "version", "2" } });
    p.spec.topologySpreadConstraints = { spread(kZone, 1, true, { { "app", "web" } }) };
    p.spec.topologySpreadConstraints[0].matchLabelKeys = { "version" };
    auto r = c.schedule(p, true);
    ASSERT_TRUE(r.scheduled) << r.message;
    EXPECT_TRUE(reasonsOn(r, "a1").empty()); // 0 + 1 − 0 = 1: zone a is open to version 2
}

// ScheduleAnyway on hostname: the large node would win on free resources, but it already runs two
// of the pods; spreading (weight 2, normalised to 0 and 100) sends the pod to the empty node.
TEST(PodTopologySpread, ScheduleAnywayPrefersTheDomainWithFewerMatchingPods)
{
    auto make = [] {
        api::ObjectSet o;
        o.nodes = { zonedNode("big", "a", "64"), zonedNode("small", "a", "4") };
        o.pods = { labelled("w0", { { "app", "web" } }, "big"), labelled("w1", { { "app", "web" } }, "big") };
        return Cluster(std::move(o));
    };
    auto p = labelled("w2", { { "app", "web" } });
    auto without = make();
    EXPECT_EQ(without.schedule(p).nodeName, "big");
    p.spec.topologySpreadConstraints = { spread(kHost, 1, false, { { "app", "web" } }) };
    auto with = make();
    EXPECT_EQ(with.schedule(p).nodeName, "small");
}

// A pod without constraints of its own, owned by a ReplicaSet whose selector the scheduler knows,
// gets the system defaults (hostname maxSkew 3, zone maxSkew 5, ScheduleAnyway): the same spread
// as above without the pod asking for it. A pod of no known owner keeps today's placement.
TEST(PodTopologySpread, SystemDefaultsSpreadThePodsOfAReplicaSet)
{
    auto make = [] {
        api::ObjectSet o;
        o.nodes = { zonedNode("big", "a", "64"), zonedNode("small", "a", "4") };
        o.pods = { labelled("w0", { { "app", "web" } }, "big"), labelled("w1", { { "app", "web" } }, "big") };
        o.controllers.push_back(replicaSet("web-abc", { { "app", "web" } }));
        return Cluster(std::move(o));
    };
    auto p = labelled("w2", { { "app", "web" } });
    auto orphan = make();
    EXPECT_EQ(orphan.schedule(p).nodeName, "big");
    p.meta.ownerReferences.push_back(api::OwnerReference { "apps/v1", "ReplicaSet", "web-abc", "", true });
    auto owned = make();
    EXPECT_EQ(owned.schedule(p).nodeName, "small");
    // Registered later (as the simulation does for the controllers it runs), the same.
    api::ObjectSet o;
    o.nodes = { zonedNode("big", "a", "64"), zonedNode("small", "a", "4") };
    o.pods = { labelled("w0", { { "app", "web" } }, "big"), labelled("w1", { { "app", "web" } }, "big") };
    Cluster later(std::move(o));
    api::PodController deployment;
    deployment.kind = api::PodController::Kind::Deployment;
    deployment.meta.name = "web-abc";
    deployment.selector = selectorOf({ { "app", "web" } });
    later.addPodOwner(deployment);
    EXPECT_EQ(later.schedule(p).nodeName, "small");
}

api::Service service(const std::string& ns, const std::string& name, api::Labels selector)
{
    api::Service s;
    s.meta.namespace_ = ns;
    s.meta.name = name;
    s.selector = std::move(selector);
    return s;
}

// The Services that select a pod give it the system defaults too (helper.DefaultSelector merges
// their selectors): a bare pod of a Service spreads as the ReplicaSet's pod above does. A Service
// of another namespace, or one asking for a label the pod lacks, gives nothing.
TEST(PodTopologySpread, SystemDefaultsSpreadThePodsAServiceSelects)
{
    auto make = [](std::vector<api::Service> services) {
        api::ObjectSet o;
        o.nodes = { zonedNode("big", "a", "64"), zonedNode("small", "a", "4") };
        o.pods = { labelled("w0", { { "app", "web" } }, "big"), labelled("w1", { { "app", "web" } }, "big") };
        o.services = std::move(services);
        return Cluster(std::move(o));
    };
    const auto p = labelled("w2", { { "app", "web" } });
    EXPECT_EQ(make({ service("default", "web", { { "app", "web" } }) }).schedule(p).nodeName, "small");
    EXPECT_EQ(make({ service("shop", "web", { { "app", "web" } }) }).schedule(p).nodeName, "big");
    EXPECT_EQ(make({ service("default", "db", { { "app", "web" }, { "tier", "db" } }) }).schedule(p).nodeName,
        "big");
    EXPECT_EQ(make({ service("default", "any", {}) }).schedule(p).nodeName, "big");
}

// With a ReplicaSet, the default selector holds the Service's labels and the ReplicaSet's
// requirements together: running pods that match only the ReplicaSet's selector do not count.
TEST(PodTopologySpread, ServiceAndReplicaSetSelectorsAreMerged)
{
    api::ObjectSet o;
    o.nodes = { zonedNode("big", "a", "64"), zonedNode("small", "a", "4") };
    o.pods
        = { labelled("w0", { { "tier", "front" } }, "big"), labelled("w1", { { "tier", "front" } }, "big") };
    o.controllers.push_back(replicaSet("front-abc", { { "tier", "front" } }));
    auto p = labelled("f2", { { "app", "web" }, { "tier", "front" } });
    p.meta.ownerReferences.push_back(api::OwnerReference { "apps/v1", "ReplicaSet", "front-abc", "", true });
    EXPECT_EQ(Cluster(o).schedule(p).nodeName, "small"); // the ReplicaSet alone counts w0 and w1
    o.services = { service("default", "web", { { "app", "web" } }) };
    EXPECT_EQ(Cluster(o).schedule(p).nodeName, "big"); // app=web and tier=front: none counted
}

// Required pod affinity to app=db on zones: only zone a, where the database runs, qualifies.
TEST(InterPodAffinity, RequiredAffinityPlacesThePodInTheDomainOfThePodsItSelects)
{
    api::ObjectSet o;
    o.nodes = { zonedNode("a1", "a"), zonedNode("b1", "b", "64") };
    o.pods = { labelled("db", { { "app", "db" } }, "a1") };
    Cluster c(std::move(o));
    auto p = labelled("web", { { "app", "web" } });
    p.spec.podAffinity = api::PodAffinityRules { { term(kZone, { { "app", "db" } }) }, {} };
    auto r = c.schedule(p, true);
    ASSERT_TRUE(r.scheduled) << r.message;
    EXPECT_EQ(r.nodeName, "a1");
    EXPECT_EQ(reasonsOn(r, "b1"), std::vector<std::string> { "node(s) didn't match pod affinity rules" });
}

// The first pod of a set with affinity to its own kind: no pod anywhere matches, and the pod
// matches its own terms, so it may go anywhere (satisfyPodAffinity's exception); a pod that does
// not match its own terms may not.
TEST(InterPodAffinity, TheFirstPodOfASetWithAffinityToItselfIsNotStuck)
{
    api::ObjectSet o;
    o.nodes = { zonedNode("a1", "a") };
    Cluster c(std::move(o));
    auto self = labelled("web0", { { "app", "web" } });
    self.spec.podAffinity = api::PodAffinityRules { { term(kZone, { { "app", "web" } }) }, {} };
    EXPECT_TRUE(c.schedule(self).scheduled);
    auto other = labelled("cache0", { { "app", "cache" } });
    other.spec.podAffinity = api::PodAffinityRules { { term(kZone, { { "app", "db" } }) }, {} };
    auto r = c.schedule(other);
    ASSERT_FALSE(r.scheduled);
    EXPECT_EQ(r.message, "0/1 nodes are available: 1 node(s) didn't match pod affinity rules.");
}

// A pod bound after others finished is kept in one of their places (their strings and lists are
// reused): nothing of theirs may stay with it, neither labels nor priority nor claims.
TEST(InterPodAffinity, APodBoundWhereAFinishedPodWasKeptKeepsNothingOfIt)
{
    api::ObjectSet o;
    o.nodes = { zonedNode("n1", "a") };
    Cluster c(std::move(o));
    auto web = [](const std::string& name) {
        auto p = labelled(name, { { "app", "web" } });
        p.spec.podAntiAffinity = api::PodAffinityRules { { term(kHost, { { "app", "web" } }) }, {} };
        p.spec.priority = 9;
        return p;
    };
    // Without affinity terms of its own, w0's cycle has no placement state: its PlacementPod is its
    // own, and is written over too.
    auto w0 = labelled("w0", { { "app", "web" } });
    w0.spec.priority = 9;
    ASSERT_TRUE(c.schedule(w0).scheduled);
    ASSERT_TRUE(c.podFinished("default/w0"));
    ASSERT_TRUE(c.schedule(labelled("plain", {})).scheduled);
    const auto* plain = c.findBoundPod("default/plain");
    ASSERT_NE(plain, nullptr);
    EXPECT_EQ(plain->key, "default/plain");
    EXPECT_EQ(plain->nodeName, "n1");
    EXPECT_EQ(plain->priority, 0);
    EXPECT_TRUE(plain->claims.empty());
    EXPECT_FALSE(plain->terminating);
    // w0's label went with it: a web pod that keeps away from web pods fits beside the plain one,
    // and a second one does not fit beside the first.
    auto w1 = c.schedule(web("w1"));
    EXPECT_TRUE(w1.scheduled) << w1.message;
    EXPECT_FALSE(c.schedule(web("w2")).scheduled);
    ASSERT_EQ(c.boundPods().size(), 2u);
}

TEST(InterPodAffinity, RequiredAntiAffinityKeepsPodsApartAndSaysWhyWhenItCannot)
{
    api::ObjectSet o;
    o.nodes = { zonedNode("n1", "a"), zonedNode("n2", "a") };
    Cluster c(std::move(o));
    auto make = [](const std::string& name) {
        auto p = labelled(name, { { "app", "web" } });
        p.spec.podAntiAffinity = api::PodAffinityRules { { term(kHost, { { "app", "web" } }) }, {} };
        return p;
    };
    auto r0 = c.schedule(make("w0"));
    auto r1 = c.schedule(make("w1"));
    ASSERT_TRUE(r0.scheduled && r1.scheduled);
    EXPECT_NE(r0.nodeName, r1.nodeName);
    auto r2 = c.schedule(make("w2"));
    ASSERT_FALSE(r2.scheduled);
    // The pod's own term and the running pods' terms both reject; the plugin reports its own first.
    EXPECT_EQ(r2.message, "0/2 nodes are available: 2 node(s) didn't match pod anti-affinity rules.");
}

// A running pod's anti-affinity keeps away pods it selects, though they have no terms themselves.
TEST(InterPodAffinity, RunningPodsAntiAffinityRejectsThePodsTheyAvoid)
{
    api::ObjectSet o;
    o.nodes = { zonedNode("n1", "a", "64"), zonedNode("n2", "b") };
    auto loner = labelled("loner", { { "app", "loner" } }, "n1");
    loner.spec.podAntiAffinity = api::PodAffinityRules { { term(kZone, { { "app", "web" } }) }, {} };
    o.pods = { loner };
    Cluster c(std::move(o));
    auto r = c.schedule(labelled("w0", { { "app", "web" } }), true);
    ASSERT_TRUE(r.scheduled) << r.message;
    EXPECT_EQ(r.nodeName, "n2");
    EXPECT_EQ(reasonsOn(r, "n1"),
        std::vector<std::string> { "node(s) didn't satisfy existing pods anti-affinity rules" });
    // A pod it does not select goes to the larger node.
    EXPECT_EQ(c.schedule(labelled("b0", { { "app", "batch" } })).nodeName, "n1");
}

// A term selects pods of its owner's namespace unless it names others; namespaceSelector {} takes
// every namespace.
TEST(InterPodAffinity, TermsSelectPodsOfTheNamespacesTheyName)
{
    auto make = [] {
        api::ObjectSet o;
        o.nodes = { zonedNode("n1", "a"), zonedNode("n2", "b", "64") };
        auto db = labelled("db", { { "app", "db" } }, "n1");
        db.meta.namespace_ = "data";
        o.pods = { db };
        return Cluster(std::move(o));
    };
    auto p = labelled("web", { { "app", "web" } });
    p.spec.podAffinity = api::PodAffinityRules { { term(kZone, { { "app", "db" } }) }, {} };
    auto own = make();
    EXPECT_FALSE(own.schedule(p).scheduled); // default namespace: no db there, and web is not db
    p.spec.podAffinity->required[0].namespaces = { "data" };
    auto named = make();
    EXPECT_EQ(named.schedule(p).nodeName, "n1");
    p.spec.podAffinity->required[0].namespaces.clear();
    p.spec.podAffinity->required[0].namespaceSelector = api::LabelSelector {};
    auto all = make();
    EXPECT_EQ(all.schedule(p).nodeName, "n1");
}

// Preferred anti-affinity outweighs free resources: the larger node runs a pod the new one
// prefers to avoid (weight 100 → 0 and 100 after normalisation, × 2).
TEST(InterPodAffinity, PreferredAntiAffinitySteersAwayFromThePodsItSelects)
{
    auto make = [] {
        api::ObjectSet o;
        o.nodes = { zonedNode("big", "a", "64"), zonedNode("small", "b", "4") };
        o.pods = { labelled("noisy", { { "app", "noisy" } }, "big") };
        return Cluster(std::move(o));
    };
    auto p = labelled("quiet", { { "app", "quiet" } });
    auto without = make();
    EXPECT_EQ(without.schedule(p).nodeName, "big");
    p.spec.podAntiAffinity = api::PodAffinityRules { {},
        { api::WeightedPodAffinityTerm { 100, term(kHost, { { "app", "noisy" } }) } } };
    auto with = make();
    EXPECT_EQ(with.schedule(p).nodeName, "small");
}

// A running pod's required affinity term that selects the incoming pod draws it near
// (hardPodAffinityWeight 1), though the incoming pod has no terms at all.
TEST(InterPodAffinity, RunningPodsRequiredAffinityAttractsThePodsItSelects)
{
    auto make = [](bool withTerm) {
        api::ObjectSet o;
        o.nodes = { zonedNode("big", "a", "64"), zonedNode("small", "b", "4") };
        auto sidecar = labelled("sidecar", { { "app", "sidecar" } }, "small");
        if (withTerm)
            sidecar.spec.podAffinity = api::PodAffinityRules { { term(kZone, { { "app", "main" } }) }, {} };
        o.pods = { sidecar };
        return Cluster(std::move(o));
    };
    auto p = labelled("main", { { "app", "main" } });
    auto without = make(false);
    EXPECT_EQ(without.schedule(p).nodeName, "big");
    auto with = make(true);
    EXPECT_EQ(with.schedule(p).nodeName, "small");
}

} // namespace pod_topology_test
