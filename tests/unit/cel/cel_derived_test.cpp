// SPDX-License-Identifier: Apache-2.0
// Derived attribute expressions (DRADerivedAttributes): the result types the API server accepts,
// the value each device gives, and runtime errors as errors (the allocation stops on them).
#include <gtest/gtest.h>

#include "core/cel/derived_attribute.h"
#include "tests/unit/cel/cel_fixtures.h"

namespace drasim::cel {
namespace {

using testing::DeviceFixture;

DeviceFixture gpu()
{
    DeviceFixture d;
    d.driver = "gpu.example.com";
    d.attributes["gpu.example.com/numa"] = testing::intAttr(3);
    d.attributes["gpu.example.com/topology"] = testing::stringAttr("numa1-pcie0");
    d.attributes["gpu.example.com/driverVersion"] = testing::versionAttr("1.2.3");
    return d;
}

DerivedValue derive(const std::string& expression, const DeviceFixture& d = gpu())
{
    CompileError e;
    auto a = DerivedAttribute::compile(expression, false, &e);
    EXPECT_NE(a, nullptr) << expression << ": " << e.message;
    return a ? a->evaluate(d.view()) : DerivedValue {};
}

std::string compileError(const std::string& expression, bool listTypes = false)
{
    CompileError e;
    EXPECT_EQ(DerivedAttribute::compile(expression, listTypes, &e), nullptr) << expression;
    return e.message;
}

TEST(CelDerived, EveryScalarAttributeTypeIsAValue)
{
    using T = api::DeviceAttribute::Type;
    auto v = derive("device.attributes[\"gpu.example.com\"].numa / 2");
    ASSERT_TRUE(v.ok) << v.error;
    EXPECT_EQ(v.value.type, T::Int);
    EXPECT_EQ(v.value.intValue, 1);
    v = derive("device.attributes[\"gpu.example.com\"].topology.startsWith(\"numa1\")");
    ASSERT_TRUE(v.ok) << v.error;
    EXPECT_EQ(v.value.type, T::Bool);
    EXPECT_TRUE(v.value.boolValue);
    v = derive("device.driver + \"/x\"");
    ASSERT_TRUE(v.ok) << v.error;
    EXPECT_EQ(v.value.type, T::String);
    EXPECT_EQ(v.value.stringValue, "gpu.example.com/x");
    v = derive("device.attributes[\"gpu.example.com\"].driverVersion");
    ASSERT_TRUE(v.ok) << v.error;
    EXPECT_EQ(v.value.type, T::Version);
    EXPECT_EQ(v.value.stringValue, "1.2.3");
}

TEST(CelDerived, DerivedValuesEqualDriverAttributesOfTheSameValue)
{
    // A derived value compares with a driver attribute like another attribute would.
    auto v = derive("device.attributes[\"gpu.example.com\"].numa");
    ASSERT_TRUE(v.ok);
    EXPECT_EQ(v.value, testing::intAttr(3));
    v = derive("device.attributes[\"gpu.example.com\"].topology");
    ASSERT_TRUE(v.ok);
    EXPECT_EQ(v.value, testing::stringAttr("numa1-pcie0"));
}

TEST(CelDerived, ResultTypeOutsideTheAttributeTypesIsRefused)
{
    EXPECT_EQ(compileError("1.5"),
        "must evaluate to a primitive scalar (string, integer, boolean, semver), not double");
    EXPECT_EQ(compileError("[1, 2]"),
        "must evaluate to a primitive scalar (string, integer, boolean, semver), not list(int)");
    EXPECT_EQ(compileError("{\"a\": 1}", true),
        "must evaluate to a primitive scalar (string, integer, boolean, semver) or a list of these scalars, "
        "not map(string, int)");
    CompileError e;
    EXPECT_NE(DerivedAttribute::compile("[1, 2]", true, &e), nullptr) << e.message;
    EXPECT_NE(DerivedAttribute::compileStored("[1, 2]", &e), nullptr) << e.message;
    // A selector's rule is unchanged: an int is no selector.
    EXPECT_EQ(Selector::compile("1", &e), nullptr);
    EXPECT_EQ(e.message, "must evaluate to bool or the unknown type, not int");
}

TEST(CelDerived, RuntimeErrorsAndForeignValuesAreErrors)
{
    auto v = derive("device.attributes[\"gpu.example.com\"].missing");
    EXPECT_FALSE(v.ok);
    EXPECT_NE(v.error.find("no such key: missing"), std::string::npos) << v.error;
    v = derive("dyn(1.5)");
    EXPECT_FALSE(v.ok);
    EXPECT_EQ(v.error, "unsupported CEL return type: float64");
}

DerivedValue deriveList(const std::string& expression)
{
    CompileError e;
    auto a = DerivedAttribute::compile(expression, true, &e);
    EXPECT_NE(a, nullptr) << expression << ": " << e.message;
    return a ? a->evaluate(gpu().view()) : DerivedValue {};
}

TEST(CelDerived, AListIsAListOfAttributesOfItsFirstElementsType)
{
    using T = api::DeviceAttribute::Type;
    auto v = deriveList("[device.attributes[\"gpu.example.com\"].numa, dyn(7)]");
    ASSERT_TRUE(v.ok) << v.error;
    ASSERT_TRUE(v.isList);
    EXPECT_EQ(v.list, (std::vector<api::DeviceAttribute> { testing::intAttr(3), testing::intAttr(7) }));
    v = deriveList("[device.attributes[\"gpu.example.com\"].driverVersion]");
    ASSERT_TRUE(v.ok) << v.error;
    ASSERT_EQ(v.list.size(), 1u);
    EXPECT_EQ(v.list[0].type, T::Version);
    v = deriveList("[\"a\", \"b\"].filter(x, x == \"c\")");
    ASSERT_TRUE(v.ok) << v.error;
    EXPECT_TRUE(v.isList);
    EXPECT_TRUE(v.list.empty());
    // A list also comes out of a dyn expression that the compiler cannot type.
    v = derive("dyn([true])");
    ASSERT_TRUE(v.ok) << v.error;
    EXPECT_EQ(v.list, (std::vector<api::DeviceAttribute> { testing::boolAttr(true) }));
}

TEST(CelDerived, AListOfMixedOrForeignElementsIsAnError)
{
    // valToDeviceAttribute's words, with Go's names of the element types. (List literals are
    // homogeneous: the attributes and dyn() are of the unknown type until run time.)
    auto v = deriveList(
        "[device.attributes[\"gpu.example.com\"].numa, device.attributes[\"gpu.example.com\"].topology]");
    EXPECT_FALSE(v.ok);
    EXPECT_EQ(v.error, "expected list element at index 1 to be int, got string");
    v = deriveList("[dyn(\"x\"), dyn(\"y\"), dyn(2)]");
    EXPECT_FALSE(v.ok);
    EXPECT_EQ(v.error, "expected list element at index 2 to be string, got int64");
    v = deriveList("[dyn(true), dyn(semver(\"1.0.0\"))]");
    EXPECT_FALSE(v.ok);
    EXPECT_EQ(v.error, "expected list element at index 1 to be bool, got semver.Version");
    v = derive("dyn([1.5])");
    EXPECT_FALSE(v.ok);
    EXPECT_EQ(v.error, "unsupported list element type: float64");
}

TEST(CelDerived, CostIsEstimatedAndLimited)
{
    CompileError e;
    auto cheap = DerivedAttribute::compile("device.attributes[\"gpu.example.com\"].numa", false, &e);
    ASSERT_NE(cheap, nullptr);
    EXPECT_GT(cheap->estimatedCost(), 0);
    EXPECT_LT(cheap->estimatedCost(), 100);
    EXPECT_EQ(
        compileError("device.attributes[\"gpu.example.com\"].topology.split(\"-\").map(a, "
                     "device.attributes[\"gpu.example.com\"].topology.split(\"-\").map(b, a + b)).size()"),
        "too complex, exceeds cost limit");
}

} // namespace
} // namespace drasim::cel
