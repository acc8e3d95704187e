// SPDX-License-Identifier: Apache-2.0
#include "core/scheduler/filter_order.h"

namespace drasim::scheduler {

bool passesFiltersInOrder(const std::vector<FilterPlugin>& order, const api::Node& node,
    const NodeUsage& usage, const api::Pod& pod, const PodRequests& req, const PlacementCycle* placement,
    uint32_t idx, std::vector<std::string>& reasons)
{
    for (FilterPlugin f : order) {
        const char* why = nullptr;
        if (f == FilterPlugin::PodTopologySpread) {
            why = placement && placement->filterSpread ? placement->spread.check(idx) : nullptr;
        } else if (f == FilterPlugin::InterPodAffinity) {
            why = placement && placement->filterAffinity ? placement->affinity.check(node) : nullptr;
        } else if (!passesNodeFilters(node, usage, pod, req, reasons, filterBit(f))) {
            return false;
        }
        if (why) {
            reasons.emplace_back(why);
            return false;
        }
    }
    return true;
}

} // namespace drasim::scheduler
