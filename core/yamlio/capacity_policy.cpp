// SPDX-License-Identifier: Apache-2.0
// A capacity's requestPolicy: validateRequestPolicy and its helpers of the API server
// (dra-semantics.md §2.1), same order of checks, same messages and paths.
#include "core/yamlio/capacity_policy.h"

#include <algorithm>
#include <limits>
#include <set>

namespace drasim::yamlio {

namespace {

constexpr size_t kMaxValidValues = 10; // CapacityRequestPolicyDiscreteMaxOptions

std::string quoted(const Quantity& q)
{
    std::string out = "\"";
    out += q.toString();
    out += '"';
    return out;
}

void readRange(
    Reader& r, uint32_t v, const Path& fp, api::CapacityRequestPolicyRange& range, CapacityPolicyNodes& at)
{
    r.fields(v, fp, [&](std::string_view rk, uint32_t, uint32_t rv) {
        const Path kp = fp.field(rk);
        Quantity q;
        if (rk == "min") {
            if (r.getQuantity(rv, kp, range.min))
                at.min = rv;
        } else if (rk == "max") {
            if (r.getQuantity(rv, kp, q))
                range.max = q, at.max = rv;
        } else if (rk == "step") {
            if (r.getQuantity(rv, kp, q))
                range.step = q, at.step = rv;
        } else
            return false;
        return true;
    });
}

// validateRequestPolicyValidValues: sorted, each at most the capacity, unique, the default among
// them. Unique by integer value (Value(), rounded up: 100m and 200m collide) while
// DRAFractionalCapacityRange is off, by exact value with it on (kubernetes#140161). The value a
// duplicate is reported with under the gate is the quantity's own text: upstream's wording of it
// was not available.
void checkValidValues(Reader& r, const CapacityPolicyNodes& at, const Path& vp,
    const std::vector<Quantity>& values, const Quantity& defaultValue, const Quantity& capacity)
{
    const bool exact = r.gates().enabled("DRAFractionalCapacityRange");
    auto itemNode
        = [&](size_t i) { return i < at.validValueItems.size() ? at.validValueItems[i] : at.validValues; };
    for (size_t i = 0; i + 1 < values.size(); ++i)
        if (values[i] > values[i + 1])
            r.error(itemNode(i + 1), vp.at(i + 1),
                "Invalid value: " + quoted(values[i + 1]) + ": values must be sorted in ascending order");
    bool foundDefault = false;
    if (values.size() > kMaxValidValues) {
        r.tooMany(at.validValues, vp, values.size(), kMaxValidValues);
    } else {
        std::set<int64_t> seen;
        std::vector<Quantity> seenExactly;
        for (size_t i = 0; i < values.size(); ++i) {
            if (values[i] > capacity)
                r.error(itemNode(i), vp.at(i),
                    "Invalid value: " + quoted(values[i])
                        + ": option is larger than capacity value: " + capacity.toString());
            foundDefault = foundDefault || values[i] == defaultValue;
            if (exact) {
                if (std::find(seenExactly.begin(), seenExactly.end(), values[i]) != seenExactly.end())
                    r.duplicate(itemNode(i), vp.at(i), values[i].toString());
                seenExactly.push_back(values[i]);
            } else if (!seen.insert(values[i].value()).second)
                r.duplicate(itemNode(i), vp.at(i), std::to_string(values[i].value()));
        }
    }
    if (!foundDefault)
        r.error(at.defaultValue, vp,
            "Invalid value: " + quoted(defaultValue)
                + ": default value is not valid according to the requestPolicy");
}

// validateRequestPolicyRangeStep: in whole units (each value rounded up), or in thousandths for
// a fractional range under DRAFractionalCapacityRange.
void checkStepMultiple(Reader& r, uint32_t n, const Path& sp, const Quantity& value, const Quantity& min,
    const Quantity& step, bool milli)
{
    const int64_t s = milli ? step.milliValue() : step.value();
    const int64_t added = milli ? value.milliValue() - min.milliValue() : value.value() - min.value();
    if (s > 0 && added % s != 0)
        r.error(n, sp,
            "Invalid value: " + quoted(value) + ": value is not a multiple of a given step ("
                + step.toString() + ") from (" + min.toString() + ")");
}

// resource.MaxMilliValue: the largest value whose milli-value fits int64.
constexpr int64_t kMaxMilliValue = std::numeric_limits<int64_t>::max() / 1000;

bool representableInMilli(const Quantity& q)
{
    return q.value() <= kMaxMilliValue && Quantity::fromMilli(q.milliValue()) == q;
}

// DRAFractionalCapacityRange (1.37, kubernetes#140161): a range whose min, max or step is not a
// whole number is checked in thousandths, so its default, min, max and step must each be exact
// in thousandths and within int64 thousandths (the gate's validation cases upstream:
// "fractional-too-fine-precision", "fractional-range-overflow-min"). True when the step checks
// then run in thousandths.
bool checkFractionalRange(Reader& r, const CapacityPolicyNodes& at, const Path& rp,
    const api::CapacityRequestPolicyRange& range, const Quantity& defaultValue)
{
    struct Bound
    {
        const char* name;
        const Quantity* value;
        uint32_t node;
    };
    const Bound bounds[]
        = { { "min", &range.min, at.min }, { "max", range.max ? &*range.max : nullptr, at.max },
              { "step", range.step ? &*range.step : nullptr, at.step } };
    bool fractional = false;
    for (const Bound& b : bounds)
        fractional = fractional || (b.value && b.value->milliValue() % 1000 != 0);
    if (!fractional || !r.gates().enabled("DRAFractionalCapacityRange"))
        return false;
    bool representable = true;
    const auto check = [&](const Quantity& q, uint32_t node, const char* name) {
        if (representableInMilli(q))
            return;
        r.error(node, rp.field(name),
            "Invalid value: " + quoted(q) + ": value cannot be represented as a milli value");
        representable = false;
    };
    check(defaultValue, at.defaultValue, "default");
    for (const Bound& b : bounds)
        if (b.value)
            check(*b.value, b.node, b.name);
    return representable && (!range.step || range.step->milliValue() >= 1);
}

// validateRequestPolicyRange.
void checkValidRange(Reader& r, const CapacityPolicyNodes& at, const Path& rp,
    const api::CapacityRequestPolicyRange& range, const Quantity& defaultValue, const Quantity& capacity)
{
    const Path minPath = rp.field("min"), maxPath = rp.field("max"), stepPath = rp.field("step");
    const Path defaultPath = rp.field("default"); // upstream's path: the default under validRange
    if (!at.min) {
        r.error(at.validRange, minPath, "Required value: required when validRange is defined");
        return;
    }
    const bool milli = checkFractionalRange(r, at, rp, range, defaultValue);
    const Quantity& min = range.min;
    if (min > capacity)
        r.error(at.min, minPath,
            "Invalid value: " + quoted(min) + ": min is larger than capacity value: " + capacity.toString());
    if (defaultValue < min)
        r.error(at.defaultValue, defaultPath,
            "Invalid value: " + quoted(defaultValue) + ": default is less than min: " + min.toString());
    if (range.max) {
        const Quantity& max = *range.max;
        if (min > max)
            r.error(at.max, maxPath,
                "Invalid value: " + quoted(min) + ": min is larger than max: " + max.toString());
        if (max > capacity)
            r.error(at.max, maxPath,
                "Invalid value: " + quoted(max)
                    + ": max is larger than capacity value: " + capacity.toString());
        if (defaultValue > max)
            r.error(at.defaultValue, defaultPath,
                "Invalid value: " + quoted(defaultValue) + ": default is more than max: " + max.toString());
    }
    if (!range.step)
        return;
    const Quantity& step = *range.step;
    if (step.sign() <= 0) {
        r.error(at.step, stepPath, "Invalid value: " + quoted(step) + ": must be greater than zero");
        return;
    }
    const Quantity oneStep = min.add(step);
    if (oneStep > capacity)
        r.error(at.step, stepPath,
            "Invalid value: " + quoted(step) + ": one step " + oneStep.toString()
                + " is larger than capacity value: " + capacity.toString());
    checkStepMultiple(r, at.step, stepPath, defaultValue, min, step, milli);
    if (range.max)
        checkStepMultiple(r, at.step, stepPath, *range.max, min, step, milli);
}

} // namespace

void readCapacityPolicy(
    Reader& r, uint32_t n, const Path& p, api::CapacityRequestPolicy& out, CapacityPolicyNodes& at)
{
    at.policy = n;
    r.fields(n, p, [&](std::string_view k, uint32_t, uint32_t v) {
        const Path fp = p.field(k);
        if (k == "default") {
            Quantity q;
            if (r.getQuantity(v, fp, q))
                out.defaultValue = q, at.defaultValue = v;
        } else if (k == "validValues") {
            at.validValues = v;
            r.items(v, fp, [&](size_t, uint32_t item, const Path& ip) {
                Quantity q;
                if (r.getQuantity(item, ip, q)) {
                    out.validValues.push_back(q);
                    at.validValueItems.push_back(item);
                }
            });
        } else if (k == "validRange") {
            if (r.isNull(v))
                return true;
            at.validRange = v;
            readRange(r, v, fp, out.validRange.emplace(), at);
        } else {
            return false;
        }
        return true;
    });
    if (!at.defaultValue)
        at.defaultValue = n;
}

void validateCapacityPolicy(Reader& r, const CapacityPolicyNodes& at, const Path& policyPath,
    const api::CapacityRequestPolicy& policy, const Quantity& capacity, bool allowMultipleAllocations)
{
    if (!allowMultipleAllocations) {
        r.error(at.policy, policyPath, "Forbidden: allowMultipleAllocations must be true");
        return;
    }
    const bool haveValues = !policy.validValues.empty();
    if (haveValues && policy.validRange) {
        r.error(at.policy, policyPath,
            "Forbidden: exactly one policy can be specified, cannot specify \"validValues\" and "
            "\"validRange\" "
            "at the same time");
        return;
    }
    if (!haveValues && !policy.validRange)
        return;
    const Path defaultPath = policyPath.field("default");
    if (!policy.defaultValue) {
        r.error(at.policy, defaultPath,
            std::string("Required value: required when ") + (haveValues ? "validValues" : "validRange")
                + " is defined");
        return;
    }
    if (haveValues) {
        const Path valuesPath = policyPath.field("validValues");
        checkValidValues(r, at, valuesPath, policy.validValues, *policy.defaultValue, capacity);
    } else {
        const Path rangePath = policyPath.field("validRange");
        checkValidRange(r, at, rangePath, *policy.validRange, *policy.defaultValue, capacity);
    }
}

} // namespace drasim::yamlio
