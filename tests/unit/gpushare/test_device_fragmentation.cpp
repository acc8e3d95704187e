// SPDX-License-Identifier: Apache-2.0
// The general claim measure (device_fragmentation.h): exact values on small hand-made nodes (MIG
// partitions through shared counters, consumable capacity, GPU+NIC alignment, firstAvailable
// alternatives), and the laws that tie it to the whole-device measure, read a claim with
// alternatives as the alternatives it takes, and keep it sane on random nodes.

#include <algorithm>
#include <cmath>
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

/// Appends a GPU (of class index 0) whose slices in `used` are taken (by held partitions), with
/// every placement of every profile as a device consuming its slices.
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
                d.serves.push_back(keys.requests[r].classIndex == 0 && profileOf(keys, r) == p.name);
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
    const RequestShape share { "gpu", {}, 1, { { "memory", 10000 } }, {}, -1, -1, 0 };
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

/// A request that is alternative `rank` of firstAvailable list `list`.
RequestShape alternativeOf(RequestShape r, int list, int rank)
{
    r.firstAvailable = list;
    r.alternative = rank;
    return r;
}

TEST(DeviceFragmentation, OneH100ElseTwoA100FitsAnA100NodeAsTwoA100)
{
    // Typical claim: one H100, else two A100 (p 1). Class 0 is a100, class 1 h100.
    MeasureKeys keys;
    keys.classes = { "a100", "h100" };
    const ClaimShape either { alternativeOf({ "h100", {}, 1, {}, {}, -1 }, 0, 0),
        alternativeOf({ "a100", {}, 2, {}, {}, -1 }, 0, 1) };
    keys.typical.push_back(keys.add(either, 1.0));
    const MeasureKeys::Claim firstOnly = keys.add({ { "h100", {}, 1, {}, {}, -1 } }, 1.0);
    const MeasureKeys::Claim secondOnly = keys.add({ { "a100", {}, 2, {}, {}, -1 } }, 1.0);
    const MeasureKeys::Claim pod = keys.add(either, 1.0);

    // An A100-only node with two of three A100s free: served by two A100, nothing stranded (read
    // as its first alternative only, it would not fit and strand both).
    NodeDevices a100s;
    for (int d = 0; d < 3; ++d)
        addWhole(a100s, keys, 0, "", d == 0);
    EXPECT_TRUE(fitsClaim(a100s, keys, keys.typical[0]));
    EXPECT_DOUBLE_EQ(nodeDeviceFragment(a100s, keys)[0], 0.0);
    EXPECT_DOUBLE_EQ(claimFragmentOf(a100s, keys, secondOnly, 0), 0.0);
    EXPECT_DOUBLE_EQ(claimFragmentOf(a100s, keys, firstOnly, 0), 2.0);
    EXPECT_EQ(deviceFgdScore(a100s, keys, pod), deviceFgdScore(a100s, keys, secondOnly));
    NodeDevices taken = a100s;
    ASSERT_TRUE(takeClaim(taken, keys, pod));
    EXPECT_TRUE(taken.devices[1].held && taken.devices[2].held);

    // One A100 free: it fits with neither alternative; the A100 is fragment.
    a100s.devices[1].held = true;
    EXPECT_FALSE(fitsClaim(a100s, keys, keys.typical[0]));
    EXPECT_DOUBLE_EQ(nodeDeviceFragment(a100s, keys)[0], 1.0);

    // A free H100 beside two free A100: it takes the H100, so both A100 are fragment for it (it
    // takes none of them here) and the H100 is not.
    NodeDevices mixed;
    addWhole(mixed, keys, 1, "");
    addWhole(mixed, keys, 0, "");
    addWhole(mixed, keys, 0, "");
    const std::vector<double> f = nodeDeviceFragment(mixed, keys);
    EXPECT_DOUBLE_EQ(f[0], 2.0);
    EXPECT_DOUBLE_EQ(f[1], 0.0);
    taken = mixed;
    ASSERT_TRUE(takeClaim(taken, keys, pod));
    EXPECT_TRUE(taken.devices[0].held);
    EXPECT_FALSE(taken.devices[1].held || taken.devices[2].held);
    // Its score counts the class it takes: the H100's fragment does not move (0 before and after).
    EXPECT_EQ(deviceFgdScore(mixed, keys, pod), 50);
}

// Law: a firstAvailable list of one alternative is the request itself, for the measure, the fit
// and the score, on random MIG nodes with random typical claims.
TEST(DeviceFragmentation, ListsOfOneAlternativeAreTheRequestsThemselves)
{
    std::mt19937_64 rng(1957);
    for (int trial = 0; trial < 200; ++trial) {
        MeasureKeys plain, listed;
        plain.classes = listed.classes = { "mig" };
        const int n = 1 + int(rng() % 4);
        for (int i = 0; i < n; ++i) {
            ClaimShape shape, lists;
            for (int r = 0, k = 1 + int(rng() % 2); r < k; ++r) {
                shape.push_back(
                    profileRequest(kProfiles[rng() % kProfiles.size()].name, 1 + int64_t(rng() % 2)));
                lists.push_back(alternativeOf(shape.back(), r, 0));
            }
            plain.typical.push_back(plain.add(shape, 1.0 / n));
            listed.typical.push_back(listed.add(lists, 1.0 / n));
        }
        NodeDevices node;
        for (int g = 0, gpus = int(rng() % 4); g < gpus; ++g) {
            std::vector<int> used;
            for (int i = 0; i < 8; ++i)
                if (rng() % 3 == 0)
                    used.push_back(i);
            addMigGpu(node, plain, used);
        }
        EXPECT_EQ(nodeDeviceFragment(node, plain), nodeDeviceFragment(node, listed)) << "trial " << trial;
        for (size_t m = 0; m < plain.typical.size(); ++m) {
            EXPECT_EQ(fitsClaim(node, plain, plain.typical[m]), fitsClaim(node, listed, listed.typical[m]));
            EXPECT_EQ(deviceFgdScore(node, plain, plain.typical[m]),
                deviceFgdScore(node, listed, listed.typical[m]))
                << "trial " << trial;
        }
    }
}

/// A random request of class mig (a profile) or whole (a count).
RequestShape randomRequest(std::mt19937_64& rng)
{
    if (rng() % 2)
        return profileRequest(kProfiles[rng() % kProfiles.size()].name, 1 + int64_t(rng() % 2));
    return { "whole", {}, 1 + int64_t(rng() % 3), {}, {}, -1 };
}

/// A random claim with alternatives: a request of its own now and then, and one or two lists of
/// one to three alternatives; `choices` gets every choice of alternatives as plain requests, in
/// the allocator's order (the last list moving fastest).
ClaimShape randomListedClaim(std::mt19937_64& rng, std::vector<ClaimShape>& choices)
{
    ClaimShape claim;
    ClaimShape base;
    if (rng() % 3 == 0) {
        base.push_back(randomRequest(rng));
        claim.push_back(base.back());
    }
    choices = { base };
    for (int list = 0, lists = 1 + int(rng() % 2); list < lists; ++list) {
        std::vector<RequestShape> alternatives;
        for (int a = 0, k = 1 + int(rng() % 3); a < k; ++a) {
            alternatives.push_back(randomRequest(rng));
            claim.push_back(alternativeOf(alternatives.back(), list, a));
        }
        std::vector<ClaimShape> next;
        for (const ClaimShape& c : choices)
            for (const RequestShape& a : alternatives) {
                next.push_back(c);
                next.back().push_back(a);
            }
        choices = std::move(next);
    }
    return claim;
}

// Law: a claim with alternatives fits where one of its choices of alternatives fits, and there
// it is the first such choice, in the allocator's order, for the measure of every class (the
// classes it takes no device of there all fragment), the devices it takes and the fgd score; where
// none fits, every free device is fragment. Random nodes of MIG GPUs (class mig) and whole
// devices (class whole), random typical claims, some with alternatives.
TEST(DeviceFragmentation, AClaimWithAlternativesIsMeasuredAsTheChoiceItTakes)
{
    std::mt19937_64 rng(2026);
    int fitted = 0, later = 0, none = 0;
    for (int trial = 0; trial < 300; ++trial) {
        MeasureKeys keys;
        keys.classes = { "mig", "whole" };
        for (int i = 0, n = 1 + int(rng() % 3); i < n; ++i) {
            std::vector<ClaimShape> unused;
            keys.typical.push_back(keys.add(
                rng() % 2 ? randomListedClaim(rng, unused) : ClaimShape { randomRequest(rng) }, 1.0 / n));
        }
        std::vector<ClaimShape> choiceShapes;
        const MeasureKeys::Claim claim = keys.add(randomListedClaim(rng, choiceShapes), 1.0);
        std::vector<MeasureKeys::Claim> choices;
        for (const ClaimShape& c : choiceShapes)
            choices.push_back(keys.add(c, 1.0));
        NodeDevices node;
        for (int g = 0, gpus = int(rng() % 3); g < gpus; ++g) {
            std::vector<int> used;
            for (int i = 0; i < 8; ++i)
                if (rng() % 3 == 0)
                    used.push_back(i);
            addMigGpu(node, keys, used);
        }
        for (int d = 0, wholes = int(rng() % 5); d < wholes; ++d)
            addWhole(node, keys, 1, "", rng() % 3 == 0);

        const auto first = std::find_if(
            choices.begin(), choices.end(), [&](const auto& c) { return fitsClaim(node, keys, c); });
        ASSERT_EQ(fitsClaim(node, keys, claim), first != choices.end()) << "trial " << trial;
        const std::vector<double> free = classFree(node, keys);
        NodeDevices taken = node, takenByChoice = node;
        ASSERT_EQ(takeClaim(taken, keys, claim), first != choices.end());
        if (first == choices.end()) {
            ++none;
            for (int c = 0; c < 2; ++c)
                EXPECT_DOUBLE_EQ(claimFragmentOf(node, keys, claim, c), free[size_t(c)]) << "trial " << trial;
            EXPECT_EQ(deviceFgdScore(node, keys, claim), 0);
            continue;
        }
        ++(first == choices.begin() ? fitted : later);
        for (int c = 0; c < 2; ++c)
            EXPECT_DOUBLE_EQ(claimFragmentOf(node, keys, claim, c), claimFragmentOf(node, keys, *first, c))
                << "trial " << trial << ", class " << c;
        ASSERT_TRUE(takeClaim(takenByChoice, keys, *first));
        EXPECT_EQ(taken.left, takenByChoice.left);
        for (size_t d = 0; d < node.devices.size(); ++d)
            EXPECT_EQ(taken.devices[d].held, takenByChoice.devices[d].held);
        EXPECT_EQ(deviceFgdScore(node, keys, claim), deviceFgdScore(node, keys, *first)) << "trial " << trial;
    }
    EXPECT_GT(fitted, 0);
    EXPECT_GT(later, 0);
    EXPECT_GT(none, 0);
}

// Law: the fgd score of a pod, with alternatives or not, is trunc(100 sigmoid(F0 - F1)) over the
// classes it takes devices of on the node, F1 the measure once it took them (random nodes and
// claims as above).
TEST(DeviceFragmentation, TheScoreIsTheMeasuresDropOverTheClassesThePodTakes)
{
    std::mt19937_64 rng(4242);
    int scored = 0;
    for (int trial = 0; trial < 300; ++trial) {
        MeasureKeys keys;
        keys.classes = { "mig", "whole" };
        for (int i = 0, n = 1 + int(rng() % 3); i < n; ++i) {
            std::vector<ClaimShape> unused;
            keys.typical.push_back(keys.add(randomListedClaim(rng, unused), 1.0 / n));
        }
        std::vector<ClaimShape> unused;
        const MeasureKeys::Claim pod = keys.add(randomListedClaim(rng, unused), 1.0);
        NodeDevices node;
        for (int g = 0, gpus = int(rng() % 3); g < gpus; ++g)
            addMigGpu(node, keys, rng() % 2 ? std::vector<int> { 0 } : std::vector<int> {});
        for (int d = 0, wholes = int(rng() % 5); d < wholes; ++d)
            addWhole(node, keys, 1, "", rng() % 3 == 0);
        NodeDevices after = node;
        if (!takeClaim(after, keys, pod)) {
            EXPECT_EQ(deviceFgdScore(node, keys, pod), 0);
            continue;
        }
        ++scored;
        const std::vector<double> before = nodeDeviceFragment(node, keys);
        const std::vector<double> then = nodeDeviceFragment(after, keys);
        double drop = 0;
        for (size_t c = 0; c < 2; ++c) {
            bool tookOne = false; // a device of class c changed hands, or its counters moved
            for (size_t d = 0; d < node.devices.size(); ++d)
                tookOne = tookOne
                    || ((node.devices[d].classes >> c & 1) && node.devices[d].held != after.devices[d].held);
            for (size_t h = 0; h < node.holders.size(); ++h)
                tookOne = tookOne
                    || ((node.holders[h].classes >> c & 1)
                        && holderShare(node, uint32_t(h)) != holderShare(after, uint32_t(h)));
            if (tookOne)
                drop += before[c] - then[c];
        }
        EXPECT_EQ(deviceFgdScore(node, keys, pod), int64_t(100.0 / (1.0 + std::exp(-drop))))
            << "trial " << trial;
    }
    EXPECT_GT(scored, 0);
}

TEST(DeviceFragmentation, AlternativesStayApartInTheShapeAndMakeTheTargetGeneral)
{
    const RequestShape large { "gpu", { "memory >= 128" }, 4, {}, {}, -1 };
    const RequestShape small { "gpu", { "memory >= 64" }, 8, {}, {}, -1 };
    ClaimShape either { alternativeOf(small, 0, 1), alternativeOf(large, 0, 0),
        { "nic", {}, 1, {}, {}, -1 } };
    normalizeShape(either);
    EXPECT_FALSE(isPlain(either));
    ASSERT_EQ(either.size(), 3u);
    const ClaimShape reversed { alternativeOf(small, 0, 0), alternativeOf(large, 0, 1),
        { "nic", {}, 1, {}, {}, -1 } };
    // Grouped by the whole shape: another order of the alternatives is another typical claim; the
    // device counts (for reference) read a list as its first alternative.
    const auto target = claimTargetOf(std::map<ClaimShape, int64_t> { { either, 3 }, { reversed, 1 } }, 100);
    ASSERT_NE(target, nullptr);
    ASSERT_NE(target->general, nullptr);
    ASSERT_EQ(target->general->typical.size(), 2u);
    EXPECT_DOUBLE_EQ(target->general->typical[0].probability, 0.75);
    ASSERT_EQ(target->typical.size(), 2u);
    EXPECT_EQ(target->typical[0].shape, (DeviceCounts { { "gpu", 4 }, { "nic", 1 } }));
    EXPECT_EQ(target->typical[1].shape, (DeviceCounts { { "gpu", 8 }, { "nic", 1 } }));
    // On whole devices only, the alternatives keep their selectors (what tells them apart); the
    // request without alternatives loses its own.
    const auto whole = claimTargetOf(std::map<ClaimShape, int64_t> { { either, 1 } }, 100, false);
    ASSERT_NE(whole, nullptr);
    ASSERT_NE(whole->general, nullptr);
    size_t withSelectors = 0;
    for (const MeasureKeys::Request& r : whole->general->requests)
        withSelectors += !r.shape.selectors.empty();
    EXPECT_EQ(withSelectors, 2u);
    // Measured on whole devices, said so: general only for its alternatives. Where selectors are
    // read (partitions, shareable devices), or with alignment, in shares of a device.
    EXPECT_FALSE(whole->general->inShares);
    EXPECT_TRUE(target->general->inShares);
    ClaimShape aligned = either;
    aligned.back().matchAttribute = "resource.kubernetes.io/pcieRoot";
    aligned.back().alignGroup = 1;
    const auto alignedWhole = claimTargetOf(std::map<ClaimShape, int64_t> { { aligned, 1 } }, 100, false);
    ASSERT_NE(alignedWhole, nullptr);
    EXPECT_TRUE(alignedWhole->general->inShares);
}

} // namespace device_fragmentation_test
} // namespace drasim::gpushare
