// SPDX-License-Identifier: Apache-2.0
#include "core/allocator/allocation_config.h"

#include <algorithm>
#include <map>

namespace drasim::allocator {

namespace {

bool listed(const std::vector<std::string>& names, const std::string& name)
{
    return std::find(names.begin(), names.end(), name) != names.end();
}

/// Whether a config naming `names` applies to the request: by its name, or, for a request with
/// alternatives, by the "req/sub" of the alternative chosen (the rule upstream builds the list with).
bool appliesTo(const std::vector<std::string>& names, const SettledRequest& r)
{
    return listed(names, r.name) || (r.firstAvailable && listed(names, r.resultName));
}

void appendClassConfigs(
    const std::vector<SettledRequest>& requests, std::vector<api::DeviceAllocationConfiguration>& out)
{
    // One entry per config of a class; a later request of the same class joins its entries.
    std::map<std::string, std::pair<size_t, size_t>> entriesOfClass;
    for (const auto& r : requests) {
        if (!r.cls)
            continue;
        const auto [it, first] = entriesOfClass.try_emplace(r.cls->meta.name, out.size(), out.size());
        if (!first) {
            for (size_t i = it->second.first; i < it->second.second; ++i)
                out[i].requests.push_back(r.resultName);
            continue;
        }
        for (const auto& cfg : r.cls->config)
            out.push_back(api::DeviceAllocationConfiguration { "FromClass", { r.resultName }, cfg });
        it->second.second = out.size();
    }
}

} // namespace

std::vector<api::DeviceAllocationConfiguration> allocationConfig(const std::vector<SettledRequest>& requests,
    const std::vector<api::DeviceClaimConfiguration>& claimConfig, ConfigStyle style)
{
    std::vector<api::DeviceAllocationConfiguration> out;
    appendClassConfigs(requests, out);
    for (const auto& cfg : claimConfig) {
        if (cfg.requests.empty()) {
            out.push_back(api::DeviceAllocationConfiguration { "FromClaim", {}, cfg.opaque });
            continue;
        }
        // Up to 1.36 the copy was appended once per request the config applies to
        // (kubernetes#139730); 1.37 appends it once.
        for (const auto& r : requests) {
            if (!appliesTo(cfg.requests, r))
                continue;
            out.push_back(api::DeviceAllocationConfiguration { "FromClaim", cfg.requests, cfg.opaque });
            if (style == ConfigStyle::Compact)
                break;
        }
    }
    if (style == ConfigStyle::Compact && !requests.empty())
        for (auto& entry : out) {
            // Empty means every request. Coverage is judged per request, not by counting names: a
            // config for two alternatives of one request in a claim of two requests keeps its list
            // (kubernetes#139814).
            const bool all = std::all_of(requests.begin(), requests.end(),
                [&](const SettledRequest& r) { return appliesTo(entry.requests, r); });
            if (all)
                entry.requests.clear();
        }
    return out;
}

} // namespace drasim::allocator
