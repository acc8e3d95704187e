// SPDX-License-Identifier: Apache-2.0
// The general claim measure (device_fragmentation.h): exact values on small hand-made nodes (MIG
// partitions through shared counters, consumable capacity, GPU+NIC alignment), and the laws that
// tie it to the whole-device measure and keep it sane on random nodes.

#include <algorithm>
#include <random>

#include <gtest/gtest.h>

#include "core/gpushare/claim_fragmentation.h"
#include "core/gpushare/device_fragmentation.h"

namespace drasim::gpushare {
namespace device_fragmentation_test {

/// A MIG-like GPU as a counter set of eight memory slices (each 1), so that its share is the
/// fraction of slices left; profiles as on A100/H100: 1g at starts 0-6 (one slice), 2g at 0, 2, 4
/// (two), 3g at 0 and 4 (four), 7g at 0 (all eight).
struct MigProfileShape
{
    const char* name;
    int size;
    std::vector<int> starts;
};
const std::vector<MigProfileShape> kProfiles { { "1g", 1, { 0, 1, 2, 3, 4, 5, 6 } }, { "2g", 2, { 0, 2, 4 } },
    { "3g", 4, { 0, 4 } }, { "7g", 8, { 0 } } };

RequestShape profileRequest(const std::string& profile, int64_t count = 1)
{
    return { "mig", { "profile == '" + profile + "'" }, count, {}, {}, -1 };
}

/// Keys for class "mig" and typical claims of one profile each.
MeasureKeys migKeys(const std::vector<std::pair<std::string, double>>& typical)
{
    MeasureKeys keys;
    keys.classes = { "mig" };
    for (const auto& [profile, p] : typical)
        keys.typical.push_back(keys.add({ profileRequest(profile) }, p));
    return keys;
}

/// The profile a request id asks for (from its selector text).
std::string profileOf(const MeasureKeys& keys, size_t r)
{
    const std::string& s = keys.requests[r].shape.selectors.front();
    return s.substr(s.find('\'') + 1, s.rfind('\'') - s.find('\'') - 1);
}

/// Appends a GPU whose slices in `used` are taken (by held partitions), with every placement of
/// every profile as a device consuming its slices.
void addMigGpu(NodeDevices& node, const MeasureKeys& keys, std::vector<int> used = {})
{
    NodeDevices::Holder h;
    h.dimBegin = uint32_t(node.total.size());
    for (int i = 0; i < 8; ++i) {
        node.total.push_back(1);
        node.left.push_back(std::count(used.begin(), used.end(), i) ? 0 : 1);
    }
    h.dimEnd = uint32_t(node.total.size());
    h.classes = 1;
    node.holders.push_back(h);
    const uint32_t holder = uint32_t(node.holders.size() - 1);
    for (const MigProfileShape& p : kProfiles)
        for (int start : p.starts) {
            NodeDevices::Device d;
            d.holder = holder;
            d.classes = 1;
            for (int i = start; i < start + p.size; ++i)
                d.counters.push_back({ h.dimBegin + uint32_t(i), 1 });
            for (size_t r = 0; r < keys.requests.size(); ++r)
                d.serves.push_back(profileOf(keys, r) == p.name);
            d.align.assign(keys.alignAttributes.size(), "");
            node.devices.push_back(std::move(d));
        }
}

TEST(DeviceFragmentation, ASliceTakenOnEachHalfStrandsTheGpuForBigProfiles)
{
    // Typical claims 1g (p .5), 3g (.3), 7g (.2). A GPU whose 1g instances sit at slices 0 and
    // 4: six of eight slices free (share .75), room for more 1g but for no 3g (both placements
    // overlap) and no 7g: F = .3 x .75 + .2 x .75 = .375.
    const MeasureKeys keys = migKeys({ { "1g", .5 }, { "3g", .3 }, { "7g", .2 } });
    NodeDevices broken;
    addMigGpu(broken, keys, { 0, 4 });
    EXPECT_DOUBLE_EQ(holderShare(broken, 0), 0.75);
    EXPECT_TRUE(fitsClaim(broken, keys, keys.typical[0]));
    EXPECT_FALSE(fitsClaim(broken, keys, keys.typical[1]));
    EXPECT_DOUBLE_EQ(claimFragmentOf(broken, keys, keys.typical[0], 0), 0.0);
    EXPECT_DOUBLE_EQ(claimFragmentOf(broken, keys, keys.typical[1], 0), 0.75);
    EXPECT_DOUBLE_EQ(nodeDeviceFragment(broken, keys)[0], 0.375);

    // Next to an untouched GPU the 3g and 7g claims fit (there), and only the broken GPU is
    // fragment for them: the same .375, of 1.75 free.
    NodeDevices two;
    addMigGpu(two, keys);
    addMigGpu(two, keys, { 0, 4 });
    EXPECT_DOUBLE_EQ(classFree(two, keys)[0], 1.75);
    EXPECT_TRUE(fitsClaim(two, keys, keys.typical[2]));
    EXPECT_DOUBLE_EQ(claimFragmentOf(two, keys, keys.typical[2], 0), 0.75);
    EXPECT_DOUBLE_EQ(nodeDeviceFragment(two, keys)[0], 0.375);

    const auto cluster = clusterDeviceFragment({ broken, two }, keys);
    EXPECT_DOUBLE_EQ(cluster.at("mig").fragment, 0.75);
    EXPECT_DOUBLE_EQ(cluster.at("mig").free, 2.5);
}

TEST(DeviceFragmentation, FgdPutsASmallProfileOnTheGpuAlreadyBroken)
{
    const MeasureKeys base = migKeys({ { "1g", .5 }, { "3g", .3 }, { "7g", .2 } });
    MeasureKeys keys = base;
    const MeasureKeys::Claim pod = keys.add({ profileRequest("1g") }, 1.0);
    // On an untouched GPU a 1g takes slice 0: the 7g claim no longer fits (F 0 -> .2 x .875),
    // trunc(100 sigmoid(-.175)) = 45.
    NodeDevices fresh;
    addMigGpu(fresh, keys);
    EXPECT_EQ(deviceFgdScore(fresh, keys, pod), 45);
    // On the GPU already holding 1g instances at 0 and 4 it takes slice 1: F .375 -> .3125
    // (share .625 for the 3g and 7g claims), sigmoid(.0625) = 51.
    NodeDevices broken;
    addMigGpu(broken, keys, { 0, 4 });
    EXPECT_EQ(deviceFgdScore(broken, keys, pod), 51);
    // Taking the devices leaves the counters they consume.
    ASSERT_TRUE(takeClaim(broken, keys, pod));
    EXPECT_DOUBLE_EQ(holderShare(broken, 0), 0.625);
    // A profile that cannot be carved scores 0 (fgd scores only nodes the pod fits).
    MeasureKeys big = base;
    const MeasureKeys::Claim seven = big.add({ profileRequest("7g") }, 1.0);
    NodeDevices brokenBig;
    addMigGpu(brokenBig, big, { 3 });
    EXPECT_EQ(deviceFgdScore(brokenBig, big, seven), 0);
}

/// Keys for GPUs and NICs: typical claims of a GPU and a NIC aligned on pcieRoot (p .6) and of
/// one GPU (p .4).
MeasureKeys gpuNicKeys()
{
    MeasureKeys keys;
    keys.classes = { "gpu", "nic" };
    const std::string root = "resource.kubernetes.io/pcieRoot";
    keys.typical.push_back(keys.add({ { "gpu", {}, 1, {}, root, 0 }, { "nic", {}, 1, {}, root, 0 } }, 0.6));
    keys.typical.push_back(keys.add({ { "gpu", {}, 1, {}, {}, -1 } }, 0.4));
    return keys;
}

void addWhole(NodeDevices& node, const MeasureKeys& keys, int cls, const std::string& root, bool held = false)
{
    NodeDevices::Holder h;
    h.dimBegin = h.dimEnd = uint32_t(node.total.size());
    h.wholeDevice = int32_t(node.devices.size());
    h.classes = uint64_t(1) << cls;
    node.holders.push_back(h);
    NodeDevices::Device d;
    d.holder = uint32_t(node.holders.size() - 1);
    d.classes = h.classes;
    d.held = held;
    for (const MeasureKeys::Request& r : keys.requests)
        d.serves.push_back(r.classIndex == cls);
    d.align.assign(keys.alignAttributes.size(), root);
    node.devices.push_back(std::move(d));
}

TEST(DeviceFragmentation, AGpuWithoutAFreeNicOnItsRootIsFragmentForAlignedClaims)
{
    // Root A: GPU0 and NIC0, free. Root B: GPU1 free, its NIC1 held. The aligned claim fits on
    // root A; GPU1 could only pair with a NIC of root B: fragment for it (1 x .6). The one-GPU
    // claim strands no GPU but every NIC (1 free NIC x .4).
    const MeasureKeys keys = gpuNicKeys();
    NodeDevices node;
    addWhole(node, keys, 0, "s:pci0000:00");
    addWhole(node, keys, 1, "s:pci0000:00");
    addWhole(node, keys, 0, "s:pci0000:80");
    addWhole(node, keys, 1, "s:pci0000:80", true);
    EXPECT_TRUE(fitsClaim(node, keys, keys.typical[0]));
    const std::vector<double> f = nodeDeviceFragment(node, keys);
    EXPECT_DOUBLE_EQ(f[0], 0.6);
    EXPECT_DOUBLE_EQ(f[1], 0.4);
    // Counted per class without alignment, the same node strands no GPU.
    EXPECT_EQ(nodeClaimFragment({ { "gpu", 2 }, { "nic", 1 } },
                  { { { { "gpu", 1 }, { "nic", 1 } }, 0.6, 6 }, { { { "gpu", 1 } }, 0.4, 4 } })
                  .at("gpu"),
        0.0);
    // Without a free NIC on any root the aligned claim fits nowhere: both GPUs are fragment.
    NodeDevices noNic;
    addWhole(noNic, keys, 0, "s:pci0000:00");
    addWhole(noNic, keys, 1, "s:pci0000:80", true);
    EXPECT_FALSE(fitsClaim(noNic, keys, keys.typical[0]));
    EXPECT_DOUBLE_EQ(nodeDeviceFragment(noNic, keys)[0], 0.6);
}

TEST(DeviceFragmentation, ASharedDeviceWithLessLeftThanTheRequestIsFragmentForIt)
{
    // Typical claims of 40 and 10 units of memory of a shareable GPU (p .5 each). A GPU with 30
    // of 80 left (share .375) holds only the small one: F = .5 x .375; next to an unused GPU the
    // big one fits there, and the first GPU stays fragment for it.
    MeasureKeys keys;
    keys.classes = { "gpu" };
    keys.typical.push_back(keys.add({ { "gpu", {}, 1, { { "memory", 40000 } }, {}, -1 } }, 0.5));
    keys.typical.push_back(keys.add({ { "gpu", {}, 1, { { "memory", 10000 } }, {}, -1 } }, 0.5));
    const auto addShared = [](NodeDevices& node, const MeasureKeys& keys, int64_t left) {
        NodeDevices::Holder h;
        h.dimBegin = uint32_t(node.total.size());
        node.total.push_back(80000);
        node.left.push_back(left);
        h.dimEnd = h.dimBegin + 1;
        h.classes = 1;
        node.holders.push_back(h);
        NodeDevices::Device d;
        d.holder = uint32_t(node.holders.size() - 1);
        d.classes = 1;
        d.multi = true;
        for (const MeasureKeys::Request& r : keys.requests) {
            d.serves.push_back(1);
            d.capacity.push_back({ { h.dimBegin, r.shape.capacityMilli.at("memory") } });
        }
        node.devices.push_back(std::move(d));
    };
    NodeDevices one;
    addShared(one, keys, 30000);
    EXPECT_DOUBLE_EQ(nodeDeviceFragment(one, keys)[0], 0.5 * 0.375);
    NodeDevices two = one;
    addShared(two, keys, 80000);
    EXPECT_DOUBLE_EQ(classFree(two, keys)[0], 1.375);
    EXPECT_DOUBLE_EQ(nodeDeviceFragment(two, keys)[0], 0.5 * 0.375);
    // A shareable device serves several requests of one claim: two 30-unit shares fit on 80.
    MeasureKeys pair = keys;
    const MeasureKeys::Claim twice = pair.add({ { "gpu", {}, 1, { { "memory", 30000 } }, {}, -1 },
                                                  { "gpu", { "x" }, 1, { { "memory", 30000 } }, {}, -1 } },
        1.0);
    NodeDevices fresh;
    addShared(fresh, pair, 80000);
    EXPECT_TRUE(takeClaim(fresh, pair, twice));
    EXPECT_EQ(fresh.left[0], 20000);
}

// Law: on whole devices with plain requests the general measure is claim_fragmentation.h's, for
// random typical claims over two classes and random nodes.
TEST(DeviceFragmentation, OnWholeDevicesWithPlainRequestsItIsTheWholeDeviceMeasure)
{
    std::mt19937_64 rng(4815);
    const std::vector<std::string> classes { "gpu", "nic" };
    for (int trial = 0; trial < 300; ++trial) {
        std::map<ClaimShape, int64_t> pods;
        std::map<DeviceCounts, int64_t> podsByCounts;
        for (int i = 0, n = 1 + int(rng() % 12); i < n; ++i) {
            ClaimShape shape;
            DeviceCounts counts;
            for (const std::string& c : classes)
                if (const int64_t k = int64_t(rng() % 4); k > 0) {
                    shape.push_back({ c, {}, k, {}, {}, -1 });
                    counts[c] = k;
                }
            const int64_t pods1 = 1 + int64_t(rng() % 5);
            pods[shape] += pods1;
            podsByCounts[counts] += pods1;
        }
        const auto target = claimTargetOf(podsByCounts, 95);
        if (!target)
            continue;
        const MeasureKeys keys = measureKeysOf(pods, 95);
        ASSERT_EQ(keys.classes, target->classes);
        NodeDevices node;
        DeviceCounts free;
        for (int d = 0, n = int(rng() % 10); d < n; ++d) {
            const int cls = int(rng() % 2);
            if (size_t(cls) >= keys.classes.size() || keys.classes[size_t(cls)] != classes[size_t(cls)])
                continue;
            const bool held = rng() % 3 == 0;
            addWhole(node, keys, cls, "");
            node.devices.back().held = held;
            if (!held)
                ++free[classes[size_t(cls)]];
        }
        const auto whole = nodeClaimFragment(free, target->typical);
        const std::vector<double> general = nodeDeviceFragment(node, keys);
        for (size_t c = 0; c < keys.classes.size(); ++c) {
            const auto it = whole.find(keys.classes[c]);
            EXPECT_DOUBLE_EQ(general[c], it == whole.end() ? 0.0 : it->second) << "trial " << trial;
        }
    }
}

// Law: when every typical claim asks for the full-GPU profile and each GPU is whole (untouched or
// taken whole), the MIG measure is the whole-device measure of the free GPUs.
TEST(DeviceFragmentation, OnFullGpuProfilesTheMigMeasureIsTheWholeDeviceMeasure)
{
    std::mt19937_64 rng(7);
    for (int trial = 0; trial < 200; ++trial) {
        MeasureKeys keys;
        keys.classes = { "mig" };
        std::vector<TypicalClaim> whole;
        const int kinds = 1 + int(rng() % 3);
        for (int k = 1; k <= kinds; ++k) {
            const int64_t count = 1 + int64_t(rng() % 3);
            const double p = 1.0 / kinds;
            keys.typical.push_back(keys.add({ profileRequest("7g", count) }, p));
            whole.push_back({ { { "mig", count } }, p, 1 });
        }
        NodeDevices node;
        int64_t free = 0;
        for (int g = 0, n = 1 + int(rng() % 8); g < n; ++g) {
            const bool taken = rng() % 2;
            addMigGpu(node, keys, taken ? std::vector<int> { 0, 1, 2, 3, 4, 5, 6, 7 } : std::vector<int> {});
            free += !taken;
        }
        const auto expected = nodeClaimFragment({ { "mig", free } }, whole);
        EXPECT_DOUBLE_EQ(classFree(node, keys)[0], double(free));
        EXPECT_NEAR(nodeDeviceFragment(node, keys)[0], free > 0 ? expected.at("mig") : 0.0, 1e-12)
            << "trial " << trial;
    }
}

/// Random MIG keys (typical claims of one or two profiles) and a random node of MIG GPUs.
MeasureKeys randomMigKeys(std::mt19937_64& rng)
{
    MeasureKeys keys;
    keys.classes = { "mig" };
    const int n = 1 + int(rng() % 4);
    for (int i = 0; i < n; ++i) {
        const std::string profile = kProfiles[rng() % kProfiles.size()].name;
        keys.typical.push_back(keys.add({ profileRequest(profile, 1 + int64_t(rng() % 2)) }, 1.0 / n));
    }
    return keys;
}

void addRandomGpu(NodeDevices& node, const MeasureKeys& keys, std::mt19937_64& rng)
{
    std::vector<int> used;
    for (int i = 0; i < 8; ++i)
        if (rng() % 3 == 0)
            used.push_back(i);
    addMigGpu(node, keys, used);
}

// Laws on random MIG nodes: the measure stays within the free capacity; appending a free GPU
// never raises it by more than that GPU's own share; a claim is taken only where it fits, and
// taking it leaves no counter below zero and holds as many devices as it asks.
TEST(DeviceFragmentation, LawsOnRandomMigNodes)
{
    std::mt19937_64 rng(20260);
    for (int trial = 0; trial < 300; ++trial) {
        const MeasureKeys keys = randomMigKeys(rng);
        NodeDevices node;
        for (int g = 0, n = int(rng() % 4); g < n; ++g)
            addRandomGpu(node, keys, rng);
        const double before = nodeDeviceFragment(node, keys)[0];
        EXPECT_LE(before, classFree(node, keys)[0] + 1e-12);
        EXPECT_GE(before, 0.0);

        NodeDevices grown = node;
        addRandomGpu(grown, keys, rng);
        const double own = holderShare(grown, uint32_t(grown.holders.size() - 1));
        EXPECT_LE(nodeDeviceFragment(grown, keys)[0], before + own + 1e-12) << "trial " << trial;

        for (const MeasureKeys::Claim& m : keys.typical) {
            NodeDevices taken = grown;
            const bool fits = fitsClaim(grown, keys, m);
            ASSERT_EQ(takeClaim(taken, keys, m), fits) << "trial " << trial;
            if (!fits)
                continue;
            int64_t held = 0;
            for (size_t d = 0; d < taken.devices.size(); ++d)
                held += taken.devices[d].held - grown.devices[d].held;
            EXPECT_EQ(held, keys.requests[m.first].shape.count);
            for (int64_t left : taken.left)
                EXPECT_GE(left, 0);
        }
    }
}

// Law: nothing can be hurt when every typical claim asks for one device of the class with no
// further condition: the measure is 0 on any node with a free device of it.
TEST(DeviceFragmentation, ZeroWhenEveryTypicalClaimTakesAnyOneDevice)
{
    std::mt19937_64 rng(11);
    MeasureKeys keys;
    keys.classes = { "gpu" };
    keys.typical.push_back(keys.add({ { "gpu", {}, 1, {}, {}, -1 } }, 1.0));
    for (int trial = 0; trial < 100; ++trial) {
        NodeDevices node;
        for (int d = 0, n = 1 + int(rng() % 8); d < n; ++d) {
            addWhole(node, keys, 0, "");
            node.devices.back().held = rng() % 2;
        }
        EXPECT_DOUBLE_EQ(nodeDeviceFragment(node, keys)[0], 0.0);
    }
}

TEST(DeviceFragmentation, ShapesNormaliseAndOnlyPlainOnesKeepTheWholeDeviceTarget)
{
    ClaimShape a { { "gpu", {}, 1, {}, {}, -1 }, { "nic", {}, 2, {}, {}, -1 }, { "gpu", {}, 1, {}, {}, -1 } };
    normalizeShape(a);
    EXPECT_EQ(a, (ClaimShape { { "gpu", {}, 2, {}, {}, -1 }, { "nic", {}, 2, {}, {}, -1 } }));
    EXPECT_TRUE(isPlain(a));
    const auto plain = claimTargetOf(std::map<ClaimShape, int64_t> { { a, 3 } });
    ASSERT_NE(plain, nullptr);
    EXPECT_EQ(plain->general, nullptr);
    EXPECT_EQ(plain->typical.front().shape, (DeviceCounts { { "gpu", 2 }, { "nic", 2 } }));
    const auto mig
        = claimTargetOf(std::map<ClaimShape, int64_t> { { { profileRequest("1g") }, 4 }, { a, 1 } }, 100);
    ASSERT_NE(mig, nullptr);
    ASSERT_NE(mig->general, nullptr);
    EXPECT_EQ(mig->classes, (std::vector<std::string> { "gpu", "mig", "nic" }));
    ASSERT_EQ(mig->general->typical.size(), 2u);
    EXPECT_DOUBLE_EQ(mig->general->typical[0].probability, 0.8);
    EXPECT_EQ(claimTargetOf(std::map<ClaimShape, int64_t> { { {}, 5 } }), nullptr);

    // On a cluster of whole devices only, selectors are not read: the whole-device target.
    const auto whole
        = claimTargetOf(std::map<ClaimShape, int64_t> { { { profileRequest("1g") }, 4 } }, 95, false);
    ASSERT_NE(whole, nullptr);
    EXPECT_EQ(whole->general, nullptr);
    EXPECT_EQ(whole->typical.front().shape, (DeviceCounts { { "mig", 1 } }));

    // Consumable capacity: general, and without those requests the whole-device target of what is
    // left (a pod that asked only for a share asks for nothing there).
    const RequestShape share { "gpu", {}, 1, { { "memory", 10000 } }, {}, -1 };
    const auto shares = claimTargetOf(
        std::map<ClaimShape, int64_t> { { { share }, 3 }, { { { "gpu", {}, 1, {}, {}, -1 } }, 1 } }, 100);
    ASSERT_NE(shares, nullptr);
    EXPECT_NE(shares->general, nullptr);
    EXPECT_TRUE(shares->asksCapacity);
    ASSERT_NE(shares->withoutCapacity, nullptr);
    EXPECT_EQ(shares->withoutCapacity->general, nullptr);
    ASSERT_EQ(shares->withoutCapacity->typical.size(), 2u);
    EXPECT_EQ(shares->withoutCapacity->typical[0].shape, DeviceCounts {});
    EXPECT_DOUBLE_EQ(shares->withoutCapacity->typical[0].probability, 0.75);
    EXPECT_FALSE(mig->asksCapacity);
}

} // namespace device_fragmentation_test
} // namespace drasim::gpushare
