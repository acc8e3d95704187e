// SPDX-License-Identifier: Apache-2.0
#include "tests/unit/scheduler/random_bundle.h"

#include <string>

#include "tests/unit/allocator/fixtures.h"

namespace drasim::testing {

namespace {

const char* const kGpu = "gpu.example.com";
const char* const kNic = "nic.example.com";

api::DeviceTaint taint(BundleRng& rng)
{
    static const char* const kEffects[] = { "NoSchedule", "NoExecute", "None" };
    return api::DeviceTaint { "maintenance", rng.chance(50) ? "yes" : "soon", kEffects[rng.below(3)], "" };
}

/// One device of a node-local pool. Names repeat across generations on purpose ("dev-0" of the
/// old and of the new generation are different devices with different attributes).
api::Device randomDevice(BundleRng& rng, const std::string& driver, int index, bool counters)
{
    api::Device d;
    d.name = numbered("dev-", index);
    d.attributes["index"] = intAttr(int64_t(rng.below(4)));
    if (rng.chance(80))
        d.attributes["family"] = strAttr(rng.chance(50) ? "a" : "b");
    // Attributes of other domains: a shared one, and a NIC that spells out the GPU driver's domain
    // (constraints then find it by its full name, not through the driver).
    if (rng.chance(50))
        d.attributes["resource.kubernetes.io/pcieRoot"] = strAttr(rng.chance(50) ? "p0" : "p1");
    if (driver == kNic && rng.chance(20))
        d.attributes["gpu.example.com/index"] = intAttr(int64_t(rng.below(4)));
    if (rng.chance(15))
        d.taints.push_back(taint(rng));
    if (rng.chance(6)) {
        // Binding conditions move a usable pool behind the others (§3.3).
        d.bindingConditions = { "ready" };
        d.bindingFailureConditions = { "failed" };
    }
    if (driver == kNic && rng.chance(40)) {
        d.allowMultipleAllocations = true;
        api::DeviceCapacity cap { q(rng.chance(50) ? "40" : "20"), std::nullopt };
        if (rng.chance(70)) {
            api::CapacityRequestPolicy policy;
            policy.defaultValue = q("10");
            if (rng.chance(70))
                policy.validRange = api::CapacityRequestPolicyRange { q("10"), std::nullopt, q("10") };
            else
                policy.validValues = { q("10"), q("20") };
            cap.requestPolicy = policy;
        }
        d.capacity["bandwidth"] = cap;
    }
    if (counters)
        d.consumesCounters.push_back(
            api::DeviceCounterConsumption { "mem", { { "memory", q(rng.chance(50) ? "2" : "4") } }, {} });
    return d;
}

/// The slices of one generation of a node-local pool: 1–2 device slices, maybe a counter slice,
/// sometimes announcing one slice more than is published (incomplete).
void addGeneration(BundleRng& rng, api::ObjectSet& o, const std::string& node, const std::string& driver,
    const std::string& namePrefix, int64_t generation, int maxDevices)
{
    const bool counters = rng.chance(25);
    const int deviceSlices = rng.chance(70) ? 1 : 2;
    const int64_t count = deviceSlices + (counters ? 1 : 0) + (rng.chance(8) ? 1 : 0);
    // Now and then the second device slice repeats the first one's names: an invalid pool.
    const bool duplicateNames = deviceSlices == 2 && rng.chance(25);
    int index = 0;
    for (int s = 0; s < deviceSlices; ++s) {
        if (s == 1 && duplicateNames)
            index = 0;
        std::vector<api::Device> devices;
        const int n = 1 + int(rng.below(uint64_t(maxDevices)));
        for (int i = 0; i < n; ++i)
            devices.push_back(randomDevice(rng, driver, index++, counters));
        auto sl = slice(numbered(namePrefix + "-", s), driver, node, node, std::move(devices));
        sl.pool.generation = generation;
        sl.pool.resourceSliceCount = count;
        o.resourceSlices.push_back(std::move(sl));
    }
    if (counters) {
        auto sl = slice(namePrefix + "-counters", driver, node, node, {});
        sl.pool.generation = generation;
        sl.pool.resourceSliceCount = count;
        sl.sharedCounters.push_back(
            api::CounterSet { "mem", { { "memory", q(rng.chance(50) ? "4" : "8") } } });
        o.resourceSlices.push_back(std::move(sl));
    }
}

api::DeviceRequestSpec randomSpec(BundleRng& rng, bool allowAdmin)
{
    static const char* const kClasses[] = { "gpu", "gpu-a", "nic", "any" };
    static const char* const kSelectors[] = {
        "device.attributes[\"gpu.example.com\"].index <= 1",
        "has(device.attributes[\"gpu.example.com\"].family)",
        "!device.allowMultipleAllocations",
        "device.attributes[\"nic.example.com\"].index >= 1",
    };
    // Now and then three devices: distinctAttribute must then keep all three apart. Rarely more
    // than a claim may hold: an error on every node, or a firstAvailable alternative skipped.
    const int64_t count = rng.chance(2) ? 33 : rng.chance(10) ? 3 : 1 + int64_t(rng.below(2));
    api::DeviceRequestSpec r = requestSpec(kClasses[rng.below(4)], count);
    if (rng.chance(10)) {
        r.allocationMode = "All";
        r.count = 0;
    }
    if (rng.chance(30))
        r.selectors.push_back(api::DeviceSelector { kSelectors[rng.below(4)], {} });
    if (allowAdmin && rng.chance(25))
        r.adminAccess = true;
    if (rng.chance(30))
        r.tolerations.push_back(api::DeviceToleration { "maintenance", rng.chance(50) ? "Exists" : "Equal",
            "yes", rng.chance(30) ? "NoSchedule" : "", std::nullopt });
    if (rng.chance(15))
        r.capacity = api::CapacityRequirements { { { "bandwidth", q(rng.chance(50) ? "15" : "20") } } };
    return r;
}

api::ResourceClaim randomClaim(BundleRng& rng, const std::string& name)
{
    std::vector<api::DeviceRequest> requests;
    const int n = 1 + int(rng.below(2));
    if (n == 2 && rng.chance(15)) {
        // A claim that uses a device and watches devices of the same kind with admin access.
        const char* cls = rng.chance(70) ? "nic" : "gpu";
        requests.push_back(exactRequest("r0", requestSpec(cls)));
        auto watch = requestSpec(cls);
        watch.adminAccess = true;
        requests.push_back(exactRequest("r1", watch));
        return claim(name, std::move(requests));
    }
    for (int i = 0; i < n; ++i) {
        const std::string rn = numbered("r", i);
        if (rng.chance(15)) {
            api::DeviceRequest r;
            r.name = rn;
            for (int s = 0; s < 2; ++s)
                r.firstAvailable.push_back(
                    api::DeviceSubRequest { numbered("s", s), randomSpec(rng, false) });
            requests.push_back(std::move(r));
        } else {
            requests.push_back(exactRequest(rn, randomSpec(rng, true)));
        }
    }
    api::ResourceClaim c = claim(name, std::move(requests));
    if (rng.chance(20)) {
        api::DeviceConstraint con;
        const int kind = int(rng.below(5));
        if (kind < 2)
            con.matchAttribute = "gpu.example.com/family";
        else if (kind < 4)
            con.distinctAttribute = "gpu.example.com/index";
        else
            con.matchAttribute = "resource.kubernetes.io/pcieRoot";
        // Limited to one request; a constraint on r1 alone also meets devices that r0 shares. One
        // alternative of a firstAvailable request binds only when that alternative is chosen.
        if (n > 1 && rng.chance(40))
            con.requests.push_back(rng.chance(50) ? "r0" : "r1");
        else if (!c.spec.requests[0].firstAvailable.empty() && rng.chance(50))
            con.requests.push_back(numbered("r0/s", int64_t(rng.below(2))));
        c.spec.constraints.push_back(std::move(con));
    }
    if (rng.chance(20)) {
        // Claim config for every request, for one, for one alternative, or for both requests
        // (upstream copies it once per request it names, §3.12).
        api::DeviceClaimConfiguration cfg { {}, api::OpaqueDeviceConfiguration { kGpu, {} } };
        const auto which = rng.below(4);
        if (which == 1 || (which == 3 && n > 1))
            cfg.requests.push_back("r0");
        if (which == 3 && n > 1)
            cfg.requests.push_back("r1");
        if (which == 2 && !c.spec.requests[0].firstAvailable.empty())
            cfg.requests.push_back("r0/s1");
        c.spec.config.push_back(std::move(cfg));
    }
    return c;
}

/// A claim allocated before the run, held by a pod outside the bundle: a dedicated, admin or
/// share result on some device of the newest generation.
void addAllocatedClaim(BundleRng& rng, api::ObjectSet& o, int index)
{
    const auto& candidates = o.resourceSlices;
    const auto& s = candidates[rng.below(candidates.size())];
    if (s.devices.empty())
        return;
    const auto& d = s.devices[rng.below(s.devices.size())];
    for (const auto& held : o.resourceClaims) {
        if (!held.allocation)
            continue;
        for (const auto& r : held.allocation->results)
            if (r.driver == s.driver && r.pool == s.pool.name && r.device == d.name)
                return; // one input claim per device is enough here
    }
    api::ResourceClaim c = claim(numbered("held-", index), { exactRequest("r0", requestSpec("any")) });
    api::DeviceRequestAllocationResult r;
    r.request = "r0";
    r.driver = s.driver;
    r.pool = s.pool.name;
    r.device = d.name;
    if (d.allowMultipleAllocations.value_or(false)) {
        r.shareID = "00000000-0000-4000-8000-00000000000" + std::to_string(index % 10);
        r.consumedCapacity["bandwidth"] = q("10");
    } else if (rng.chance(25)) {
        r.adminAccess = true;
    }
    api::AllocationResult a;
    a.results.push_back(std::move(r));
    c.allocation = std::move(a);
    c.reservedFor.push_back(api::ResourceClaimConsumerReference { "", "pods", "outside", "uid-outside" });
    o.resourceClaims.push_back(std::move(c));
}

api::NodeSelector rackSelector(const std::string& rack)
{
    return api::NodeSelector { { api::NodeSelectorTerm {
        { api::NodeSelectorRequirement { "rack", "In", { rack } } }, {} } } };
}

/// Devices reachable from more than one node (§3.2): a pool for all nodes, a pool with one slice
/// per rack (each node sees one slice, the pool is complete only counting the other), and a pool
/// whose devices choose their nodes themselves. Some bind to the node they are used on.
void addNetworkPools(BundleRng& rng, api::ObjectSet& o)
{
    auto devices = [&](const std::string& driver, int first, int n) {
        std::vector<api::Device> list;
        for (int i = 0; i < n; ++i) {
            list.push_back(randomDevice(rng, driver, first + i, false));
            if (rng.chance(15))
                list.back().bindsToNode = true;
        }
        return list;
    };
    if (rng.chance(20))
        o.resourceSlices.push_back(
            slice("net-gpus", kGpu, "net", "", devices(kGpu, 0, 1 + int(rng.below(2)))));
    if (rng.chance(20)) {
        const int racks = rng.chance(50) ? 1 : 2;
        for (int r = 0; r < racks; ++r) {
            auto s = slice(
                numbered("rack-nics-", r), kNic, "racks", "", devices(kNic, r * 2, 1 + int(rng.below(2))));
            s.allNodes.reset();
            s.nodeSelector = rackSelector(numbered("r", r));
            s.pool.resourceSliceCount = racks;
            o.resourceSlices.push_back(std::move(s));
        }
    }
    if (rng.chance(15)) {
        auto s = slice("per-device", kGpu, "spread", "", devices(kGpu, 0, 1 + int(rng.below(3))));
        s.allNodes.reset();
        s.perDeviceNodeSelection = true;
        for (auto& d : s.devices) {
            const auto where = rng.below(3);
            if (where == 0)
                d.nodeName = numbered("node-", int64_t(rng.below(3)));
            else if (where == 1)
                d.allNodes = true;
            else
                d.nodeSelector = rackSelector(numbered("r", int64_t(rng.below(2))));
        }
        o.resourceSlices.push_back(std::move(s));
    }
}

/// DeviceTaintRules: a taint for the devices a selector names (driver, pool, device name, each
/// optional; now and then no selector at all, which names no device).
void addTaintRules(BundleRng& rng, api::ObjectSet& o)
{
    const int n = rng.chance(85) ? 0 : 1 + int(rng.below(2));
    for (int i = 0; i < n; ++i) {
        api::DeviceTaintRule rule;
        rule.meta.name = numbered("rule-", i);
        if (!rng.chance(10)) {
            api::DeviceTaintSelector sel;
            if (rng.chance(50))
                sel.driver = rng.chance(50) ? kGpu : kNic;
            if (rng.chance(30))
                sel.pool = numbered("node-", int64_t(rng.below(3)));
            if (rng.chance(50))
                sel.device = numbered("dev-", int64_t(rng.below(3)));
            rule.deviceSelector = sel;
        }
        rule.taint = taint(rng);
        o.deviceTaintRules.push_back(std::move(rule));
    }
}

} // namespace

uint64_t BundleRng::next()
{
    uint64_t z = (m_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

RandomBundle makeRandomBundle(uint64_t seed)
{
    BundleRng rng(seed);
    RandomBundle b;
    auto& o = b.objects;
    const int nodes = 1 + int(rng.below(3));
    for (int n = 0; n < nodes; ++n) {
        const std::string name = numbered("node-", n);
        o.nodes.push_back(node(name, { { "rack", numbered("r", n % 2) } }));
        for (const char* driver : { kGpu, kNic }) {
            if (rng.chance(30))
                continue;
            const std::string prefix = name + (driver == kGpu ? "-gpu" : "-nic");
            if (rng.chance(35)) {
                // Republished: the outdated generation's slice names sort first or last.
                const bool oldFirst = rng.chance(50);
                addGeneration(rng, o, name, driver, prefix + (oldFirst ? "-a" : "-c"), 1, 4);
                addGeneration(rng, o, name, driver, prefix + "-b", 2, 4);
            } else {
                addGeneration(rng, o, name, driver, prefix, 1, 4);
            }
        }
    }
    addNetworkPools(rng, o);
    addTaintRules(rng, o);
    o.deviceClasses.push_back(deviceClass("gpu", { "device.driver == \"gpu.example.com\"" }));
    o.deviceClasses.push_back(deviceClass("gpu-a",
        { "device.driver == \"gpu.example.com\"",
            "device.attributes[\"gpu.example.com\"].family == \"a\"" }));
    o.deviceClasses.push_back(deviceClass("nic", { "device.driver == \"nic.example.com\"" }));
    o.deviceClasses.push_back(deviceClass("any"));
    for (int i = 0; i < 2; ++i)
        if (!o.resourceSlices.empty() && rng.chance(25))
            addAllocatedClaim(rng, o, i);
    if (rng.chance(50)) {
        o.deviceClasses[0].config.push_back(api::OpaqueDeviceConfiguration { kGpu, {} });
        o.deviceClasses[2].config.push_back(api::OpaqueDeviceConfiguration { kNic, {} });
    }
    const int pods = 1 + int(rng.below(4));
    for (int p = 0; p < pods; ++p) {
        const std::string name = numbered("pod-", p);
        std::vector<std::pair<std::string, std::string>> refs;
        const int claims = 1 + int(rng.below(2));
        for (int c = 0; c < claims; ++c) {
            const std::string cn = name + numbered("-c", c);
            o.resourceClaims.push_back(randomClaim(rng, cn));
            refs.emplace_back(numbered("c", c), cn);
        }
        // Now and then the claim of the pod before: allocated by then, it only restricts the node.
        if (p > 0 && rng.chance(20))
            refs.emplace_back("shared", numbered("pod-", p - 1) + "-c0");
        b.pods.push_back(pod(name, refs));
    }
    return b;
}

} // namespace drasim::testing
