// SPDX-License-Identifier: Apache-2.0
// Queueing hints: which plugins a failed cycle names, which changes the cluster reports, and which
// of those may make the pod schedulable, per plugin as upstream registers them (EventsToRegister)
// and answers (isSchedulableAfter*): cases rewritten from the plugins' hint tests, expectations
// worked out from the rules first.
#include <gtest/gtest.h>

#include "core/scheduler/cluster.h"
#include "tests/unit/allocator/fixtures.h"

using namespace drasim;
using namespace drasim::testing;
using scheduler::ClusterChange;
using scheduler::HintPlugin;
using scheduler::pluginBit;

namespace queueing_hints_test {

using Kind = ClusterChange::Kind;

/// Two nodes of 8 cpu: "gpu-node" with one GPU, "cpu-node" labelled pool=cpu without devices.
api::ObjectSet twoNodes()
{
    api::ObjectSet o;
    addOneGpuClassAndTemplate(o);
    o.nodes.push_back(node("gpu-node", { { "pool", "gpu" } }));
    o.nodes.push_back(node("cpu-node", { { "pool", "cpu" } }));
    o.resourceSlices.push_back(slice("gpu-node-gpu", kDrv, "gpu-node", "gpu-node", { device("gpu-0") }));
    return o;
}

api::Pod gpuPod(const std::string& name)
{
    return pod(name, {}, { { "gpu", "one-gpu" } });
}

api::Pod withCpu(api::Pod p, const std::string& cpu)
{
    p.spec.containers.front().resources.requests["cpu"] = q(cpu);
    return p;
}

ClusterChange nodeChange(Kind kind, const api::Node& after, const api::Node* before = nullptr)
{
    ClusterChange c;
    c.kind = kind;
    c.node = std::make_shared<const api::Node>(after);
    if (before) {
        c.oldNode = std::make_shared<const api::Node>(*before);
        c.flags = scheduler::nodeUpdateFlags(*before, after);
    }
    return c;
}

std::vector<ClusterChange> taken(scheduler::Cluster& cluster)
{
    std::vector<ClusterChange> out;
    cluster.takeChanges(out);
    return out;
}

ClusterChange podGone(bool deallocated)
{
    ClusterChange c;
    c.kind = Kind::AssignedPodDeleted;
    c.flags = deallocated ? ClusterChange::ClaimsDeallocated : 0;
    return c;
}

} // namespace queueing_hints_test

using namespace queueing_hints_test;

TEST(QueueingHints, EachReasonIsWordedByItsPlugin)
{
    using scheduler::pluginOfReason;
    EXPECT_EQ(pluginOfReason("node(s) were unschedulable"), HintPlugin::NodeUnschedulable);
    EXPECT_EQ(pluginOfReason("node(s) had untolerated taint {gpu: busy}"), HintPlugin::TaintToleration);
    EXPECT_EQ(pluginOfReason("node(s) didn't match Pod's node affinity/selector"), HintPlugin::NodeAffinity);
    EXPECT_EQ(pluginOfReason("Insufficient cpu"), HintPlugin::NodeResourcesFit);
    EXPECT_EQ(pluginOfReason("Insufficient nvidia.com/gpu"), HintPlugin::NodeResourcesFit);
    EXPECT_EQ(pluginOfReason("Too many pods"), HintPlugin::NodeResourcesFit);
    EXPECT_EQ(pluginOfReason("node(s) didn't match pod topology spread constraints (missing required label)"),
        HintPlugin::PodTopologySpread);
    EXPECT_EQ(pluginOfReason("node(s) didn't satisfy existing pods anti-affinity rules"),
        HintPlugin::InterPodAffinity);
    EXPECT_EQ(pluginOfReason("cannot allocate all claims"), HintPlugin::DynamicResources);
    EXPECT_STREQ(scheduler::hintPluginName(HintPlugin::InterPodAffinity), "InterPodAffinity");
}

TEST(QueueingHints, AFailedCycleNamesEveryPluginThatRejectedANode)
{
    scheduler::Cluster cluster(twoNodes());
    // The GPU node has the device but not the cpu; the cpu node has neither the device nor the label.
    api::Pod p = withCpu(gpuPod("p"), "16");
    p.spec.nodeSelector["pool"] = "gpu";
    auto r = cluster.schedule(p);
    ASSERT_FALSE(r.scheduled);
    EXPECT_EQ(
        r.unschedulablePlugins, pluginBit(HintPlugin::NodeAffinity) | pluginBit(HintPlugin::NodeResourcesFit))
        << r.message;

    // Only devices are missing: DynamicResources alone (the cpu node is rejected by it too).
    ASSERT_TRUE(cluster.schedule(gpuPod("first")).scheduled);
    r = cluster.schedule(gpuPod("second"));
    ASSERT_FALSE(r.scheduled);
    EXPECT_EQ(r.unschedulablePlugins, pluginBit(HintPlugin::DynamicResources)) << r.message;

    // A missing template is DynamicResources' PreEnqueue verdict.
    r = cluster.schedule(pod("orphan", {}, { { "gpu", "no-such-template" } }));
    ASSERT_FALSE(r.scheduled);
    EXPECT_EQ(r.unschedulablePlugins, pluginBit(HintPlugin::DynamicResources)) << r.message;
}

TEST(QueueingHints, TheClusterReportsItsChangesOnceAsked)
{
    scheduler::Cluster cluster(twoNodes());
    ASSERT_TRUE(cluster.schedule(gpuPod("before")).scheduled);
    EXPECT_TRUE(taken(cluster).empty()); // nothing is recorded before the first call

    ASSERT_TRUE(cluster.schedule(pod("plain")).scheduled);
    cluster.podFinished("default/plain");
    cluster.podFinished("default/before");
    api::Node tainted = node("cpu-node", { { "pool", "cpu" } });
    tainted.taints.push_back(api::Taint { "maintenance", "", "NoSchedule", "" });
    cluster.addNode(tainted);
    cluster.addNode(node("new-node"));
    auto changes = taken(cluster);
    ASSERT_EQ(changes.size(), 5u);
    EXPECT_EQ(changes[0].kind, Kind::AssignedPodAdded);
    EXPECT_EQ(changes[1].kind, Kind::AssignedPodDeleted);
    EXPECT_EQ(changes[1].flags, 0); // no claim
    EXPECT_EQ(changes[2].kind, Kind::AssignedPodDeleted);
    EXPECT_EQ(changes[2].flags, ClusterChange::ClaimsDeallocated);
    EXPECT_EQ(changes[3].kind, Kind::NodeUpdated);
    EXPECT_EQ(changes[3].flags, ClusterChange::TaintsChanged);
    ASSERT_TRUE(changes[3].oldNode);
    EXPECT_TRUE(changes[3].oldNode->taints.empty());
    EXPECT_EQ(changes[4].kind, Kind::NodeAdded);
    EXPECT_TRUE(taken(cluster).empty());
    // The pod changes carry the pod as the placement hints read it, the node deletion the node.
    ASSERT_TRUE(changes[0].pod);
    EXPECT_EQ(changes[0].pod->ns, "default");
    ASSERT_TRUE(changes[2].pod);
    cluster.removeNode("new-node");
    changes = taken(cluster);
    ASSERT_EQ(changes.size(), 1u);
    EXPECT_EQ(changes[0].kind, Kind::NodeDeleted);
    ASSERT_TRUE(changes[0].oldNode);
    EXPECT_EQ(changes[0].oldNode->meta.name, "new-node");
}

TEST(QueueingHints, ARolledBackTransactionLeavesNoChangeBehind)
{
    scheduler::Cluster cluster(twoNodes());
    taken(cluster);
    cluster.beginTransaction();
    ASSERT_TRUE(cluster.schedule(gpuPod("tried")).scheduled);
    cluster.podFinished("default/tried");
    cluster.rollbackTransaction();
    EXPECT_TRUE(taken(cluster).empty());
}

TEST(QueueingHints, DynamicResourcesIsQueuedByADeallocatedClaimNotByAnEndingPod)
{
    const api::Pod p = gpuPod("p");
    const auto dra = pluginBit(HintPlugin::DynamicResources);
    EXPECT_FALSE(scheduler::mayMakeSchedulable(dra, podGone(false), p));
    EXPECT_TRUE(scheduler::mayMakeSchedulable(dra, podGone(true), p));
    ClusterChange slice;
    slice.kind = Kind::SliceChanged;
    EXPECT_TRUE(scheduler::mayMakeSchedulable(dra, slice, p));
    // NodeResourcesFit: any assigned pod that goes away may free what the pod asks for.
    EXPECT_TRUE(scheduler::mayMakeSchedulable(pluginBit(HintPlugin::NodeResourcesFit), podGone(false), p));
    // A pod no plugin is known to have rejected is moved by every change.
    EXPECT_TRUE(scheduler::mayMakeSchedulable(0, podGone(false), p));
    // A binding helps only the plugins that count pods.
    ClusterChange bound;
    bound.kind = Kind::AssignedPodAdded;
    EXPECT_FALSE(scheduler::mayMakeSchedulable(dra | pluginBit(HintPlugin::NodeResourcesFit), bound, p));
    EXPECT_TRUE(scheduler::mayMakeSchedulable(pluginBit(HintPlugin::InterPodAffinity), bound, p));
}

TEST(QueueingHints, NodeAffinityIsQueuedByANodeThatNowMatches)
{
    api::Pod p = pod("p");
    p.spec.nodeSelector["pool"] = "gpu";
    const auto affinity = pluginBit(HintPlugin::NodeAffinity);
    EXPECT_FALSE(scheduler::mayMakeSchedulable(
        affinity, nodeChange(Kind::NodeAdded, node("x", { { "pool", "cpu" } })), p));
    EXPECT_TRUE(scheduler::mayMakeSchedulable(
        affinity, nodeChange(Kind::NodeAdded, node("x", { { "pool", "gpu" } })), p));
    const api::Node before = node("x", { { "pool", "cpu" } });
    const api::Node relabelled = node("x", { { "pool", "gpu" } });
    EXPECT_TRUE(
        scheduler::mayMakeSchedulable(affinity, nodeChange(Kind::NodeUpdated, relabelled, &before), p));
    // A node that matched before and still does: its update cannot be what the pod waits for.
    api::Node more = relabelled;
    more.meta.labels["extra"] = "1";
    EXPECT_FALSE(
        scheduler::mayMakeSchedulable(affinity, nodeChange(Kind::NodeUpdated, more, &relabelled), p));
    // A taint change is not NodeAffinity's event.
    api::Node tainted = before;
    tainted.taints.push_back(api::Taint { "k", "", "NoSchedule", "" });
    EXPECT_FALSE(scheduler::mayMakeSchedulable(affinity, nodeChange(Kind::NodeUpdated, tainted, &before), p));
}

TEST(QueueingHints, TaintTolerationIsQueuedWhenAnUntoleratedTaintGoes)
{
    const api::Pod p = pod("p");
    const auto taints = pluginBit(HintPlugin::TaintToleration);
    api::Node tainted = node("x");
    tainted.taints.push_back(api::Taint { "gpu", "busy", "NoSchedule", "" });
    const api::Node clean = node("x");
    EXPECT_TRUE(scheduler::mayMakeSchedulable(taints, nodeChange(Kind::NodeUpdated, clean, &tainted), p));
    EXPECT_FALSE(scheduler::mayMakeSchedulable(taints, nodeChange(Kind::NodeUpdated, tainted, &clean), p));
    EXPECT_FALSE(scheduler::mayMakeSchedulable(taints, nodeChange(Kind::NodeAdded, tainted), p));
    // A PreferNoSchedule taint never rejected anything.
    api::Node soft = node("x");
    soft.taints.push_back(api::Taint { "gpu", "busy", "PreferNoSchedule", "" });
    EXPECT_TRUE(scheduler::mayMakeSchedulable(taints, nodeChange(Kind::NodeAdded, soft), p));
    // NodeUnschedulable: a cordoned node that is uncordoned.
    api::Node cordoned = node("x");
    cordoned.unschedulable = true;
    EXPECT_TRUE(scheduler::mayMakeSchedulable(
        pluginBit(HintPlugin::NodeUnschedulable), nodeChange(Kind::NodeUpdated, clean, &cordoned), p));
    EXPECT_FALSE(scheduler::mayMakeSchedulable(
        pluginBit(HintPlugin::NodeUnschedulable), nodeChange(Kind::NodeAdded, cordoned), p));
}

TEST(QueueingHints, NodeResourcesFitIsQueuedByANodeLargeEnough)
{
    const api::Pod p = withCpu(pod("p"), "16");
    const auto fit = pluginBit(HintPlugin::NodeResourcesFit);
    EXPECT_FALSE(scheduler::mayMakeSchedulable(fit, nodeChange(Kind::NodeAdded, node("small", {}, "8")), p));
    EXPECT_TRUE(scheduler::mayMakeSchedulable(fit, nodeChange(Kind::NodeAdded, node("big", {}, "32")), p));
    const api::Node small = node("x", {}, "8");
    const api::Node grown = node("x", {}, "32");
    EXPECT_TRUE(scheduler::mayMakeSchedulable(fit, nodeChange(Kind::NodeUpdated, grown, &small), p));
    EXPECT_FALSE(scheduler::mayMakeSchedulable(fit, nodeChange(Kind::NodeUpdated, small, &grown), p));
    // DynamicResources registers Node/Add without a hint.
    EXPECT_TRUE(scheduler::mayMakeSchedulable(
        pluginBit(HintPlugin::DynamicResources), nodeChange(Kind::NodeAdded, node("small", {}, "8")), p));
}
