// SPDX-License-Identifier: Apache-2.0
#pragma once

// Small random manifest bundles for the allocator's invariant test: 1–3 nodes in two racks, two
// drivers, node-local pools (some republished in a second generation under other slice names, some
// incomplete, some invalid through repeated device names), network pools (all nodes, per rack,
// per-device node selection; some devices bind to the node), shared counters, taints (also from
// DeviceTaintRules), binding conditions, shareable devices with consumable capacity (ranges and
// valid values), claims allocated before the run (also on partitions), class and claim
// configuration, and pods whose claims mix counts (rarely over the claim limit), All mode, admin
// access, firstAvailable, request selectors, tolerations, capacity requests and constraints on all
// requests, one request or one alternative; now and then a pod also uses the claim of the pod
// before it. A seed gives the same bundle on every platform (no standard distributions).

#include <cstdint>
#include <vector>

#include "core/api/object_set.h"

namespace drasim::testing {

/// splitmix64: tiny, portable, good enough to draw test inputs.
class BundleRng
{
public:
    explicit BundleRng(uint64_t seed)
        : m_state(seed)
    { }
    uint64_t next();
    /// Uniform in [0, n).
    uint64_t below(uint64_t n) { return next() % n; }
    /// True with probability percent / 100.
    bool chance(uint64_t percent) { return below(100) < percent; }

private:
    uint64_t m_state;
};

struct RandomBundle
{
    api::ObjectSet objects; ///< nodes, slices, classes, claims (some already allocated)
    std::vector<api::Pod> pods; ///< to schedule, in order (also in objects.pods)
};

RandomBundle makeRandomBundle(uint64_t seed);

} // namespace drasim::testing
