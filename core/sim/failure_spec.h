// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <vector>

#include "core/sim/sim_time.h"

namespace drasim::sim {

/// How long a node stays down once it has failed (or been reclaimed): a repair, or the time a
/// node group takes to bring a replacement.
struct DownTime
{
    enum class Distribution { Exponential, Fixed, Lognormal };
    SimTime mean = 0;
    Distribution distribution = Distribution::Exponential;
    /// Lognormal: the standard deviation of ln(x); its median is mean * exp(-sigma^2 / 2), so the
    /// mean stays the one written.
    double sigma = 1.0;
};

/// Hardware failures of each node of a pool: a renewal process whose time between failures (from
/// a node's return to its next failure) is exponential with mean `mtbf`, or Weibull with shape
/// `weibullShape` and the same mean (shape < 1: failures come early, as in infant mortality;
/// shape > 1: wear-out).
struct NodeFailureProcess
{
    SimTime mtbf = 0;
    double weibullShape = 1.0;
    DownTime repair;
};

/// Spot (preemptible) capacity: the provider reclaims each node at `ratePerHour` (a Poisson
/// process), announcing it `notice` ahead. The node is cordoned at the notice and goes away at
/// its end, taking the pods still on it; a replacement (the same node) comes back after
/// `replacement`, as a managed node group asks for one to keep its size.
struct SpotReclaim
{
    double ratePerHour = 0;
    SimTime notice = 0;
    DownTime replacement;
};

/// A node pool's failure settings (none: its nodes never fail on their own).
struct PoolFailures
{
    std::optional<NodeFailureProcess> failures;
    std::optional<SpotReclaim> spot;
    /// The hardware failure processes of the device models its nodes carry (a Scenario's
    /// spec.cluster.failures.byDeviceModel, core/scenario/device_model_failures.h), set when
    /// preparing only for a pool without `failures` of its own. Each process runs on its own
    /// stream, beside `failures` if both are set: a node goes down at the earliest failure of any.
    std::vector<NodeFailureProcess> deviceModelFailures;

    bool any() const { return failures.has_value() || spot.has_value() || !deviceModelFailures.empty(); }
};

} // namespace drasim::sim
