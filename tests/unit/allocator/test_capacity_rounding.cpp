// SPDX-License-Identifier: Apache-2.0
// How a capacity request is rounded by its device's validRange, with DRAFractionalCapacityRange on
// and off (consumable_capacity.go of the 1.37 allocator: useMilli, roundUpRange,
// violateValidRange). Laws over random ranges and requests, in thousandths.
#include <random>

#include <gtest/gtest.h>

#include "core/allocator/capacity.h"

using namespace drasim;

namespace {

Quantity milli(int64_t m)
{
    return Quantity::fromMilli(m);
}

api::Device deviceWith(const api::CapacityRequestPolicyRange& range, int64_t capacityMilli)
{
    api::Device d;
    d.name = "nic-0";
    d.allowMultipleAllocations = true;
    api::CapacityRequestPolicy policy;
    policy.defaultValue = range.min;
    policy.validRange = range;
    d.capacity["bw"] = api::DeviceCapacity { milli(capacityMilli), policy };
    return d;
}

/// The amount consumed for a request of `askedMilli`, or nullopt when the device refuses it.
std::optional<Quantity> consumed(const api::Device& d, int64_t askedMilli, bool fractional)
{
    api::CapacityRequirements asked { { { "bw", milli(askedMilli) } } };
    allocator::Consumption out;
    if (!allocator::capacityConsumption(d, &asked, fractional, out))
        return std::nullopt;
    return out.at(0).second;
}

int64_t ceilUnits(int64_t m)
{
    return (m + 999) / 1000;
}

} // namespace

TEST(CapacityRounding, QuarterStepsRoundInThousandthsOnlyWithTheGate)
{
    const auto d = deviceWith({ milli(250), std::nullopt, milli(250) }, 1000);
    EXPECT_EQ(consumed(d, 300, true)->toString(), "500m");
    EXPECT_EQ(consumed(d, 1000, true)->toString(), "1");
    // Off: request, min and step are each rounded up to 1 first.
    EXPECT_EQ(consumed(d, 300, false)->toString(), "1");
    EXPECT_EQ(consumed(d, 1001, false)->toString(), "2");
    // Below min: min itself, in either mode.
    EXPECT_EQ(consumed(d, 100, true)->toString(), "250m");
    EXPECT_EQ(consumed(d, 100, false)->toString(), "250m");
}

TEST(CapacityRounding, MaxIsComparedExactly)
{
    const auto d = deviceWith({ milli(500), milli(1500), milli(500) }, 2000);
    EXPECT_EQ(consumed(d, 1400, true)->toString(), "1500m");
    EXPECT_FALSE(consumed(d, 1600, true)) << "2 is above max 1.5";
    // Whole units: 1.4 -> 2 from min 1 in steps of 1, above max 1.5.
    EXPECT_FALSE(consumed(d, 1400, false));
}

// Law: a range with whole min, max and step rounds the same with the gate on and off (useMilli
// wants a fractional bound).
TEST(CapacityRounding, WholeRangesIgnoreTheGate)
{
    std::mt19937_64 rng(20260137);
    for (int i = 0; i < 2000; ++i) {
        const int64_t min = int64_t(rng() % 5), step = 1 + int64_t(rng() % 4);
        const std::optional<Quantity> max = rng() % 2
            ? std::optional<Quantity>(Quantity::fromInt(min + step * int64_t(rng() % 6)))
            : std::nullopt;
        const auto d = deviceWith({ Quantity::fromInt(min), max, Quantity::fromInt(step) }, 100'000);
        const int64_t asked = int64_t(rng() % 30'000);
        const auto on = consumed(d, asked, true), off = consumed(d, asked, false);
        ASSERT_EQ(on.has_value(), off.has_value()) << asked;
        if (on) {
            EXPECT_EQ(*on, *off) << asked;
        }
    }
}

// Law: with the gate on and a fractional step, the amount is the smallest min + k*step (in
// thousandths) that covers the request; with it off, the smallest ceil(min) + k*ceil(step) that
// covers ceil(request), a whole number.
TEST(CapacityRounding, FractionalStepsRoundToTheNextStep)
{
    std::mt19937_64 rng(5075);
    for (int i = 0; i < 2000; ++i) {
        const int64_t min = int64_t(rng() % 3000), step = 1 + int64_t(rng() % 1500);
        if (min % 1000 == 0 && step % 1000 == 0)
            continue;
        const auto d = deviceWith({ milli(min), std::nullopt, milli(step) }, 1'000'000);
        const int64_t asked = min + int64_t(rng() % 20'000);
        const auto on = consumed(d, asked, true);
        ASSERT_TRUE(on);
        const int64_t k = (asked - min + step - 1) / step;
        EXPECT_EQ(on->milliValue(), min + k * step) << min << " " << step << " " << asked;
        const auto off = consumed(d, asked, false);
        ASSERT_TRUE(off);
        const int64_t minUnits = ceilUnits(min), stepUnits = ceilUnits(step);
        const int64_t kUnits = (ceilUnits(asked) - minUnits + stepUnits - 1) / stepUnits;
        EXPECT_EQ(off->asInt64(), minUnits + kUnits * stepUnits) << min << " " << step << " " << asked;
    }
}
