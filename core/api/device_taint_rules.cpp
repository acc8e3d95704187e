// SPDX-License-Identifier: Apache-2.0
#include "core/api/device_taint_rules.h"

#include <algorithm>

namespace drasim::api {

bool taintRuleSelects(const DeviceTaintRule& rule, const ResourceSlice& slice, const Device& device)
{
    // Upstream (types.go since 1.35): "The empty selector matches all devices. Without a selector,
    // no devices are matched."
    if (!rule.deviceSelector)
        return false;
    const DeviceTaintSelector& s = *rule.deviceSelector;
    if (s.driver && *s.driver != slice.driver)
        return false;
    if (s.pool && *s.pool != slice.pool.name)
        return false;
    return !s.device || *s.device == device.name;
}

size_t applyTaintRule(const DeviceTaintRule& rule, ResourceSlice& slice)
{
    size_t n = 0;
    for (auto& d : slice.devices) {
        if (!taintRuleSelects(rule, slice, d))
            continue;
        DeviceTaint t = rule.taint;
        t.rule = rule.meta.name;
        d.taints.push_back(std::move(t));
        ++n;
    }
    return n;
}

size_t removeTaintRule(const std::string& ruleName, ResourceSlice& slice)
{
    size_t n = 0;
    for (auto& d : slice.devices) {
        const size_t before = d.taints.size();
        d.taints.erase(std::remove_if(d.taints.begin(), d.taints.end(),
                           [&](const DeviceTaint& t) { return !t.rule.empty() && t.rule == ruleName; }),
            d.taints.end());
        n += before - d.taints.size();
    }
    return n;
}

void applyTaintRules(const std::vector<DeviceTaintRule>& rules, ResourceSlice& slice)
{
    std::vector<const DeviceTaintRule*> sorted;
    sorted.reserve(rules.size());
    for (const auto& r : rules)
        sorted.push_back(&r);
    std::sort(sorted.begin(), sorted.end(),
        [](const DeviceTaintRule* a, const DeviceTaintRule* b) { return a->meta.name < b->meta.name; });
    for (const auto* r : sorted)
        applyTaintRule(*r, slice);
}

} // namespace drasim::api
