// SPDX-License-Identifier: Apache-2.0
#pragma once

// The claim measure on the scheduler's state (claim_scoring.h says what counts as free): the
// nodes' free devices per class of SchedulerOptions::claimTarget, and the fgd policy's score of a
// pod whose claims ask for such devices. Private to the scheduler module.

#include <cstdint>
#include <string>
#include <vector>

#include "core/gpushare/claim_fragmentation.h"
#include "core/scheduler/cluster_impl.h"
#include "core/scheduler/scoring.h"

namespace drasim::scheduler {

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

    /// Sets claimScore of `inputs` (one per node of `feasible`, same order) when the pod's claims
    /// ask for devices of the target's classes (claimFgdScore, against its typical claims).
    static void fillScores(
        Impl& d, const Cycle& cycle, const std::vector<uint32_t>& feasible, std::vector<ScoreInputs>& inputs);
};

} // namespace drasim::scheduler
