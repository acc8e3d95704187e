// SPDX-License-Identifier: Apache-2.0
#include "core/allocator/capacity.h"

#include <algorithm>

namespace drasim::allocator {

namespace {

// Quantities carry no division, so rounding works on milli-units; capacities far beyond int64
// milli-units (9 exa-units) are not realistic for devices.
Quantity roundUpToStep(const Quantity& amount, const Quantity& min, const Quantity& step)
{
    int64_t a = amount.milliValue();
    int64_t m = min.milliValue();
    int64_t s = step.milliValue();
    if (s <= 0 || a <= m)
        return a <= m ? min : amount;
    int64_t n = (a - m + s - 1) / s;
    return Quantity::fromMilli(m + n * s, step.format());
}

bool isMultipleOfStep(const Quantity& amount, const Quantity& min, const Quantity& step)
{
    int64_t s = step.milliValue();
    if (s <= 0)
        return true;
    int64_t d = amount.milliValue() - min.milliValue();
    return d >= 0 && d % s == 0;
}

} // namespace

bool capacityConsumption(
    const api::Device& device, const api::CapacityRequirements* request, Consumption& out)
{
    out.clear();
    if (request) {
        for (const auto& [name, q] : request->requests)
            if (!device.capacity.count(name))
                return false;
    }
    for (const auto& [name, cap] : device.capacity) {
        const Quantity* requested = nullptr;
        if (request) {
            auto it = request->requests.find(name);
            if (it != request->requests.end())
                requested = &it->second;
        }
        const auto& policy = cap.requestPolicy;
        Quantity amount;
        if (!requested) {
            amount = policy && policy->defaultValue ? *policy->defaultValue : cap.value;
        } else if (!policy) {
            amount = *requested;
        } else if (policy->validRange) {
            const auto& range = *policy->validRange;
            amount = *requested;
            if (amount < range.min)
                amount = range.min;
            else if (range.step)
                amount = roundUpToStep(amount, range.min, *range.step);
        } else if (!policy->validValues.empty()) {
            amount = *requested;
            for (const auto& v : policy->validValues) // ascending by validation
                if (v >= *requested) {
                    amount = v;
                    break;
                }
        } else {
            amount = *requested;
        }
        if (policy && !(policy->defaultValue && amount == *policy->defaultValue)) {
            if (policy->validRange) {
                const auto& range = *policy->validRange;
                if (range.max && amount > *range.max)
                    return false;
                if (range.step && !isMultipleOfStep(amount, range.min, *range.step))
                    return false;
            }
            if (!policy->validValues.empty()
                && std::find(policy->validValues.begin(), policy->validValues.end(), amount)
                    == policy->validValues.end())
                return false;
        }
        out.emplace_back(&name, amount);
    }
    return true;
}

} // namespace drasim::allocator
