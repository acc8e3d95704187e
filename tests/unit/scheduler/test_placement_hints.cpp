// SPDX-License-Identifier: Apache-2.0
// The queueing hints of PodTopologySpread and InterPodAffinity: which assigned pods added or
// deleted, and which nodes, may make a pod they rejected schedulable. Cases rewritten from
// upstream's hint tests (podtopologyspread/plugin_test.go Test_isSchedulableAfterPodChange and
// Test_isSchedulableAfterNodeChange; interpodaffinity/plugin_test.go
// Test_isSchedulableAfterPodChange and Test_isSchedulableAfterNodeChange), expectations worked out
// from the rules first.
#include <gtest/gtest.h>

#include "core/scheduler/queueing_hints.h"
#include "tests/unit/allocator/fixtures.h"

using namespace drasim;
using namespace drasim::testing;
using scheduler::ClusterChange;
using scheduler::HintPlugin;
using scheduler::pluginBit;

namespace placement_hints_test {

using Kind = ClusterChange::Kind;
constexpr const char* kZone = "topology.kubernetes.io/zone";
constexpr const char* kHost = "kubernetes.io/hostname";

const scheduler::PluginSet kSpread = pluginBit(HintPlugin::PodTopologySpread);
const scheduler::PluginSet kAffinity = pluginBit(HintPlugin::InterPodAffinity);

api::LabelSelector selectorOf(api::Labels match)
{
    api::LabelSelector s;
    s.matchLabels = std::move(match);
    return s;
}

api::Pod labelled(const std::string& name, api::Labels labels, const std::string& ns = "default")
{
    api::Pod p = pod(name);
    p.meta.labels = std::move(labels);
    p.meta.namespace_ = ns;
    return p;
}

api::Pod withSpread(api::Pod p, const std::string& key, bool doNotSchedule, api::Labels sel)
{
    api::TopologySpreadConstraint c;
    c.topologyKey = key;
    c.maxSkew = 1;
    c.doNotSchedule = doNotSchedule;
    c.labelSelector = selectorOf(std::move(sel));
    p.spec.topologySpreadConstraints.push_back(std::move(c));
    return p;
}

api::PodAffinityTerm term(const std::string& key, api::Labels sel)
{
    api::PodAffinityTerm t;
    t.topologyKey = key;
    t.labelSelector = selectorOf(std::move(sel));
    return t;
}

api::Pod withAffinity(api::Pod p, api::PodAffinityTerm t)
{
    if (!p.spec.podAffinity)
        p.spec.podAffinity.emplace();
    p.spec.podAffinity->required.push_back(std::move(t));
    return p;
}

api::Pod withAntiAffinity(api::Pod p, api::PodAffinityTerm t)
{
    if (!p.spec.podAntiAffinity)
        p.spec.podAntiAffinity.emplace();
    p.spec.podAntiAffinity->required.push_back(std::move(t));
    return p;
}

/// The change the cluster records when `changed` is bound (added) or ends (deleted).
ClusterChange podChange(Kind kind, const api::Pod& changed)
{
    ClusterChange c;
    c.kind = kind;
    c.pod = std::make_shared<const scheduler::PlacementPod>(scheduler::placementPodOf(changed));
    return c;
}

ClusterChange nodeChange(Kind kind, const api::Node* after, const api::Node* before = nullptr)
{
    ClusterChange c;
    c.kind = kind;
    if (after)
        c.node = std::make_shared<const api::Node>(*after);
    if (before)
        c.oldNode = std::make_shared<const api::Node>(*before);
    if (after && before)
        c.flags = scheduler::nodeUpdateFlags(*before, *after);
    return c;
}

bool queues(scheduler::PluginSet rejectedBy, const ClusterChange& c, const api::Pod& pending)
{
    return scheduler::mayMakeSchedulable(rejectedBy, c, pending);
}

} // namespace placement_hints_test

using namespace placement_hints_test;

TEST(PlacementHints, SpreadIsQueuedByAnAssignedPodItsHardConstraintSelects)
{
    const api::Pod pending = withSpread(labelled("p", { { "foo", "" } }), kHost, true, { { "foo", "" } });
    // "add pod with labels match topologySpreadConstraints selector": Queue.
    EXPECT_TRUE(
        queues(kSpread, podChange(Kind::AssignedPodAdded, labelled("a", { { "foo", "" } })), pending));
    // "add pod with labels not match topologySpreadConstraints selector": QueueSkip.
    EXPECT_FALSE(
        queues(kSpread, podChange(Kind::AssignedPodAdded, labelled("a", { { "bar", "" } })), pending));
    // "add pod in a different namespace": QueueSkip (involvedInTopologySpreading).
    EXPECT_FALSE(queues(
        kSpread, podChange(Kind::AssignedPodAdded, labelled("a", { { "foo", "" } }, "other")), pending));
    // "delete pod with labels that match" / "that don't match".
    EXPECT_TRUE(
        queues(kSpread, podChange(Kind::AssignedPodDeleted, labelled("a", { { "foo", "" } })), pending));
    EXPECT_FALSE(
        queues(kSpread, podChange(Kind::AssignedPodDeleted, labelled("a", { { "bar", "" } })), pending));
    // Any of several hard constraints is enough.
    const api::Pod two = withSpread(pending, kZone, true, { { "bar", "" } });
    EXPECT_TRUE(queues(kSpread, podChange(Kind::AssignedPodDeleted, labelled("a", { { "bar", "" } })), two));
}

TEST(PlacementHints, SpreadReadsOnlyTheHardConstraints)
{
    // getConstraints keeps DoNotSchedule only: a pod that matches a ScheduleAnyway selector alone
    // does not queue.
    const api::Pod pending = withSpread(
        withSpread(labelled("p", {}), kHost, true, { { "foo", "" } }), kZone, false, { { "bar", "" } });
    EXPECT_FALSE(
        queues(kSpread, podChange(Kind::AssignedPodAdded, labelled("a", { { "bar", "" } })), pending));
    // An empty selector is labels.Everything() for the hint (unlike the count, which skips it).
    api::Pod everything = withSpread(labelled("p", {}), kHost, true, {});
    EXPECT_TRUE(
        queues(kSpread, podChange(Kind::AssignedPodAdded, labelled("a", { { "x", "y" } })), everything));
}

TEST(PlacementHints, APodChangeWithoutThePodMayHelpBoth)
{
    const api::Pod pending = withSpread(labelled("p", {}), kHost, true, { { "foo", "" } });
    ClusterChange unknown;
    unknown.kind = Kind::AssignedPodDeleted;
    EXPECT_TRUE(queues(kSpread, unknown, pending));
    EXPECT_TRUE(queues(kAffinity, unknown, pending));
}

TEST(PlacementHints, SpreadNodeHintsLookForTheTopologyKeys)
{
    const api::Pod pending = withSpread(labelled("p", {}), kZone, true, { { "foo", "" } });
    const api::Node zoned = node("n", { { kZone, "a" } });
    const api::Node bare = node("n");
    // "node with the topologyKey label was added": Queue; "without": QueueSkip.
    EXPECT_TRUE(queues(kSpread, nodeChange(Kind::NodeAdded, &zoned), pending));
    EXPECT_FALSE(queues(kSpread, nodeChange(Kind::NodeAdded, &bare), pending));
    // "node with the topologyKey label was deleted": Queue; "without": QueueSkip.
    EXPECT_TRUE(queues(kSpread, nodeChange(Kind::NodeDeleted, nullptr, &zoned), pending));
    EXPECT_FALSE(queues(kSpread, nodeChange(Kind::NodeDeleted, nullptr, &bare), pending));
    // "add the topologyKey label" and "remove" it: Queue.
    EXPECT_TRUE(queues(kSpread, nodeChange(Kind::NodeUpdated, &zoned, &bare), pending));
    EXPECT_TRUE(queues(kSpread, nodeChange(Kind::NodeUpdated, &bare, &zoned), pending));
    // "change the topologyKey value": Queue; "change an unrelated label": QueueSkip.
    const api::Node otherZone = node("n", { { kZone, "b" } });
    EXPECT_TRUE(queues(kSpread, nodeChange(Kind::NodeUpdated, &otherZone, &zoned), pending));
    const api::Node extra = node("n", { { kZone, "a" }, { "extra", "1" } });
    EXPECT_FALSE(queues(kSpread, nodeChange(Kind::NodeUpdated, &extra, &zoned), pending));
    // "update node taints" of a node with the keys: Queue; a cordon alone changes no taint.
    api::Node tainted = zoned;
    tainted.taints.push_back(api::Taint { "k", "", "NoSchedule", "" });
    EXPECT_TRUE(queues(kSpread, nodeChange(Kind::NodeUpdated, &tainted, &zoned), pending));
    api::Node cordoned = zoned;
    cordoned.unschedulable = true;
    EXPECT_FALSE(queues(kSpread, nodeChange(Kind::NodeUpdated, &cordoned, &zoned), pending));
    // A ScheduleAnyway key is not asked for: the bare node has every hard key of this pod.
    const api::Pod soft = withSpread(
        withSpread(labelled("p", {}), kHost, true, { { "foo", "" } }), kZone, false, { { "foo", "" } });
    const api::Node hosted = node("n", { { kHost, "n" } });
    EXPECT_TRUE(queues(kSpread, nodeChange(Kind::NodeAdded, &hosted), soft));
}

// InterPodAffinity's node hint: a node added, or with its labels updated, that has the topology
// key of one of the pod's required affinity or anti-affinity terms; other node changes, and pods
// with no such terms of their own (turned away by running pods' anti-affinity), stay parked.
TEST(PlacementHints, AffinityNodeHintsLookForTheTermsTopologyKeys)
{
    const api::Node zoned = node("n", { { kZone, "a" } });
    const api::Node bare = node("n");
    const api::Node relabelled = node("n", { { kZone, "a" }, { "extra", "1" } });
    const api::Pod attracted = withAffinity(labelled("p", {}), term(kZone, { { "app", "db" } }));
    const api::Pod repelled = withAntiAffinity(labelled("p", {}), term(kZone, { { "app", "db" } }));
    for (const api::Pod* pending : { &attracted, &repelled }) {
        EXPECT_TRUE(queues(kAffinity, nodeChange(Kind::NodeAdded, &zoned), *pending));
        EXPECT_FALSE(queues(kAffinity, nodeChange(Kind::NodeAdded, &bare), *pending));
        EXPECT_TRUE(queues(kAffinity, nodeChange(Kind::NodeUpdated, &zoned, &bare), *pending));
        // The updated node is read as it is now, whatever changed among its labels.
        EXPECT_TRUE(queues(kAffinity, nodeChange(Kind::NodeUpdated, &relabelled, &zoned), *pending));
        EXPECT_FALSE(queues(kAffinity, nodeChange(Kind::NodeUpdated, &bare, &zoned), *pending));
        // Not registered: a node deleted, or updated without a label change.
        EXPECT_FALSE(queues(kAffinity, nodeChange(Kind::NodeDeleted, nullptr, &zoned), *pending));
        api::Node tainted = zoned;
        tainted.taints.push_back(api::Taint { "k", "", "NoSchedule", "" });
        EXPECT_FALSE(queues(kAffinity, nodeChange(Kind::NodeUpdated, &tainted, &zoned), *pending));
    }
    EXPECT_FALSE(queues(kAffinity, nodeChange(Kind::NodeAdded, &zoned), labelled("p", { { "app", "db" } })));
    // Without the node the change may help.
    EXPECT_TRUE(queues(kAffinity, nodeChange(Kind::NodeAdded, nullptr), attracted));
}

TEST(PlacementHints, AffinityIsQueuedByAnAddedPodThatMatchesAllItsRequiredTerms)
{
    const api::Pod pending
        = withAffinity(withAffinity(labelled("p", {}), term(kHost, { { "service", "securityscan" } })),
            term(kZone, { { "aaa", "a" } }));
    // "add a pod which matches the pod affinity": Queue.
    EXPECT_TRUE(queues(kAffinity,
        podChange(Kind::AssignedPodAdded, labelled("a", { { "service", "securityscan" }, { "aaa", "a" } })),
        pending));
    // Matching one term of two is not enough: one pod must satisfy all of them.
    EXPECT_FALSE(
        queues(kAffinity, podChange(Kind::AssignedPodAdded, labelled("a", { { "aaa", "a" } })), pending));
    // "add a pod which doesn't match the pod affinity" (another namespace than the terms'): QueueSkip.
    EXPECT_FALSE(queues(kAffinity,
        podChange(Kind::AssignedPodAdded,
            labelled("a", { { "service", "securityscan" }, { "aaa", "a" } }, "other")),
        pending));
    // A pod without required affinity terms is not helped by an added pod.
    const api::Pod anti = withAntiAffinity(labelled("p", {}), term(kHost, { { "aaa", "a" } }));
    EXPECT_FALSE(
        queues(kAffinity, podChange(Kind::AssignedPodAdded, labelled("a", { { "aaa", "a" } })), anti));
}

TEST(PlacementHints, AffinityIsQueuedByADeletedPodThatRepelledIt)
{
    const api::Pod pending
        = withAntiAffinity(withAntiAffinity(labelled("p", {}), term(kHost, { { "aaa", "a" } })),
            term(kZone, { { "bbb", "b" } }));
    // "delete a pod which matches the pod's anti-affinity": Queue; one term of two suffices
    // (kubernetes/kubernetes#139161).
    EXPECT_TRUE(
        queues(kAffinity, podChange(Kind::AssignedPodDeleted, labelled("a", { { "aaa", "a" } })), pending));
    // "delete a pod which doesn't match the pod's anti-affinity": QueueSkip.
    EXPECT_FALSE(
        queues(kAffinity, podChange(Kind::AssignedPodDeleted, labelled("a", { { "ccc", "c" } })), pending));
    // A deleted pod whose own anti-affinity selects the pending pod: Queue (#135325).
    const api::Pod plain = labelled("p", { { "app", "db" } });
    const api::Pod hater = withAntiAffinity(labelled("h", {}), term(kHost, { { "app", "db" } }));
    EXPECT_TRUE(queues(kAffinity, podChange(Kind::AssignedPodDeleted, hater), plain));
    EXPECT_FALSE(queues(kAffinity, podChange(Kind::AssignedPodDeleted, labelled("h", {})), plain));
    // A deleted pod that satisfied the pending pod's affinity is not looked at (#141354 open).
    const api::Pod follower = withAffinity(labelled("p", {}), term(kHost, { { "app", "db" } }));
    EXPECT_FALSE(queues(kAffinity, podChange(Kind::AssignedPodDeleted, plain), follower));
}

TEST(PlacementHints, OtherPluginsStillDecideForThemselves)
{
    // NodeResourcesFit queues every deleted pod, whatever its labels; the pod hints only narrow
    // PodTopologySpread's and InterPodAffinity's own.
    const api::Pod pending = withSpread(labelled("p", {}), kHost, true, { { "foo", "" } });
    const ClusterChange gone = podChange(Kind::AssignedPodDeleted, labelled("a", { { "bar", "" } }));
    EXPECT_TRUE(queues(kSpread | pluginBit(HintPlugin::NodeResourcesFit), gone, pending));
    EXPECT_FALSE(queues(kSpread | pluginBit(HintPlugin::DynamicResources), gone, pending));
}
