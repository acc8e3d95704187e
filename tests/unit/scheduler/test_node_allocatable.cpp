// SPDX-License-Identifier: Apache-2.0
// A pod's effective requests (sidecars, pod-level requests, the scoring defaults) and what
// DRANodeAllocatableResources adds to them: examples worked out from component-helpers'
// PodRequests and the DynamicResources plugin's nodeallocatabledynamicresources.go, and laws over
// random pods (the formula reduces to the old one without sidecars or pod-level requests; the
// integer and the quantity representations agree).
#include <random>

#include <gtest/gtest.h>

#include "core/api/pod_requests.h"
#include "core/scheduler/node_allocatable.h"

using namespace drasim;
using namespace drasim::scheduler;

namespace node_allocatable_tests {

Quantity qty(const char* text)
{
    return *Quantity::parse(text);
}

api::Container ctr(const std::string& name, const char* cpu, const char* mem = nullptr)
{
    api::Container c;
    c.name = name;
    if (cpu)
        c.resources.requests["cpu"] = qty(cpu);
    if (mem)
        c.resources.requests["memory"] = qty(mem);
    return c;
}

api::Container sidecar(const std::string& name, const char* cpu)
{
    api::Container c = ctr(name, cpu);
    c.restartPolicy = "Always";
    return c;
}

TEST(PodRequests, SidecarsAddToTheContainersAndToLaterInitContainers)
{
    api::PodSpec spec;
    spec.initContainers = { sidecar("proxy", "1"), ctr("setup", "3"), sidecar("log", "500m") };
    spec.containers = { ctr("main", "1") };
    // main 1 + proxy 1 + log 0.5 = 2.5 running; setup runs beside proxy: 3 + 1 = 4 at its peak.
    EXPECT_EQ(computePodRequests(spec).requests.milliCpu, 4000);
    spec.initContainers[1] = ctr("setup", "1");
    EXPECT_EQ(computePodRequests(spec).requests.milliCpu, 2500);
}

TEST(PodRequests, PodLevelRequestsReplaceTheSumAndDecideTheScoringDefaults)
{
    api::PodSpec spec;
    spec.containers = { ctr("a", "1"), ctr("b", nullptr) };
    EXPECT_EQ(computePodRequests(spec).nonZeroMilliCpu, 1100); // b counts the 100m default
    spec.resources.emplace();
    spec.resources->requests["cpu"] = qty("3");
    spec.resources->requests["nvidia.com/gpu"] = qty("1"); // not a pod-level resource: ignored
    const PodRequests r = computePodRequests(spec);
    EXPECT_EQ(r.requests.milliCpu, 3000);
    EXPECT_EQ(r.nonZeroMilliCpu, 3000);
    // Memory is named nowhere: each container counts the 200Mi default.
    EXPECT_EQ(r.nonZeroMemory, 2 * kDefaultMemoryRequest);
    EXPECT_EQ(r.requests.scalar.count("nvidia.com/gpu"), 0u);
    spec.resources->requests["memory"] = qty("1Gi");
    EXPECT_EQ(computePodRequests(spec).nonZeroMemory, int64_t(1) << 30);
}

api::NodeAllocatableResourceClaimStatus status(const std::string& claim, std::vector<std::string> containers)
{
    api::NodeAllocatableResourceClaimStatus st;
    st.resourceClaimName = claim;
    st.containers = std::move(containers);
    return st;
}

TEST(PodRequests, ClaimAmountsChargeThePodAndItsReferencingContainers)
{
    api::PodSpec spec;
    spec.initContainers = { ctr("setup", "2") };
    spec.containers = { ctr("main", "1") };
    auto st = status("c", { "setup", "main", "gone" });
    st.mapping.push_back({ "cpu", qty("4") });
    st.overhead.push_back({ "cpu", qty("100m"), qty("250m") });
    const DraNodeAllocatable dra = draNodeAllocatable(spec, { st });
    // Whole life: the mapping, the per-pod overhead and the unknown container's per-container share.
    EXPECT_EQ(dra.podFixed.milliCpu, 4000 + 100 + 250);
    EXPECT_EQ(dra.perContainer.at("setup").milliCpu, 250);
    EXPECT_EQ(dra.perContainer.at("main").milliCpu, 250);
    // max(main 1 + 0.25, setup 2 + 0.25) + 4.35 = 6.6 cpu.
    EXPECT_EQ(computePodRequests(spec, &dra).requests.milliCpu, 6600);
    EXPECT_EQ(containerRequestsWithDra(spec, dra).milliCpu, 6600);
}

api::Device deviceWith(const std::string& resource, api::NodeAllocatableResource r)
{
    api::Device d;
    d.name = "dev";
    d.nodeAllocatableResources[resource] = std::move(r);
    return d;
}

TEST(NodeAllocatableStatuses, MappingsPerDeviceAndPerConsumedCapacity)
{
    api::NodeAllocatableResource perDevice;
    perDevice.mapping.emplace().deviceMultiplier = qty("8");
    const api::Device cpu = deviceWith("cpu", perDevice);
    api::NodeAllocatableResource byCapacity;
    byCapacity.mapping.emplace().capacityKey = "cpu.example.com/memory";
    byCapacity.mapping->capacityMultiplier = qty("2");
    byCapacity.overhead.emplace().perPod = qty("64Mi");
    const api::Device mem = deviceWith("memory", byCapacity);
    const std::map<std::string, Quantity> consumed { { "memory", qty("1Gi") } };

    api::PodSpec spec;
    spec.initContainers = { ctr("init", nullptr) };
    spec.containers = { ctr("main", nullptr) };
    spec.containers[0].resources.claims = { "cpus", "mem" };
    spec.initContainers[0].resources.claims = { "mem" };
    NodeAllocatableClaim a { "z-cpus", "default", { "cpus" },
        { { &cpu, "cpu.example.com", "c0", nullptr }, { &cpu, "cpu.example.com", "c1", nullptr } } };
    NodeAllocatableClaim b { "a-mem", "default", { "mem" },
        { { &mem, "cpu.example.com", "m0", &consumed } } };
    std::vector<api::NodeAllocatableResourceClaimStatus> out;
    ASSERT_EQ(buildNodeAllocatableStatuses(spec, { a, b }, out), "");
    ASSERT_EQ(out.size(), 2u);
    EXPECT_EQ(out[0].resourceClaimName, "a-mem"); // sorted by claim name
    EXPECT_EQ(out[0].containers, (std::vector<std::string> { "init", "main" }));
    ASSERT_EQ(out[0].mapping.size(), 1u);
    EXPECT_EQ(out[0].mapping[0].quantity, qty("2Gi")); // the short name is the driver's own
    ASSERT_EQ(out[0].overhead.size(), 1u);
    EXPECT_EQ(*out[0].overhead[0].perPod, qty("64Mi"));
    EXPECT_EQ(out[1].mapping[0].quantity, qty("16")); // 8 per device, two devices

    // A capacity mapping needs a device allocation that consumed capacity.
    b.devices[0].consumedCapacity = nullptr;
    EXPECT_EQ(buildNodeAllocatableStatuses(spec, { b }, out),
        "claim default/a-mem, device m0: ConsumedCapacity is nil, but Capacity key 'cpu.example.com/memory' "
        "is set in NodeAllocatableResources for resource memory");
}

TEST(NodeAllocatableFit, ShortfallsNameTheResourceAndTellUnresolvable)
{
    NodeUsage usage;
    usage.allocatable.milliCpu = 20000;
    usage.requested.milliCpu = 8000;
    usage.allocatable.scalar["hugepages-2Mi"] = 4;
    Resources demand;
    demand.milliCpu = 16000;
    std::vector<std::string> reasons;
    bool unresolvable = false;
    EXPECT_FALSE(nodeAllocatableFits(demand, usage, reasons, unresolvable));
    EXPECT_EQ(reasons, (std::vector<std::string> { "Insufficient cpu" }));
    EXPECT_FALSE(unresolvable);
    demand.milliCpu = 21000;
    demand.scalar["hugepages-2Mi"] = 6;
    reasons.clear();
    EXPECT_FALSE(nodeAllocatableFits(demand, usage, reasons, unresolvable));
    EXPECT_EQ(reasons, (std::vector<std::string> { "Insufficient cpu", "Insufficient hugepages-2Mi" }));
    EXPECT_TRUE(unresolvable);
}

TEST(NodeAllocatableFit, PodLevelRequestsAndLimitsMustCoverTheClaims)
{
    api::PodSpec spec;
    spec.containers = { ctr("main", "2") };
    spec.containers[0].resources.limits["cpu"] = qty("3");
    spec.resources.emplace();
    spec.resources->requests["cpu"] = qty("6");
    auto st = status("c", { "main" });
    st.mapping.push_back({ "cpu", qty("4") });
    const DraNodeAllocatable dra = draNodeAllocatable(spec, { st });
    EXPECT_EQ(podLevelShortfall(spec, { st }, dra), "");
    spec.resources->requests["cpu"] = qty("5");
    EXPECT_EQ(podLevelShortfall(spec, { st }, dra),
        "pod level request for cpu is insufficient to cover the aggregated container and node-allocatable "
        "DRA "
        "requests");
    spec.resources->requests["cpu"] = qty("6");
    spec.resources->limits["cpu"] = qty("6");
    EXPECT_EQ(podLevelShortfall(spec, { st }, dra),
        "pod level limit for cpu is insufficient to cover the limit and DRA overhead for container main");
    spec.resources->limits["cpu"] = qty("7");
    EXPECT_EQ(podLevelShortfall(spec, { st }, dra), "");
}

api::PodSpec randomSpec(std::mt19937& rng, bool sidecars)
{
    api::PodSpec spec;
    const auto amount = [&] { return Quantity::fromMilli(int64_t(rng() % 4000)); };
    const int main = 1 + int(rng() % 3), init = int(rng() % 4);
    for (int i = 0; i < main; ++i) {
        api::Container c;
        c.name = "c" + std::to_string(i);
        if (rng() % 4)
            c.resources.requests["cpu"] = amount();
        spec.containers.push_back(c);
    }
    for (int i = 0; i < init; ++i) {
        api::Container c;
        c.name = "i" + std::to_string(i);
        if (rng() % 4)
            c.resources.requests["cpu"] = amount();
        if (sidecars && rng() % 2)
            c.restartPolicy = "Always";
        spec.initContainers.push_back(c);
    }
    if (rng() % 3 == 0)
        spec.overhead["cpu"] = amount();
    return spec;
}

TEST(PodRequestsLaws, WithoutSidecarsOrPodLevelTheOldFormulaHolds)
{
    std::mt19937 rng(5517);
    for (int round = 0; round < 2000; ++round) {
        const api::PodSpec spec = randomSpec(rng, false);
        // containers summed, init containers maxed, overhead added; the defaults per container.
        int64_t sum = 0, nz = 0, initMax = 0, initNz = 0;
        for (const auto& c : spec.containers) {
            const auto it = c.resources.requests.find("cpu");
            sum += it == c.resources.requests.end() ? 0 : it->second.milliValue();
            nz += it == c.resources.requests.end() ? kDefaultMilliCpuRequest : it->second.milliValue();
        }
        for (const auto& c : spec.initContainers) {
            const auto it = c.resources.requests.find("cpu");
            initMax = std::max(initMax, it == c.resources.requests.end() ? 0 : it->second.milliValue());
            initNz = std::max(
                initNz, it == c.resources.requests.end() ? kDefaultMilliCpuRequest : it->second.milliValue());
        }
        const int64_t overhead = spec.overhead.count("cpu") ? spec.overhead.at("cpu").milliValue() : 0;
        const PodRequests r = computePodRequests(spec);
        ASSERT_EQ(r.requests.milliCpu, std::max(sum, initMax) + overhead) << "round " << round;
        ASSERT_EQ(r.nonZeroMilliCpu, std::max(nz, initNz) + overhead) << "round " << round;
        // No claim statuses: nothing added.
        const DraNodeAllocatable none = draNodeAllocatable(spec, {});
        ASSERT_EQ(computePodRequests(spec, &none).requests.milliCpu, r.requests.milliCpu);
    }
}

TEST(PodRequestsLaws, IntegerAndQuantityRepresentationsAgree)
{
    std::mt19937 rng(2837);
    for (int round = 0; round < 2000; ++round) {
        api::PodSpec spec = randomSpec(rng, true);
        spec.overhead.clear();
        // The integer formula of the scheduler and the quantity formula of the loader agree.
        const api::ResourceList q = api::aggregateContainerQuantities(spec);
        const int64_t viaQuantities = q.count("cpu") ? q.at("cpu").milliValue() : 0;
        ASSERT_EQ(computePodRequests(spec).requests.milliCpu, viaQuantities) << "round " << round;
    }
}

} // namespace node_allocatable_tests
