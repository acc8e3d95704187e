// SPDX-License-Identifier: Apache-2.0
// Extended resources backed by DRA: the special claim's life in the Cluster (created at binding,
// released with the pod), the feature gate, pods bound before the dump, explain, class lookup, and
// laws of the per-container requests over random pods.
#include <random>

#include <gtest/gtest.h>

#include "core/scheduler/cluster.h"
#include "core/scheduler/extended_resources.h"
#include "tests/unit/allocator/fixtures.h"

using namespace drasim;
using namespace drasim::testing;
using scheduler::Cluster;

namespace {

const char* kGpuRes = "nvidia.com/gpu";

/// One node that advertises no nvidia.com/gpu, `devices` DRA GPUs, a class naming nvidia.com/gpu.
api::ObjectSet draGpuNode(int devices)
{
    api::ObjectSet o;
    o.nodes.push_back(node("node-a"));
    std::vector<api::Device> devs;
    for (int d = 0; d < devices; ++d)
        devs.push_back(device(numbered("gpu-", d)));
    o.resourceSlices.push_back(slice("node-a-gpus", "gpu.example.com", "node-a", "node-a", devs));
    auto cls = deviceClass("gpu.example.com", { "device.driver == \"gpu.example.com\"" });
    cls.extendedResourceName = kGpuRes;
    o.deviceClasses.push_back(cls);
    return o;
}

api::Pod gpuPod(const std::string& name, int64_t gpus)
{
    api::Pod p = pod(name);
    p.spec.containers[0].resources.requests[kGpuRes] = Quantity::fromInt(gpus);
    p.spec.containers[0].resources.limits[kGpuRes] = Quantity::fromInt(gpus);
    return p;
}

TEST(ExtendedResources, SpecialClaimIsCreatedAtBindingAndReleasedWithThePod)
{
    Cluster c(draGpuNode(2));
    auto r = c.schedule(gpuPod("p", 2));
    ASSERT_TRUE(r.scheduled) << r.message;
    ASSERT_EQ(r.claims, std::vector<std::string> { "default/p-extended-resources-00000" });
    ASSERT_EQ(r.allocated.size(), 2u);
    EXPECT_EQ(r.allocated[0].request, "container-0-request-0");
    ASSERT_TRUE(r.extendedResourceClaimStatus);
    EXPECT_EQ(r.extendedResourceClaimStatus->resourceClaimName, "p-extended-resources-00000");
    ASSERT_EQ(r.extendedResourceClaimStatus->requestMappings.size(), 1u);
    const auto& m = r.extendedResourceClaimStatus->requestMappings[0];
    EXPECT_EQ(m.containerName + " " + m.resourceName + " " + m.requestName,
        "main nvidia.com/gpu container-0-request-0");

    const api::ResourceClaim* claim = c.findClaim("default/p-extended-resources-00000");
    ASSERT_NE(claim, nullptr);
    EXPECT_EQ(claim->meta.annotations.at("resource.kubernetes.io/extended-resource-claim"), "true");
    EXPECT_EQ(claim->meta.generateName, "p-extended-resources-");
    ASSERT_EQ(claim->meta.ownerReferences.size(), 1u);
    EXPECT_EQ(claim->meta.ownerReferences[0].uid, "uid-p");
    ASSERT_EQ(claim->reservedFor.size(), 1u);
    EXPECT_EQ(claim->reservedFor[0].name, "p");
    ASSERT_EQ(claim->spec.requests.size(), 1u);
    EXPECT_EQ(claim->spec.requests[0].exactly->count, 2);

    auto q = c.schedule(gpuPod("q", 1));
    EXPECT_FALSE(q.scheduled);
    EXPECT_EQ(q.message, "0/1 nodes are available: 1 cannot allocate all claims.");
    EXPECT_EQ(c.findClaim("default/q-extended-resources-00000"), nullptr) << "only created at binding";

    ASSERT_TRUE(c.podFinished("default/p"));
    EXPECT_EQ(c.findClaim("default/p-extended-resources-00000"), nullptr);
    EXPECT_TRUE(c.schedule(gpuPod("q", 1)).scheduled);
}

TEST(ExtendedResources, GateOffLeavesTheNodeShort)
{
    scheduler::SchedulerOptions options;
    options.draExtendedResources = false;
    Cluster c(draGpuNode(2), options);
    auto r = c.schedule(gpuPod("p", 1));
    EXPECT_FALSE(r.scheduled);
    EXPECT_EQ(r.message, "0/1 nodes are available: 1 Insufficient nvidia.com/gpu.");
}

TEST(ExtendedResources, PodBoundBeforeTheDumpHoldsItsClaimUntilItFinishes)
{
    api::ObjectSet o = draGpuNode(1);
    api::ResourceClaim held = claim("old-extended-resources-abcde",
        { exactRequest("container-0-request-0", requestSpec("gpu.example.com")) });
    api::AllocationResult a;
    a.results.push_back(api::DeviceRequestAllocationResult {});
    a.results[0].request = "container-0-request-0";
    a.results[0].driver = "gpu.example.com";
    a.results[0].pool = "node-a";
    a.results[0].device = "gpu-0";
    held.allocation = a;
    held.reservedFor.push_back(api::ResourceClaimConsumerReference { "", "pods", "old", "uid-old" });
    o.resourceClaims.push_back(held);
    api::Pod old = gpuPod("old", 1);
    old.spec.nodeName = "node-a";
    old.extendedResourceClaimStatus
        = api::PodExtendedResourceClaimStatus { { { "main", kGpuRes, "container-0-request-0" } },
              held.meta.name };
    o.pods.push_back(old);
    Cluster c(std::move(o));
    EXPECT_FALSE(c.schedule(gpuPod("p", 1)).scheduled);
    ASSERT_TRUE(c.podFinished("default/old"));
    EXPECT_EQ(c.findClaim("default/old-extended-resources-abcde"), nullptr);
    EXPECT_TRUE(c.schedule(gpuPod("p", 1)).scheduled);
}

TEST(ExtendedResources, ExplainShowsTheSpecialClaim)
{
    Cluster c(draGpuNode(1));
    auto r = c.schedule(gpuPod("p", 2), true);
    ASSERT_FALSE(r.scheduled);
    ASSERT_TRUE(r.diagnosis);
    ASSERT_EQ(r.diagnosis->nodes.size(), 1u);
    const auto& nd = r.diagnosis->nodes[0];
    EXPECT_EQ(nd.draStatus, "cannot allocate all claims");
    ASSERT_EQ(nd.claims.size(), 1u);
    EXPECT_EQ(nd.claims[0].claim, "default/p-extended-resources-00000");
    ASSERT_EQ(nd.claims[0].requests.size(), 1u);
    EXPECT_EQ(nd.claims[0].requests[0].request, "container-0-request-0");
    EXPECT_EQ(nd.claims[0].requests[0].wanted, 2);
    EXPECT_EQ(nd.claims[0].requests[0].eligible, 1u);
}

TEST(ExtendedResources, ClassLookup)
{
    std::map<std::string, api::DeviceClass> classes;
    auto add = [&](const std::string& name, std::optional<std::string> ext) {
        api::DeviceClass c = deviceClass(name);
        c.extendedResourceName = ext;
        classes[name] = c;
    };
    add("b-gpu", std::string(kGpuRes));
    add("a-gpu", std::string(kGpuRes));
    add("plain", std::nullopt);
    add("steals-implicit", std::string("deviceclass.resource.kubernetes.io/plain"));
    auto m = scheduler::extendedResourceClasses(classes);
    EXPECT_EQ(m.at(kGpuRes), "a-gpu") << "of two classes naming a resource, the one sorting first";
    EXPECT_EQ(m.at("deviceclass.resource.kubernetes.io/b-gpu"), "b-gpu")
        << "implicit names exist for every class";
    EXPECT_EQ(m.at("deviceclass.resource.kubernetes.io/plain"), "steals-implicit")
        << "an explicit name beats another class's implicit one";
}

// Laws over random pods: per resource, the claim asks for exactly the pod's effective request
// (max of the regular containers' sum and the largest init container); request names are unique
// and sorted; every container asking for the resource is mapped to requests of the claim, whose
// counts cover what it asked for.
TEST(ExtendedResources, RequestLawsOverRandomPods)
{
    const std::vector<std::string> resources = { "example.com/fpga", kGpuRes };
    std::mt19937 rng(11);
    for (int round = 0; round < 400; ++round) {
        api::Pod p = pod("p");
        p.spec.containers.clear();
        auto fill = [&](std::vector<api::Container>& list, int n, const char* prefix) {
            for (int i = 0; i < n; ++i) {
                api::Container c;
                c.name = prefix + std::to_string(i);
                if (rng() % 2)
                    c.resources.requests["cpu"] = Quantity::fromInt(1);
                for (const auto& r : resources)
                    if (rng() % 3)
                        c.resources.requests[r] = Quantity::fromInt(int64_t(rng() % 4));
                list.push_back(c);
            }
        };
        fill(p.spec.initContainers, int(rng() % 3), "init-");
        fill(p.spec.containers, 1 + int(rng() % 3), "ctr-");
        const auto req = scheduler::computePodRequests(p.spec);
        std::map<std::string, std::string> classOf = { { resources[0], "fpga" }, { resources[1], "gpu" } };
        const auto backed = scheduler::draBackedResources(req, classOf);
        const uint64_t all = (uint64_t(1) << backed.resources.size()) - 1;
        const auto ext = scheduler::buildExtendedResourceClaim(p, backed, all);

        std::map<std::string, int64_t> countOf;
        std::map<std::string, std::string> classOfRequest;
        for (size_t i = 0; i < ext.claim.spec.requests.size(); ++i) {
            const auto& r = ext.claim.spec.requests[i];
            ASSERT_TRUE(r.exactly);
            EXPECT_GT(r.exactly->count, 0);
            EXPECT_TRUE(countOf.emplace(r.name, r.exactly->count).second) << "duplicate " << r.name;
            classOfRequest[r.name] = r.exactly->deviceClassName;
            if (i > 0) {
                EXPECT_LT(ext.claim.spec.requests[i - 1].name, r.name);
            }
        }
        for (size_t k = 0; k < backed.resources.size(); ++k) {
            const std::string& res = backed.resources[k];
            int64_t total = 0;
            for (const auto& [name, n] : countOf)
                if (classOfRequest[name] == backed.classes[k])
                    total += n;
            EXPECT_EQ(total, req.requests.scalar.at(res)) << res << " round " << round;
        }
        auto checkContainer = [&](const api::Container& c) {
            for (const auto& res : resources) {
                auto it = c.resources.requests.find(res);
                const int64_t asked = it == c.resources.requests.end() ? 0 : it->second.value();
                int64_t covered = 0;
                for (const auto& m : ext.mappings)
                    if (m.containerName == c.name && m.resourceName == res) {
                        ASSERT_TRUE(countOf.count(m.requestName)) << m.requestName;
                        covered += countOf[m.requestName];
                    }
                if (asked == 0)
                    EXPECT_EQ(covered, 0) << c.name << " " << res;
                else
                    EXPECT_GE(covered, asked) << c.name << " " << res << " round " << round;
            }
        };
        for (const auto& c : p.spec.initContainers)
            checkContainer(c);
        for (const auto& c : p.spec.containers)
            checkContainer(c);
    }
}

} // namespace
