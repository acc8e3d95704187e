// SPDX-License-Identifier: Apache-2.0
#pragma once

// The claim measure on the scheduler's state (claim_scoring.h says what counts as free): the
// nodes' free devices per class of SchedulerOptions::claimTarget, and the fgd policy's score of a
// pod whose claims ask for such devices. Private to the scheduler module.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/gpushare/claim_fragmentation.h"
#include "core/gpushare/device_fragmentation.h"
#include "core/scheduler/cluster_impl.h"
#include "core/scheduler/scoring.h"

namespace drasim::scheduler {

/// Counter set name -> counter -> amount.
using ClaimCounters = std::map<std::string, std::map<std::string, Quantity>>;

/// What the pool's counter sets have left after the devices in use (dedicated or shared) took
/// theirs, relevant slices or not, as the allocator charges them (Allocator::countersFor).
ClaimCounters availableCounters(const allocator::NodePool& pool, const allocator::AllocatedState& state);

struct Cluster::Impl::ClaimScoring
{
    /// A target class that exists, with the selector set of its own selectors.
    struct ClassSet
    {
        const std::string* name;
        uint32_t set;
    };

    static std::vector<ClassSet> classSets(Impl& d);

    /// Node idx's free devices of each class (a class with none left out); its devices of each
    /// class, free or not, added to `installed` when given.
    static gpushare::DeviceCounts nodeFree(
        Impl& d, uint32_t idx, const std::vector<ClassSet>& sets, gpushare::DeviceCounts* installed);

    /// The devices of the target's classes the cycle's unallocated claims ask for.
    static gpushare::DeviceCounts podShape(const Impl& d, const Cycle& cycle);

    /// The device counts of the pod's requests (podRequests) for each choice of alternatives of
    /// its firstAvailable lists, in the order the allocator tries them (the last list moving
    /// fastest; at most 256); one when it has no alternatives. Capacity requests are left out.
    static std::vector<gpushare::DeviceCounts> podChoices(const gpushare::ClaimShape& requests);

    /// fillScores of a pod with alternatives on a whole-device target: on each node, the first
    /// choice the node's free devices hold (counted per class, its classes outside the target's
    /// too; the first choice when none does) is the one scored, by its devices of the target's
    /// classes (none: 50). Nothing when no choice asks for a device of the target's classes.
    static void fillChoiceScores(Impl& d, const std::vector<gpushare::DeviceCounts>& choices,
        const std::vector<uint32_t>& feasible, std::vector<ScoreInputs>& inputs);

    /// Sets claimScore of `inputs` (one per node of `feasible`, same order) when the pod's claims
    /// ask for devices of the target's classes (claimFgdScore, against its typical claims, of the
    /// alternatives the pod takes on the node; the general measure's deviceFgdScore when the
    /// target has general keys).
    static void fillScores(
        Impl& d, const Cycle& cycle, const std::vector<uint32_t>& feasible, std::vector<ScoreInputs>& inputs);

    // The general measure (device_fragmentation.h), in claim_devices.cpp.

    /// The selector sets of the keys: one per class, one per request.
    struct KeySets
    {
        std::vector<uint32_t> classes; ///< by class index; kNoSet for a class the cluster lacks
        std::vector<uint32_t> requests; ///< by request id
        std::vector<const api::DeviceClass*> requestClasses; ///< by request id, null when missing
    };
    static constexpr uint32_t kNoSet = UINT32_MAX;
    static KeySets keySets(Impl& d, const gpushare::MeasureKeys& keys);
    class NodeDevicesBuilder;

    /// Node idx's devices of the keys' classes as the general measure reads them (its view's
    /// devices, the counters and capacity the devices in use left).
    static gpushare::NodeDevices nodeDevices(
        Impl& d, uint32_t idx, const gpushare::MeasureKeys& keys, const KeySets& sets);

    /// The requests of the cycle's unallocated claims (addClaimRequests), normalised.
    static gpushare::ClaimShape podRequests(const Cycle& cycle);

    /// fillScores for a target with general keys.
    static void fillGeneralScores(
        Impl& d, const Cycle& cycle, const std::vector<uint32_t>& feasible, std::vector<ScoreInputs>& inputs);

    /// claimFragmentation for a target with general keys.
    static std::map<std::string, gpushare::ClassFragment> generalFragmentation(Impl& d);
};

} // namespace drasim::scheduler
