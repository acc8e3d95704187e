// SPDX-License-Identifier: Apache-2.0
#include "core/allocator/capacity.h"

#include <algorithm>
#include <cstdint>
#include <limits>

namespace drasim::allocator {

namespace {

// resource.MaxMilliValue: the largest value whose milli-value fits int64.
constexpr int64_t kMaxMilliValue = std::numeric_limits<int64_t>::max() / 1000;

// useMilli of consumable_capacity.go (1.37): thousandths only with DRAFractionalCapacityRange on
// and a range whose min, max or step is not a whole number, all three small enough for int64
// thousandths and the step at least 1m. Otherwise whole units, each value rounded up (Value()).
bool useMilli(const api::CapacityRequestPolicyRange& range, bool fractionalRange)
{
    if (!fractionalRange)
        return false;
    bool fractional = false;
    for (const Quantity* q :
        { &range.min, range.max ? &*range.max : nullptr, range.step ? &*range.step : nullptr }) {
        if (!q)
            continue;
        if (q->value() > kMaxMilliValue)
            return false;
        fractional = fractional || q->milliValue() % 1000 != 0;
    }
    return fractional && (!range.step || range.step->milliValue() >= 1);
}

// ceil(added / step) for added >= 0 and step > 0.
int64_t stepsUp(int64_t added, int64_t step)
{
    return added / step + (added % step != 0 ? 1 : 0);
}

// roundUpRange of consumable_capacity.go: min for a request below it, else min plus whole steps,
// in the step's format; in whole units the request, min and step are each rounded up first.
Quantity roundUpRange(
    const Quantity& requested, const api::CapacityRequestPolicyRange& range, bool fractionalRange)
{
    if (requested < range.min)
        return range.min;
    if (!range.step)
        return requested;
    const Quantity& step = *range.step;
    if (useMilli(range, fractionalRange)) {
        const int64_t min = range.min.milliValue(), s = step.milliValue();
        const int64_t milli = min + s * stepsUp(requested.milliValue() - min, s);
        return milli % 1000 == 0 ? Quantity::fromInt(milli / 1000, step.format())
                                 : Quantity::fromMilli(milli, step.format());
    }
    const int64_t min = range.min.value(), s = step.value();
    return Quantity::fromInt(min + s * stepsUp(requested.value() - min, s), step.format());
}

// violateValidRange of consumable_capacity.go: above max, or not min plus whole steps (in the
// same units as the rounding).
bool violatesRange(const Quantity& amount, const api::CapacityRequestPolicyRange& range, bool fractionalRange)
{
    if (range.max && amount > *range.max)
        return true;
    if (!range.step)
        return false;
    if (useMilli(range, fractionalRange))
        return (amount.milliValue() - range.min.milliValue()) % range.step->milliValue() != 0;
    return (amount.value() - range.min.value()) % range.step->value() != 0;
}

} // namespace

bool capacityConsumption(const api::Device& device, const api::CapacityRequirements* request,
    bool fractionalRange, Consumption& out)
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
            amount = roundUpRange(*requested, *policy->validRange, fractionalRange);
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
            if (policy->validRange && violatesRange(amount, *policy->validRange, fractionalRange))
                return false;
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
