// SPDX-License-Identifier: Apache-2.0
// How matchAttribute and distinctAttribute compare device values (constraint_values.h): as sets
// with DRAListTypeAttributes (KEP-5491: a scalar is a set of one, match keeps a non-empty common
// intersection, distinct wants pairwise disjoint sets), as scalars without it. A law over random
// scalar values: the two comparisons agree when no value is a list.
#include <random>

#include <gtest/gtest.h>

#include "core/allocator/constraint_values.h"

using namespace drasim;
using namespace drasim::allocator;

namespace {

api::DeviceAttribute num(int64_t v)
{
    api::DeviceAttribute a;
    a.type = api::DeviceAttribute::Type::Int;
    a.intValue = v;
    return a;
}

api::DeviceAttribute text(const std::string& v)
{
    api::DeviceAttribute a;
    a.type = api::DeviceAttribute::Type::String;
    a.stringValue = v;
    return a;
}

std::vector<api::DeviceAttribute> nums(std::initializer_list<int64_t> values)
{
    std::vector<api::DeviceAttribute> out;
    for (int64_t v : values)
        out.push_back(num(v));
    return out;
}

ConstraintValue listOf(const std::vector<api::DeviceAttribute>& l)
{
    return { nullptr, &l };
}

ConstraintValue scalarOf(const api::DeviceAttribute& a)
{
    return { &a, nullptr };
}

// Adds the value when the constraint accepts it, like the allocator's pick.
bool add(bool match, bool sets, ConstraintState& st, const ConstraintValue& v)
{
    if (!constraintAccepts(match, sets, st, v))
        return false;
    constraintPush(match, sets, st, v);
    return true;
}

} // namespace

TEST(ConstraintValues, MatchKeepsACommonElementOfAllSets)
{
    const auto a = nums({ 0, 1 }), b = nums({ 1, 2 }), c = nums({ 2, 0 }), d = nums({ 0, 5 });
    ConstraintState st;
    EXPECT_TRUE(add(true, true, st, listOf(a)));
    EXPECT_TRUE(add(true, true, st, listOf(b))); // common: 1
    EXPECT_FALSE(add(true, true, st, listOf(c))); // shares 0 with a and 2 with b, but not 1
    EXPECT_FALSE(add(true, true, st, listOf(d)));
    constraintPop(true, true, st); // b undone: common is a again
    EXPECT_TRUE(add(true, true, st, listOf(c))); // common: 0
    EXPECT_TRUE(add(true, true, st, listOf(d)));
    EXPECT_EQ(st.count, 3);
    // A scalar is a set of one; a string never equals an int.
    const auto zero = num(0), zeroText = text("0");
    EXPECT_TRUE(constraintAccepts(true, true, st, scalarOf(zero)));
    EXPECT_FALSE(constraintAccepts(true, true, st, scalarOf(zeroText)));
}

TEST(ConstraintValues, DistinctWantsEachSetDisjointFromEveryEarlierOne)
{
    const auto a = nums({ 0, 1 }), b = nums({ 1, 2 }), c = nums({ 3, 4 }), one = nums({ 2 });
    ConstraintState st;
    EXPECT_TRUE(add(false, true, st, listOf(a)));
    EXPECT_FALSE(add(false, true, st, listOf(b)));
    EXPECT_TRUE(add(false, true, st, listOf(c)));
    EXPECT_TRUE(add(false, true, st, listOf(one)));
    const auto three = num(3);
    EXPECT_FALSE(constraintAccepts(false, true, st, scalarOf(three)));
    constraintPop(false, true, st);
    constraintPop(false, true, st);
    EXPECT_TRUE(constraintAccepts(false, true, st, scalarOf(three)));
}

TEST(ConstraintValues, WithoutListTypesAListEqualsNothing)
{
    const auto l = nums({ 1 });
    const auto one = num(1);
    ConstraintState match;
    EXPECT_TRUE(add(true, false, match, listOf(l))); // the first device fixes the value
    EXPECT_FALSE(add(true, false, match, listOf(l)));
    EXPECT_FALSE(add(true, false, match, scalarOf(one)));
    ConstraintState distinct;
    EXPECT_TRUE(add(false, false, distinct, scalarOf(one)));
    EXPECT_TRUE(add(false, false, distinct, listOf(l))); // not the same as 1
    // A list among the earlier values is of no known type: no later device fits.
    const auto two = num(2);
    EXPECT_FALSE(constraintAccepts(false, false, distinct, scalarOf(two)));
    EXPECT_EQ(constraintValueText(listOf(nums({ 0, 1 }))), "[0, 1]");
}

TEST(ConstraintValues, SetAndScalarComparisonAgreeOnScalars)
{
    std::mt19937 rng(20261206);
    std::uniform_int_distribution<int> pick(0, 5), op(0, 3);
    // Small domains of ints and strings, so that equal values and equal texts of other types occur.
    std::vector<api::DeviceAttribute> values;
    for (int i = 0; i < 3; ++i) {
        values.push_back(num(i));
        values.push_back(text(std::to_string(i)));
    }
    for (int round = 0; round < 300; ++round) {
        const bool match = round % 2 == 0;
        ConstraintState sets, scalars;
        for (int step = 0; step < 12; ++step) {
            if (op(rng) == 0 && sets.count > 0) {
                constraintPop(match, true, sets);
                constraintPop(match, false, scalars);
                continue;
            }
            const ConstraintValue v = scalarOf(values[size_t(pick(rng))]);
            const bool bySets = add(match, true, sets, v);
            ASSERT_EQ(bySets, add(match, false, scalars, v)) << "round " << round << " step " << step;
            ASSERT_EQ(sets.count, scalars.count);
        }
    }
}
