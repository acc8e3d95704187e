// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/sim/failure_spec.h"
#include "core/sim/simulator.h"

namespace drasim::sim {

/// The NodeFailure and NodeReturn events (and a spot reclaim's cordon) the failure settings of
/// one node draw over [0, duration], in time order. Each node has its own random stream, derived
/// from the run's seed and the node's name: adding a node or a pool leaves the others' draws as
/// they were, and the same seed gives the same times. A node's timeline alternates up and down
/// times, so it never fails while it is down; a failure and a reclaim race, the earlier wins.
std::vector<InjectedEvent> drawNodeFailures(
    const std::string& node, const PoolFailures& settings, uint64_t seed, SimTime duration);

/// drawNodeFailures for every node of the pools that have failure settings, in time order (stable:
/// pool order, then node order, at equal times). Empty when no pool has any.
std::vector<InjectedEvent> drawFailureEvents(
    const std::vector<std::shared_ptr<const NodePool>>& pools, uint64_t seed, SimTime duration);

/// The taint key a spot node carries from its reclaim notice until it goes away.
constexpr const char* kSpotReclaimTaintKey = "drasim.dev/spot-reclaim";

} // namespace drasim::sim
