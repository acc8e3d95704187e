// SPDX-License-Identifier: Apache-2.0
#pragma once

// The FGD paper's fragmentation (fragmentation.h) generalised from the typical pods of a
// GPU-sharing trace to the typical claims of a workload on DRA devices that are allocated whole:
// a claim's shape is how many devices of each DeviceClass it asks for, so a claim for a GPU and a
// NIC is one shape with two classes. Per class C and typical claim m (probability p_m), a node's
// free devices of C count as fragment:
//   * all of them when m asks for no device of C (the paper's CPU-only pod, whose presence in the
//     target workload gives the measure its constant offset);
//   * all of them when m does not fit on the node (some class it asks for has fewer free devices
//     than it asks for): the paper's "does not fit";
//   * none when m fits: a whole device is never too small for a claim, so nothing is stranded
//     (the paper's "GPUs with less free milli than the pod asks").
// F_n,C(M) = sum over m of p_m f_n,C(m); the cluster's fragment of C is the sum over its nodes.
// For one class of GPUs this is the paper's measure on a node whose GPUs are each free or used,
// in devices instead of milli-GPU (the law in test_claim_fragmentation.cpp).
//
// Where it is used: `drasim simulate` samples it per class against the typical claims of the
// run's workload (core/scheduler/claim_scoring.h, claimFragmentation), and the fgd scoring policy
// scores a pod whose claims ask for devices of those classes with claimFgdScore.
//
// Modelled: whole devices counted per DeviceClass (a claim's ExactCount requests; a firstAvailable
// list of one subrequest as that subrequest); a partition (a device that consumes shared
// counters) counts as free only while the counters it needs are left after the devices in use
// took theirs. The fgd score of a pod with firstAvailable alternatives whose typical claims have
// none scores, on each node, the first choice of alternatives the node's free devices hold by
// count (claim_scoring_impl.h, fillChoiceScores).
// Not modelled here, but in device_fragmentation.h, which measures every run whose typical
// claims ask for any of them (a request's own selectors, such as a MIG profile; consumable
// capacity; a matchAttribute constraint; firstAvailable alternatives, read here as their first):
//   * MIG profiles as shapes: a free partition of any profile counts for every typical claim of
//     its class, and overlapping free partitions each count as a free device though only one can
//     be taken (a class of partitions asked for without a profile is still counted so);
//   * consumable capacity: devices that allow multiple allocations are left out;
//   * alignment: free GPUs and NICs of one node count as usable together wherever they sit.
// Not modelled at all:
//   * allocationMode All;
//   * the node's CPU and memory;
//   * devices of slices that several nodes see (network-attached pools) count on each of them;
//   * which devices the allocator will take: the fgd score subtracts the pod's counts per class
//     from the node's free counts (its alternatives told apart by count only, not by selectors).

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace drasim::gpushare {

/// Devices per DeviceClass: what a claim asks for, or what a node has free.
using DeviceCounts = std::map<std::string, int64_t>;

struct TypicalClaim
{
    DeviceCounts shape; ///< classes with a count above 0
    double probability = 0; ///< renormalised over the kept shapes, so they sum to 1
    int64_t count = 0; ///< claims of this shape in the workload
};

/// The typical claims of a workload's claims (each the devices it asks for per class; an empty
/// shape is a pod without devices): shapes sorted by count, highest first, kept until they cover
/// at least `popularityPercent` % of the claims, then renormalised (keepPopularShapes, as
/// typicalPods does).
std::vector<TypicalClaim> typicalClaims(const std::vector<DeviceCounts>& claims, int popularityPercent = 95);
/// The same from the claims counted by shape (a workload of many pods holds few shapes).
std::vector<TypicalClaim> typicalClaims(
    const std::map<DeviceCounts, int64_t>& claimsByShape, int popularityPercent = 95);

/// What the claim measure of a run measures against: the typical claims of its workload, and the
/// device classes they ask for (sorted), the only classes whose free devices are counted.
struct MeasureKeys;

struct ClaimTarget
{
    std::vector<TypicalClaim> typical;
    std::vector<std::string> classes;
    /// Set when a typical claim asks for more than whole devices (a MIG profile, consumable
    /// capacity, alignment): the general measure of device_fragmentation.h, whose typical claims
    /// these are; `typical` then holds their device counts, for reference only.
    std::shared_ptr<const MeasureKeys> general;
    /// Set when a typical claim asks for consumable capacity: the target with those requests left
    /// out (null when nothing is left), for runs whose shared GPUs the paper's own measure covers
    /// (a GPU-sharing trace: fragmentation.h).
    bool asksCapacity = false;
    std::shared_ptr<const ClaimTarget> withoutCapacity;
};

/// The target of a workload's claims by shape; null when no shape asks for a device (a workload
/// without claims has nothing to fragment).
std::shared_ptr<const ClaimTarget> claimTargetOf(
    const std::map<DeviceCounts, int64_t>& claimsByShape, int popularityPercent = 95);

/// Whether the node has, for every class the claim asks for, at least as many free devices.
bool claimFits(const DeviceCounts& nodeFree, const DeviceCounts& claim);

/// f_n,C(m): the free devices of `deviceClass` on the node that the typical claim cannot use.
int64_t claimFragment(
    const DeviceCounts& nodeFree, const DeviceCounts& typical, const std::string& deviceClass);

/// A class's fragment over a cluster at one moment, and the free devices it is a part of (the
/// fragment rate is fragment / free).
struct ClassFragment
{
    double fragment = 0;
    double free = 0; ///< in devices (whole ones here; shares of one in device_fragmentation.h)
};

/// F_n,C(M) for every class the node has free devices of.
std::map<std::string, double> nodeClaimFragment(
    const DeviceCounts& nodeFree, const std::vector<TypicalClaim>& typical);

/// The sum over the nodes, per class with free devices somewhere.
std::map<std::string, ClassFragment> clusterClaimFragment(
    const std::vector<DeviceCounts>& nodesFree, const std::vector<TypicalClaim>& typical);

/// FGD's score (fgd_score.go) for a pod taking `pod` devices of a node whose free devices are
/// `nodeFree` (it fits), in 0..100: trunc(100 * sigmoid(F0 - F1)), F the node's fragment summed
/// over the classes the pod asks for, before (F0) and after (F1) it takes them, in devices. A
/// device counts as the paper's 1000 milli-GPU, so stranding one device more scores 26 as
/// stranding a whole GPU more does there; no change scores 50.
int64_t claimFgdScore(
    const DeviceCounts& nodeFree, const DeviceCounts& pod, const std::vector<TypicalClaim>& typical);

} // namespace drasim::gpushare
