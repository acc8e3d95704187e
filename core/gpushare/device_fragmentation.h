// SPDX-License-Identifier: Apache-2.0
#pragma once

// The FGD paper's fragmentation (fragmentation.h) on DRA devices beyond whole ones: typical claims
// that ask for MIG profiles through shared counters, for consumable capacity, or for devices
// aligned by a matchAttribute constraint (claim_shape.h). It keeps the paper's definition,
// "the expected free capacity a typical workload cannot use, weighted by how popular each typical
// claim is", and claim_fragmentation.h's per-DeviceClass reading of it; only capacity and "cannot
// use" are widened.
//
// Capacity lives in holders, each measured as a share of one device (so a class's free capacity is
// still in devices, and a whole free GPU counts 1 as in claim_fragmentation.h):
//   * a counter set (KEP-4815 partitionable devices: the MIG placements of one GPU, the
//     partitions of one example GPU): the mean over its counters of left / total, the counters
//     left being what the devices in use did not take. An untouched GPU holds 1; one whose 1g
//     instance took a seventh of its engines and an eighth of its memory slices about 0.87;
//   * a device that allows multiple allocations (consumable capacity): the mean over its
//     capacities of what the shares allocated on it leave / the capacity;
//   * any other device: 1 while no claim holds it, 0 once one does.
// A device that consumes counters belongs to the holder of its first counter set; a holder is of
// class C when one of its devices is, and G_n,C is the sum of the shares of C's holders on node n.
//
// Typical claim m fits on n when all its requests can be served at once, first fit in the node's
// device order as the allocator's first attempt takes them: request r takes count_r devices that
// serve it (C's and r's selectors accept the device, the device has the capacity r asks for) whose
// counters (and, sharing a device, capacity) are left after what is in use and what m took before,
// devices distinct except a shareable one across requests, and the requests of one matchAttribute
// constraint on devices with one value of the attribute (the values tried in device order).
//
// A request with alternatives (a firstAvailable list, claim_shape.h) is served by one of them.
// The allocator walks a claim's requests depth first, each list's alternatives in order, and
// moves to a list's next alternative only when the claim cannot be completed with this one
// (Allocator::visitRequest; upstream's structured allocator walks subrequests alike), so m is
// served on n by the first choice of alternatives, in that order (earlier lists first), with
// which it fits as above: "one H100, else two A100" fits an A100-only node with its second
// alternative. m's requests on n are then the alternatives of that choice (all of m's when it
// fits nowhere: it takes nothing, so nothing of the node is usable to it).
//
//   f_n,C(m) = G_n,C when m's requests on n ask for no device of C (m takes no device of C there:
//              the paper's CPU-only pod), or m does not fit on n (the paper's "does not fit");
//            = otherwise the shares of the holders of C that m could take nothing of for one of
//              its requests on n of class C: no device of the holder serves such a request with
//              the counters and capacity left now, or (an aligned request) its attribute value is
//              none with which m fits with that choice: the paper's "GPUs with less free milli
//              than the pod asks" (frag.go's NodeGpuShareFragAmount, fragmentation.h: a
//              node's free GPUs are fragment for pod m when m cannot fit, or when it asks for
//              none of them).
//   F_n,C(M) = sum over m of p_m f_n,C(m); the cluster's is the sum over its nodes.
//
// So on an A100-only node "one H100, else two A100" strands exactly what "two A100" strands, and
// on a node with a free H100 and free A100s it takes the H100, leaving the A100s fragment for it.
// Typical claims are grouped by their whole shape, alternatives included (normalizeShape).
//
// So a GPU with memory slices left but no placement of a popular profile is fragment (the
// partitions of other GPUs serve the profile), a GPU whose PCIe root has no free NIC is fragment
// for GPU+NIC claims aligned on pcieRoot, and a shared device with less memory left than the
// popular request is fragment for it. On whole devices with plain requests this is
// claim_fragmentation.h's measure exactly (a free device has share 1 and serves every request of
// its class); runs whose typical claims are all plain are measured there (the law in
// test_device_fragmentation.cpp ties the two).
//
// fgd scores a pod on a node it fits by trunc(100 sigmoid(F0 - F1)), F summed over the classes
// the pod takes there (of the alternatives it is served by), F1 after the pod's devices are taken
// first fit (claimFgdScore's rule).
//
// Where it applies (claimTargetOf, sim::workloadClaimTarget): requests' selectors are read only
// on clusters that publish partitions or shareable devices (an alternative's selectors always:
// they are what tells alternatives apart), and consumable capacity is left to fragmentation.h
// where a GPU-sharing trace runs, so runs on whole devices without alternatives keep their
// numbers.
// Modelled: counts, selectors, MIG profiles through shared counters, consumable capacity,
// matchAttribute alignment, firstAvailable alternatives (the allocator's order of choices).
// Not modelled: allocationMode All (a subrequest of it is left out of its list); distinctAttribute;
// which placement of several fitting ones the allocator picks beyond first fit within one choice
// of alternatives (its backtracking over devices: a choice whose first fit fails is passed over
// though another placement would serve it); at most 256 attempts (choices times aligned values)
// per claim; an alternative of a class outside the target's first 64 is left out of its list;
// the node's CPU and memory.

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/gpushare/claim_fragmentation.h"
#include "core/gpushare/claim_shape.h"

namespace drasim::gpushare {

/// Classes are bits of a 64-bit mask: a target keeps the first 64 (in name order).
constexpr size_t kMaxMeasureClasses = 64;

/// What the ids of NodeDevices mean: target classes (bit i of a mask), alignment attributes, and
/// every request of the typical claims (then, when scoring, of the pod), by id.
struct MeasureKeys
{
    struct Request
    {
        RequestShape shape;
        int classIndex = 0; ///< into classes
        int alignIndex = -1; ///< into alignAttributes; -1 when not aligned
    };
    /// A claim's requests: ids [first, end).
    struct Claim
    {
        uint32_t first = 0;
        uint32_t end = 0;
        double probability = 0;
    };
    std::vector<std::string> classes; ///< sorted
    std::vector<std::string> alignAttributes;
    std::vector<Request> requests;
    std::vector<Claim> typical;
    /// What a run's summary calls the measure: in shares of a device (MIG profiles, consumable
    /// capacity, alignment), or on whole devices for a target of whole devices that is general
    /// only for its requests' alternatives (claimTargetOf without readSelectors).
    bool inShares = true;

    /// Appends a claim's requests (classes outside `classes` left out) and returns it.
    Claim add(const ClaimShape& shape, double probability);
};

/// A node's devices of the target's classes.
struct NodeDevices
{
    /// One dimension per counter of a counter set and per capacity of a shareable device.
    std::vector<int64_t> total;
    std::vector<int64_t> left;
    struct Holder
    {
        uint32_t dimBegin = 0;
        uint32_t dimEnd = 0;
        int32_t wholeDevice = -1; ///< a device allocated whole: its index; else -1
        uint64_t classes = 0;
    };
    struct Device
    {
        uint32_t holder = 0;
        uint64_t classes = 0;
        bool multi = false; ///< allows multiple allocations
        bool held = false; ///< a claim holds it (dedicated)
        std::vector<std::pair<uint32_t, int64_t>> counters; ///< dimension, what taking it consumes
        std::vector<uint8_t> serves; ///< by request id
        /// Shareable device: by request id, what serving the request consumes of its capacity.
        std::vector<std::vector<std::pair<uint32_t, int64_t>>> capacity;
        std::vector<std::string> align; ///< by alignment attribute: the value, "" when none
    };
    std::vector<Holder> holders;
    std::vector<Device> devices;
};

/// A holder's share now: whole device 1 or 0, otherwise the mean of left / total over its
/// dimensions with a total above 0 (1 when it has none).
double holderShare(const NodeDevices& node, uint32_t holder);

/// G_n,C for every class of the keys.
std::vector<double> classFree(const NodeDevices& node, const MeasureKeys& keys);

/// Whether the claim fits on the node (first fit, with the first choice of alternatives that
/// fits, as the header says).
bool fitsClaim(const NodeDevices& node, const MeasureKeys& keys, MeasureKeys::Claim claim);

/// Takes the claim's devices (first fit, the first choice of alternatives that fits) when it
/// fits: true, and the node is what is left.
bool takeClaim(NodeDevices& node, const MeasureKeys& keys, MeasureKeys::Claim claim);

/// f_n,C(m) for class index `classIndex`.
double claimFragmentOf(
    const NodeDevices& node, const MeasureKeys& keys, MeasureKeys::Claim claim, int classIndex);

/// F_n,C(M) for every class of the keys, against keys.typical.
std::vector<double> nodeDeviceFragment(const NodeDevices& node, const MeasureKeys& keys);

/// The sum over the nodes, per class with free capacity somewhere (clusterClaimFragment's form).
std::map<std::string, ClassFragment> clusterDeviceFragment(
    const std::vector<NodeDevices>& nodes, const MeasureKeys& keys);

/// FGD's score of the pod's claim on a node it fits (0..100, as claimFgdScore); 0 when it does
/// not fit.
int64_t deviceFgdScore(const NodeDevices& node, const MeasureKeys& keys, MeasureKeys::Claim pod);

/// The typical claims of the pods' shapes (keepPopularShapes over the shapes) as measure keys.
MeasureKeys measureKeysOf(const std::map<ClaimShape, int64_t>& podsByShape, int popularityPercent = 95);

/// The target of the pods' shapes: claimTargetOf of their device counts when every shape is
/// plain (so whole-device runs keep their numbers), else one with `general` keys; null when no
/// shape asks for a device. Without `readSelectors` (a cluster whose devices are all whole, no
/// partitions, no shareable devices) the requests' selectors are dropped first: on whole devices
/// the measure counts a class's devices as claim_fragmentation.h does, whatever narrows them
/// (but alternatives keep theirs).
std::shared_ptr<const ClaimTarget> claimTargetOf(
    const std::map<ClaimShape, int64_t>& podsByShape, int popularityPercent = 95, bool readSelectors = true);

} // namespace drasim::gpushare
