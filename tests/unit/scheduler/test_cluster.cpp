// SPDX-License-Identifier: Apache-2.0
// The Cluster interface the simulator drives: lifecycle of claims and pods, node and taint
// changes, metrics, explain, scoring policies, determinism.
#include <optional>
#include <set>

#include <gtest/gtest.h>

#include "core/scheduler/cluster.h"
#include "tests/unit/allocator/fixtures.h"

using namespace drasim;
using namespace drasim::testing;
using scheduler::Cluster;

namespace {

api::ResourceClaimTemplate oneGpuTemplate(const std::string& cls = "gpu")
{
    api::ResourceClaimTemplate t;
    t.meta.name = "one-gpu";
    t.meta.namespace_ = "default";
    t.spec.requests.push_back(exactRequest("gpu", requestSpec(cls)));
    return t;
}

/// nodes × devices node-local GPUs, a class, the one-gpu template.
api::ObjectSet gpuCluster(int nodes, int devices)
{
    api::ObjectSet o;
    for (int n = 0; n < nodes; ++n) {
        std::string name = numbered("node-", n);
        o.nodes.push_back(node(name));
        std::vector<api::Device> devs;
        for (int d = 0; d < devices; ++d)
            devs.push_back(device(numbered("gpu-", d)));
        o.resourceSlices.push_back(slice(name + "-gpus", kDrv, name, name, devs));
    }
    o.deviceClasses.push_back(deviceClass("gpu", { "device.driver == \"gpu.example.com\"" }));
    o.resourceClaimTemplates.push_back(oneGpuTemplate());
    return o;
}

api::Pod templatePod(const std::string& name)
{
    return pod(name, {}, { { "gpu", "one-gpu" } });
}

} // namespace

TEST(Cluster, PodFinishedReleasesDevicesAndDeletesGeneratedClaims)
{
    Cluster c(gpuCluster(1, 1));
    auto r1 = c.schedule(templatePod("p1"));
    ASSERT_TRUE(r1.scheduled) << r1.message;
    ASSERT_EQ(r1.allocated.size(), 1u);
    EXPECT_EQ(r1.allocated[0].claim, "default/p1-gpu");
    EXPECT_EQ(r1.allocated[0].device, "gpu-0");
    EXPECT_EQ(r1.allocated[0].node, "node-0");
    auto r2 = c.schedule(templatePod("p2"));
    EXPECT_FALSE(r2.scheduled);
    EXPECT_EQ(r2.failure, scheduler::FailureKind::Unschedulable);
    EXPECT_EQ(r2.message, "0/1 nodes are available: 1 cannot allocate all claims.");
    const auto before = c.freeEventCount();
    EXPECT_TRUE(c.podFinished("default/p1"));
    EXPECT_GT(c.freeEventCount(), before);
    EXPECT_EQ(c.findClaim("default/p1-gpu"), nullptr);
    EXPECT_EQ(c.findBoundPod("default/p1"), nullptr);
    auto again = c.schedule(templatePod("p2"));
    EXPECT_TRUE(again.scheduled) << again.message;
    EXPECT_FALSE(c.podFinished("default/nobody"));
}

TEST(Cluster, SharedClaimIsDeallocatedWhenTheLastPodEnds)
{
    auto o = gpuCluster(2, 1);
    o.resourceClaims.push_back(claim("shared", { exactRequest("gpu", requestSpec("gpu")) }));
    Cluster c(std::move(o));
    auto a = c.schedule(pod("a", { { "g", "shared" } }));
    auto b = c.schedule(pod("b", { { "g", "shared" } }));
    ASSERT_TRUE(a.scheduled && b.scheduled);
    EXPECT_EQ(a.nodeName, b.nodeName);
    EXPECT_TRUE(b.allocated.empty()) << "the second pod reuses the allocation";
    const auto* cl = c.findClaim("default/shared");
    ASSERT_TRUE(cl && cl->allocation);
    ASSERT_EQ(cl->reservedFor.size(), 2u);
    c.podFinished("default/a");
    cl = c.findClaim("default/shared");
    ASSERT_TRUE(cl->allocation) << "still reserved by b";
    c.podFinished("default/b");
    cl = c.findClaim("default/shared");
    ASSERT_NE(cl, nullptr) << "input claims are not deleted";
    EXPECT_FALSE(cl->allocation);
    EXPECT_TRUE(cl->meta.finalizers.empty());
}

TEST(Cluster, AlreadyBoundPodIsRejected)
{
    Cluster c(gpuCluster(1, 2));
    ASSERT_TRUE(c.schedule(templatePod("p")).scheduled);
    auto r = c.schedule(templatePod("p"));
    EXPECT_FALSE(r.scheduled);
    EXPECT_EQ(r.failure, scheduler::FailureKind::AlreadyBound);
}

TEST(Cluster, RemoveNodeEvictsItsPodsAndAddNodeAddsCapacity)
{
    Cluster c(gpuCluster(1, 1));
    ASSERT_TRUE(c.schedule(templatePod("p1")).scheduled);
    auto evicted = c.removeNode("node-0");
    EXPECT_EQ(evicted, std::vector<std::string>({ "default/p1" }));
    EXPECT_TRUE(c.nodes().empty());
    EXPECT_TRUE(c.deviceUsage().empty());
    auto r = c.schedule(templatePod("p2"));
    EXPECT_EQ(r.message, "no nodes available to schedule pods");
    const auto before = c.freeEventCount();
    c.addNode(node("node-9"), { slice("node-9-gpus", kDrv, "node-9", "node-9", { device("gpu-0") }) });
    EXPECT_GT(c.freeEventCount(), before);
    auto r2 = c.schedule(templatePod("p2"));
    ASSERT_TRUE(r2.scheduled) << r2.message;
    EXPECT_EQ(r2.nodeName, "node-9");
}

TEST(Cluster, DeviceTaints)
{
    Cluster c(gpuCluster(1, 1));
    ASSERT_TRUE(c.schedule(templatePod("p1")).scheduled);
    scheduler::DeviceRef ref { kDrv, "node-0", "gpu-0" };
    auto evict = c.setDeviceTaint(ref, api::DeviceTaint { "broken", "", "NoExecute", "" });
    EXPECT_EQ(evict, std::vector<std::string>({ "default/p1" }));
    c.podFinished("default/p1");
    auto r = c.schedule(templatePod("p2"));
    EXPECT_FALSE(r.scheduled) << "the tainted device is not offered";
    EXPECT_TRUE(c.removeDeviceTaint(ref, "broken"));
    EXPECT_TRUE(c.schedule(templatePod("p2")).scheduled);
    auto none = c.setDeviceTaint(ref, api::DeviceTaint { "soon", "", "NoSchedule", "" });
    EXPECT_TRUE(none.empty()) << "NoSchedule never evicts";
}

TEST(Cluster, DeviceUsageCountsAllocatedDevices)
{
    Cluster c(gpuCluster(2, 2));
    ASSERT_TRUE(c.schedule(templatePod("p1")).scheduled);
    auto u = c.deviceUsage();
    ASSERT_EQ(u.size(), 2u);
    EXPECT_EQ(u[0].node, "node-0");
    EXPECT_EQ(u[0].total, 2u);
    EXPECT_EQ(u[0].allocated + u[1].allocated, 1u);
}

TEST(Cluster, ScoringPolicies)
{
    scheduler::SchedulerOptions pack;
    pack.scoring = scheduler::ScoringPolicy::MostAllocated;
    Cluster packed(gpuCluster(3, 4), pack);
    Cluster spread(gpuCluster(3, 4));
    std::set<std::string> packedNodes, spreadNodes;
    for (int i = 0; i < 3; ++i) {
        packedNodes.insert(packed.schedule(templatePod(numbered("p", i))).nodeName);
        spreadNodes.insert(spread.schedule(templatePod(numbered("p", i))).nodeName);
    }
    EXPECT_EQ(packedNodes.size(), 1u) << "most-allocated packs";
    EXPECT_EQ(spreadNodes.size(), 3u) << "least-allocated spreads";
    EXPECT_EQ(scheduler::parseScoringPolicy("bin-packing"), scheduler::ScoringPolicy::MostAllocated);
    EXPECT_FALSE(scheduler::parseScoringPolicy("spread-evenly"));
}

TEST(Cluster, ShareIdsAreDeterministicPerSeed)
{
    auto build = [] {
        api::ObjectSet o;
        o.nodes.push_back(node("n"));
        auto d = device("nic");
        d.allowMultipleAllocations = true;
        o.resourceSlices.push_back(slice("s", "nic.example.com", "p", "n", { d }));
        o.deviceClasses.push_back(deviceClass("nic"));
        o.resourceClaimTemplates.push_back(oneGpuTemplate("nic"));
        return o;
    };
    auto ids = [&](uint64_t seed) {
        scheduler::SchedulerOptions opt;
        opt.seed = seed;
        Cluster c(build(), opt);
        std::vector<std::string> out;
        for (int i = 0; i < 3; ++i) {
            auto r = c.schedule(templatePod(numbered("p", i)));
            EXPECT_TRUE(r.scheduled);
            EXPECT_TRUE(r.allocated.at(0).shared);
            out.push_back(*c.findClaim(r.claims.at(0))->allocation->results.at(0).shareID);
        }
        return out;
    };
    auto a = ids(1), b = ids(1), other = ids(2);
    EXPECT_EQ(a, b);
    EXPECT_NE(a, other);
    EXPECT_NE(a[0], a[1]);
    EXPECT_EQ(a[0].size(), 36u);
    EXPECT_EQ(a[0][14], '4') << "version 4 UUID shape";
}

TEST(Cluster, ExplainCountsRejectionReasons)
{
    auto o = gpuCluster(2, 2);
    o.nodes[1].taints.push_back(api::Taint { "dedicated", "x", "NoSchedule", "" });
    o.deviceClasses.push_back(deviceClass("a100", { "device.driver == \"gpu.example.com\"", "false" }));
    Cluster c(std::move(o));
    ASSERT_TRUE(c.schedule(templatePod("p1")).scheduled);
    auto p = pod("p2", {}, { { "gpu", "one-gpu" } });
    auto r = c.schedule(p, true);
    ASSERT_TRUE(r.diagnosis);
    EXPECT_TRUE(r.diagnosis->scheduled);
    const auto& nodes = r.diagnosis->nodes;
    ASSERT_EQ(nodes.size(), 2u);
    EXPECT_EQ(
        nodes[1].nodeReasons, std::vector<std::string>({ "node(s) had untolerated taint {dedicated: x}" }));
    ASSERT_EQ(nodes[0].claims.size(), 1u);
    const auto& req = nodes[0].claims[0].requests.at(0);
    EXPECT_EQ(req.visible, 2u);
    EXPECT_EQ(req.eligible, 1u);
    EXPECT_EQ(req.rejected[size_t(scheduler::DeviceRejectReason::InUse)], 1u);
    auto text = scheduler::formatText(*r.diagnosis);
    EXPECT_NE(text.find("1 of 2 devices eligible; rejected: 1 in_use"), std::string::npos) << text;
}

TEST(Cluster, ExplainOfPendingPodShowsSelectorRejections)
{
    auto o = gpuCluster(1, 2);
    o.resourceClaims.push_back(claim("c",
        { exactRequest(
            "gpu", requestSpec("gpu", 1, { "device.attributes[\"gpu.example.com\"].size > 1" })) }));
    for (auto& d : o.resourceSlices[0].devices)
        d.attributes["size"] = intAttr(1);
    Cluster c(std::move(o));
    auto r = c.schedule(pod("p", { { "g", "c" } }), true);
    EXPECT_FALSE(r.scheduled);
    ASSERT_TRUE(r.diagnosis);
    EXPECT_EQ(r.diagnosis->message, "0/1 nodes are available: 1 cannot allocate all claims.");
    const auto& req = r.diagnosis->nodes.at(0).claims.at(0).requests.at(0);
    EXPECT_EQ(req.rejected[size_t(scheduler::DeviceRejectReason::RequestSelectorFalse)], 2u);
    auto data = scheduler::toData(*r.diagnosis);
    EXPECT_NE(toJson(data, 0).find("\"request_selector_false\":2"), std::string::npos) << toJson(data, 0);
}

TEST(Cluster, ClaimsListKeepsInputThenCreationOrder)
{
    auto o = gpuCluster(1, 4);
    o.resourceClaims.push_back(claim("zz", { exactRequest("gpu", requestSpec("gpu")) }));
    o.resourceClaims.push_back(claim("aa", { exactRequest("gpu", requestSpec("gpu")) }));
    Cluster c(std::move(o));
    c.schedule(templatePod("p"));
    auto list = c.claims();
    ASSERT_EQ(list.size(), 3u);
    EXPECT_EQ(list[0]->meta.name, "zz");
    EXPECT_EQ(list[1]->meta.name, "aa");
    EXPECT_EQ(list[2]->meta.name, "p-gpu");
}

TEST(Cluster, InvalidSelectorIsADiagnostic)
{
    auto o = gpuCluster(1, 1);
    o.deviceClasses.push_back(deviceClass("bad", { "device.nope(" }));
    Cluster c(std::move(o));
    ASSERT_TRUE(c.diagnostics().hasErrors());
    EXPECT_NE(c.diagnostics().formatAll().find(
                  "DeviceClass bad: spec.selectors[0].cel.expression: compilation failed"),
        std::string::npos)
        << c.diagnostics().formatAll();
}

TEST(Cluster, RepublishedSlicesAreJudgedAfresh)
{
    api::ObjectSet o;
    o.nodes.push_back(node("n"));
    auto bad = device(
        "gpu-0", { { "ok", api::DeviceAttribute { api::DeviceAttribute::Type::Bool, 0, false, "" } } });
    o.resourceSlices.push_back(slice("s", kDrv, "n", "n", { bad }));
    o.deviceClasses.push_back(deviceClass("gpu", { "device.attributes[\"gpu.example.com\"].ok" }));
    o.resourceClaimTemplates.push_back(oneGpuTemplate());
    Cluster c(std::move(o));
    EXPECT_FALSE(c.schedule(templatePod("p1")).scheduled);
    auto good = bad;
    good.attributes["ok"].boolValue = true;
    c.addResourceSlice(slice("s", kDrv, "n", "n", { good }));
    auto r = c.schedule(templatePod("p1"));
    EXPECT_TRUE(r.scheduled) << r.message;
    // Same device name again, now without the attribute: the selector errors.
    c.removeNode("n");
    c.addNode(node("n"), { slice("s", kDrv, "n", "n", { device("gpu-0") }) });
    auto e = c.schedule(templatePod("p2"));
    EXPECT_EQ(e.failure, scheduler::FailureKind::AllocatorError);
    EXPECT_NE(e.message.find("CEL runtime error"), std::string::npos) << e.message;
}

namespace {

/// A slice of pool "n" (node n) in the given generation with one device gpu-0 whose "ok"
/// attribute is set to ok, or missing when ok is absent.
api::ResourceSlice generationSlice(const std::string& name, int64_t generation, std::optional<bool> ok)
{
    std::map<std::string, api::DeviceAttribute> attrs;
    if (ok)
        attrs["ok"] = api::DeviceAttribute { api::DeviceAttribute::Type::Bool, 0, *ok, "" };
    auto s = slice(name, kDrv, "n", "n", { device("gpu-0", attrs) });
    s.pool.generation = generation;
    return s;
}

api::ObjectSet okCluster()
{
    api::ObjectSet o;
    o.nodes.push_back(node("n"));
    o.deviceClasses.push_back(deviceClass("gpu", { "device.attributes[\"gpu.example.com\"].ok" }));
    o.resourceClaimTemplates.push_back(oneGpuTemplate());
    return o;
}

} // namespace

// A driver republishes its pool in a new generation under new slice names while the outdated
// slices are still listed: only the newest generation exists, whichever slice name sorts first.
TEST(Cluster, RepublishedGenerationUnderOtherSliceNamesDecides)
{
    for (const char* newName : { "a-new", "z-new" }) {
        Cluster c(okCluster());
        c.addResourceSlice(generationSlice("m-old", 1, false));
        EXPECT_FALSE(c.schedule(templatePod("p1")).scheduled);
        c.addResourceSlice(generationSlice(newName, 2, true));
        auto r = c.schedule(templatePod("p1"));
        EXPECT_TRUE(r.scheduled) << newName << ": " << r.message;
        // One device exists, not two: the outdated gpu-0 is not counted.
        auto u = c.deviceUsage();
        ASSERT_EQ(u.size(), 1u);
        EXPECT_EQ(u[0].total, 1u);
        EXPECT_EQ(u[0].allocated, 1u);
    }
}

TEST(Cluster, OutdatedGenerationRaisesNoCelError)
{
    for (const char* oldName : { "a-old", "z-old" }) {
        auto o = okCluster();
        o.resourceSlices.push_back(generationSlice(oldName, 1, std::nullopt));
        o.resourceSlices.push_back(generationSlice("m-new", 2, true));
        Cluster c(std::move(o));
        auto r = c.schedule(templatePod("p1"));
        EXPECT_TRUE(r.scheduled) << oldName << ": " << r.message;
    }
    // The other way round the current device raises the error, even after the old one matched.
    auto o = okCluster();
    o.resourceSlices.push_back(generationSlice("a-old", 1, true));
    o.resourceSlices.push_back(generationSlice("m-new", 2, std::nullopt));
    Cluster c(std::move(o));
    auto r = c.schedule(templatePod("p1"));
    EXPECT_EQ(r.failure, scheduler::FailureKind::AllocatorError);
    EXPECT_NE(r.message.find("no such key: ok"), std::string::npos) << r.message;
}

// allocate and explain judge the same device (explain must not be the only one to see the
// current generation).
TEST(Cluster, ExplainAndAllocateAgreeAcrossGenerations)
{
    auto o = okCluster();
    o.resourceSlices.push_back(generationSlice("a-old", 1, false));
    o.resourceSlices.push_back(generationSlice("m-new", 2, true));
    Cluster plain(o);
    Cluster explained(std::move(o));
    auto a = plain.schedule(templatePod("p1"));
    auto e = explained.schedule(templatePod("p1"), true);
    EXPECT_TRUE(a.scheduled) << a.message;
    EXPECT_EQ(a.scheduled, e.scheduled);
    EXPECT_EQ(a.nodeName, e.nodeName);
}

// The API server keeps at most 256 consumers in reservedFor (§2.4, §3.14); PreBind's update for a
// 257th pod is refused, the pod stays pending with that error and binds once a consumer ends.
TEST(Cluster, SharedClaimTakesAtMost256Consumers)
{
    auto o = gpuCluster(1, 1);
    o.nodes[0].allocatable["pods"] = Quantity::fromInt(300);
    o.nodes[0].capacity["pods"] = Quantity::fromInt(300);
    o.resourceClaims.push_back(claim("shared", { exactRequest("gpu", requestSpec("gpu")) }));
    Cluster c(std::move(o));
    for (int i = 0; i < 256; ++i) {
        auto r = c.schedule(pod(numbered("p-", i), { { "g", "shared" } }));
        ASSERT_TRUE(r.scheduled) << i << ": " << r.message;
    }
    auto late = c.schedule(pod("late", { { "g", "shared" } }));
    EXPECT_FALSE(late.scheduled);
    EXPECT_EQ(late.failure, scheduler::FailureKind::PreBind);
    EXPECT_EQ(late.message,
        "running PreBind plugin \"DynamicResources\": add reservation to claim default/shared: "
        "ResourceClaim.resource.k8s.io \"shared\" is invalid: status.reservedFor: Too many: 257: must have "
        "at "
        "most 256 items");
    EXPECT_EQ(c.findClaim("default/shared")->reservedFor.size(), 256u)
        << "the refused update changes nothing";
    ASSERT_TRUE(c.podFinished("default/" + numbered("p-", 7)));
    auto retried = c.schedule(pod("late", { { "g", "shared" } }));
    EXPECT_TRUE(retried.scheduled) << retried.message;
    EXPECT_EQ(c.findClaim("default/shared")->reservedFor.size(), 256u);
}

TEST(Cluster, ADuplicateNodeNameIsWarnedAtEachLaterDefinitionAndTheLastWins)
{
    api::ObjectSet o;
    const char* cpus[] = { "1", "2", "3", "4" };
    const char* names[] = { "b", "a", "b", "b" };
    for (int i = 0; i < 4; ++i) {
        o.nodes.push_back(node(names[i], {}, cpus[i]));
        o.nodes.back().meta.pos.line = i + 1;
    }
    Cluster c(std::move(o));
    std::vector<int> warnedAt;
    for (const auto& d : c.diagnostics().all()) {
        EXPECT_EQ(d.message, "duplicate node name; the later definition wins");
        EXPECT_EQ(d.objectName, "b");
        warnedAt.push_back(d.pos.line);
    }
    EXPECT_EQ(warnedAt, (std::vector<int> { 3, 4 }));
    const auto nodes = c.nodes();
    ASSERT_EQ(nodes.size(), 2u);
    EXPECT_EQ(nodes[0]->meta.name, "a");
    EXPECT_EQ(nodes[0]->allocatable.at("cpu").milliValue(), 2000);
    EXPECT_EQ(nodes[1]->meta.name, "b");
    EXPECT_EQ(nodes[1]->allocatable.at("cpu").milliValue(), 4000);
}
