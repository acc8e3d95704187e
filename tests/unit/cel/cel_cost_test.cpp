// SPDX-License-Identifier: Apache-2.0
// The cost estimate, rule by rule, against the figures cel-go's estimator gives with the size
// hints Kubernetes declares for the DRA `device` variable. Each expected figure is derived in
// its comment from these rules:
//   constant 0; identifier 1; selecting a field of a map or object 1 (of a dyn value 0);
//   a call 1 plus its arguments (receiver included), except the size-dependent ones below;
//   &&, ||, ?: nothing of their own (both sides / the dearer branch);
//   list literal 10 + elements, map literal 30 + entries; cel.bind 10 + init + body;
//   == != and string/bytes < <= > >=: ceil(0.1 x the smaller maximum size);
//   string/bytes +: ceil(0.1 x (size + size)); x in list: the list's size;
//   contains: ceil(0.1 x receiver) x ceil(0.1 x argument); startsWith/endsWith: ceil(0.1 x arg);
//   s.matches(p), s.find(p): ceil(0.1 x (size(s) + 1)) x ceil(0.25 x size(p));
//   macros: range + init + result + size(range) x (loop condition + step).
// Sizes: literals exact; device.driver 63, attribute maps 32 entries, domains 63, identifiers
// 32, attribute values 64; scalars 1; conversion results unknown (2^64-1).
#include <gtest/gtest.h>

#include "core/cel/interpreter.h"
#include "core/cel/program.h"

namespace drasim::cel {
namespace {

double estimate(const std::string& expression)
{
    CompileError error;
    // Stored mode: no limit applied, so figures above it can be read too.
    auto p = compileProgram(expression, true, &error);
    EXPECT_TRUE(p) << expression << ": " << error.message;
    return p ? p->estimatedCost() : -1;
}

struct Figure
{
    const char* expression;
    double cost;
};

// Figures of the Kubernetes DRA compiler's own test table.
const Figure kKubernetesFigures[] = {
    // device (1) .driver (1) == "" : min(63, 0) = 0 -> 0
    { R"(device.driver == "")", 2 },
    // 2 + ceil(0.1 x min(63, 15)) = 2 + 2
    { R"(device.driver == "dra.example.com")", 4 },
    // device 1, .attributes 1, ["dra.example.com"] 1, .name 1
    { R"(device.attributes["dra.example.com"].name)", 4 },
    { R"(device.attributes["dra.example.com"]["name"])", 4 },
    // bind 10 + init 3 + body (dra 1 + .name 1)
    { R"(cel.bind(dra, device.attributes["dra.example.com"], dra.name))", 15 },
    // 4 + > on (dyn, int): only O(1) overloads -> 1
    { R"(device.attributes["dra.example.com"].name > 0)", 5 },
    // 4 + ceil(0.1 x min(64, 4)) = 4 + 1
    { R"(device.attributes["dra.example.com"].name == "fish")", 5 },
    // 4 + isGreaterThan 1 + semver("0.0.1") 1
    { R"(device.attributes["dra.example.com"].name.isGreaterThan(semver("0.0.1")))", 6 },
    // 6 + isSemver 1
    { R"(device.attributes["dra.example.com"].name.isGreaterThan(semver("v0.0.1", true)) && isSemver("v1.0.0", true))",
        7 },
    // 4 + isGreaterThan 1 + quantity("1Ki") 1
    { R"(device.capacity["dra.example.com"].name.isGreaterThan(quantity("1Ki")))", 6 },
    // "name" in map: 1 + 3; && 6
    { R"("name" in device.capacity["dra.example.com"] && device.capacity["dra.example.com"].name.isGreaterThan(quantity("1Ki")))",
        10 },
    // ! adds 1
    { R"(!("name" in device.capacity["dra.example.com"]) || device.capacity["dra.example.com"].name.isGreaterThan(quantity("1Ki")))",
        11 },
    // in on a map: 1 + 0 + 2
    { R"("no-such-domain" in device.attributes)", 3 },
    // 4 + 4 + 4
    { R"(device.attributes["dra.example.com"].a && device.attributes["dra.example.com"].b && device.attributes["dra.example.com"].c)",
        12 },
    // 6 + 4 + 5 + 5 + 6, twice
    { R"(device.capacity["dra.example.com"].quantity.isGreaterThan(quantity("1Ki")) &&
device.attributes["dra.example.com"].bool &&
device.attributes["dra.example.com"].int > 0 &&
device.attributes["dra.example.com"].string == "fish" &&
device.attributes["dra.example.com"].version.isGreaterThan(semver("0.0.1")) &&
device.capacity["dra.example.com"]["quantity"].isGreaterThan(quantity("1Ki")) &&
device.attributes["dra.example.com"]["bool"] &&
device.attributes["dra.example.com"]["int"] > 0 &&
device.attributes["dra.example.com"]["string"] == "fish" &&
device.attributes["dra.example.com"]["version"].isGreaterThan(semver("0.0.1")))",
        52 },
    // range 2; result accu == 1: 2; per domain (32): x == "dra.example.com" (1 + ceil(0.1 x
    // min(63, 15)) = 3) + accu + 1 branch 2 = 5 -> 2 + 2 + 160
    { R"(device.attributes.exists_one(x, x == "dra.example.com"))", 164 },
    { R"(device.capacity.exists_one(x, x == "dra.example.com"))", 164 },
    // range 3; result 2; per identifier (32): 1 + ceil(0.1 x min(32, 8)) + 2 = 4 -> 3 + 2 + 128
    { R"(device.attributes["dra.example.com"].exists_one(x, x == "services"))", 133 },
    { R"(device.capacity["dra.example.com"].exists_one(x, x == "memory"))", 133 },
    // 4 + split ceil(0.2 x 64) = 13, size() 1, >= 1
    { R"(device.attributes["dra.example.com"].services.split("example").size() >= 2)", 19 },
    // 4 + ceil(0.1 x (64 + 1)) x ceil(0.25 x 8) = 4 + 7 x 2
    { R"(device.attributes["dra.example.com"].services.matches("[^a]?sym"))", 18 },
    // 4 + the attribute's size (64)
    { R"(1 in device.attributes["dra.example.com"].names)", 68 },
    // range 4 + result 1 + 64 x (!accu condition 3 + accu || (x > 0) 3)
    { R"(device.attributes["dra.example.com"].name.exists(x, x > 0))", 5 + 6 * 64 },
    // x has no declared size, but == "" takes the smaller one: 0 -> per element 2 + 2
    { R"(device.attributes["dra.example.com"].names.all(x, x != ""))", 5 + 4 * 64 },
    // device 1, .allowMultipleAllocations 1, == on bools 1
    { R"(device.allowMultipleAllocations == true)", 3 },
    // Seven nested all() over ten-element lists around int('1'.find('[0-9]*')) < 100 (find:
    // ceil(0.1 x 2) x ceil(0.25 x 6) = 2; int 1; < 1): each level is 10 + 1 + 10 x (3 + inner).
    { R"([1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(x, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(y, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z2, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z3, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z4, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z5, int('1'.find('[0-9]*')) < 100))))))))",
        85555551 },
};

TEST(CelCost, KubernetesReferenceFigures)
{
    for (const auto& f : kKubernetesFigures)
        EXPECT_EQ(estimate(f.expression), f.cost) << f.expression;
}

// One figure per rule, including the cases of the parity issues.
const Figure kRuleFigures[] = {
    // Comparisons take the smaller maximum: string(1) (1, unknown size) vs "1" (size 1) -> 1.
    { R"(string(1) == "1")", 2 },
    // driver (2) < attribute (4): ceil(0.1 x min(63, 64)) = 7
    { R"(device.driver < device.attributes["d"].s)", 13 },
    // String +: ceil(0.1 x (64 + 2)) = 7, result size 66; == "q": ceil(0.1 x 1) = 1
    { R"(device.attributes["d"].a + "xy" == "q")", 12 },
    // Two empty strings: AddString traverses nothing (0, no unit of its own), == on sizes 0 and 0
    // costs 0, literals 0: cel-go estimates 0.
    { R"("" + "" == "")", 0 },
    // b"" + b"ab": ceil(0.1 x 2) = 1; size() 1; > 1
    { R"((b"" + b"ab").size() > 0)", 3 },
    // A list + list is 1 of its own (AddList): 10 + 10 + 1; size() 1; == 1
    { R"(([] + [1]).size() == 1)", 23 },
    // driver + driver: 2 + 2 + ceil(0.1 x 126) = 17; == "x" 1
    { R"(device.driver + device.driver == "x")", 18 },
    // startsWith/endsWith traverse the argument only: 4 + ceil(0.1 x 2)
    { R"(device.attributes["d"].s.startsWith("ab"))", 5 },
    { R"(device.driver.endsWith(device.attributes["d"].s))", 2 + 4 + 7 },
    // string(dyn) matches every string() overload, bytes_to_string's bounded result included:
    // 4 + max(1, ceil(0.1 x 64)) = 11, size <= 64; startsWith("a") ceil(0.1) = 1
    { R"(string(device.attributes["gpu.example.com"].index).startsWith("a"))", 12 },
    { R"(string(device.attributes["gpu.example.com"].index).endsWith("0"))", 12 },
    // Inner in: 4 + [0.0/0.0] (10 + 1) + list size 1 = 16; string(bool) 1; the argument
    // ["a","b"][1]: 10 + 1 = 11 with size 1 (the literal's element size); startsWith 1
    { R"(string(device.attributes["gpu.example.com"].count in [0.0/0.0]).startsWith(["a","b"][1]))", 29 },
    // contains: ceil(0.1 x 11) x ceil(0.1 x 2) = 2 x 1
    { R"("abcdefghijk".contains("xy"))", 2 },
    // 4 + ceil(0.1 x 64) x 1
    { R"(device.attributes["d"].s.contains("a"))", 11 },
    // bytes(dyn): 4 + max(1, ceil(0.1 x 64)) = 11; size() 1; > 1
    { R"(bytes(device.attributes["d"].s).size() > 0)", 13 },
    // in a literal list: its size
    { R"(device.attributes["d"].x in [1, 2, 3])", 4 + 10 + 3 },
    // Iteration over a literal list: s has the elements' sizes (2..3); == driver: 1 + 2 + 1
    // per element 4 + exists overhead 4; 10 + 1 + 2 x 8
    { R"(["ab", "cde"].exists(s, s == device.driver))", 27 },
    // map: 10 + init 10 + result 1 + 2 x (12 + x * 2 (2)) = 49; size() 1; == 1
    { R"([1, 2].map(x, x * 2).size() == 2)", 51 },
    // filter: 10 + 11 + 3 x (13 + 2) = 66; size() 1; == 1
    { R"([1, 2, 3].filter(x, x > 1).size() == 2)", 68 },
    // ?: the condition plus the dearer branch: max(3, 5)
    { R"(true ? device.driver == "a" : device.attributes["d"].x == 1)", 5 },
    // has() costs only its operand (device.attributes["d"]: 3): Kubernetes turns the presence
    // test's own cost off
    { R"(has(device.attributes["d"].x))", 3 },
    // ... also inside a macro: range 2, result 1, 32 x (3 + has(...) whose operand
    // device.attributes[d] is 4 (the index d is an identifier: 1, unlike a literal's 0))
    { R"(device.attributes.all(d, has(device.attributes[d].x)))", 2 + 1 + 32 * 7 },
    // sets.contains: 10 + 10 + 2 x 1 + 1
    { R"(sets.contains([1, 2], [1]))", 23 },
    // lists.range(5): 5 + 11; size() 1; == 1
    { R"(lists.range(5).size() == 5)", 18 },
    // dyn() costs 1 and keeps its argument's size: 3 + ceil(0.1 x min(63, 3))
    { R"(dyn(device.driver) == "abc")", 4 },
    // Two variables over the domains: range 2, result 1, 32 x (3 + k == "x" (2))
    { R"(device.attributes.all(k, v, k == "x"))", 163 },
    // lowerAscii: ceil(0.1 x 3); == ceil(0.1 x min(3, 3))
    { R"("abc".lowerAscii() == "abc")", 2 },
    // replace: ceil(0.2 x 63) = 13, result up to 63 x 2; == "x" 1
    { R"(device.driver.replace("a", "bb") == "x")", 16 },
    // Folded conversions are estimated as written: int("1") is a call (1)
    { R"(int("1") == 1)", 2 },
};

TEST(CelCost, RuleFigures)
{
    for (const auto& f : kRuleFigures)
        EXPECT_EQ(estimate(f.expression), f.cost) << f.expression;
}

// Unbounded sizes: a conversion result of unknown size in a size-dependent operation.
TEST(CelCost, UnknownSizesExceedTheLimit)
{
    for (const char* e : {
             R"(string(2.0) + "x" == "1x")", // + over an unknown size
             R"(string(1) == string(false ? 1 : 1))", // == of two unknown sizes
             R"(string(1).matches("a"))", // regex over an unknown subject
             R"(["a"].join() == "a")", // list elements have no declared size
             R"(type(1) == int)", // neither do type values
         }) {
        EXPECT_GT(estimate(e), 1e18) << e;
        CompileError error;
        EXPECT_FALSE(compileProgram(e, false, &error)) << e;
        EXPECT_EQ(error.message, "too complex, exceeds cost limit") << e;
    }
}

// Kubernetes prices `==` between two values of one Kubernetes type before cel-go's size rule
// (k8s.io/apiserver/pkg/cel/library/cost.go, EstimateCallCost, case "_==_").
const Figure kKubernetesEqualityFigures[] = {
    // device 1, .capacity 1, ["d"] 1, .m 1; quantity("1") 1; == of two quantities 1
    { R"(device.capacity["d"].m == quantity("1"))", 6 },
    { R"(quantity("1") == device.capacity["d"].m)", 6 },
    // quantity("1") 1, quantity("2") 1, == 1
    { R"(quantity("1") == quantity("2"))", 3 },
    { R"(semver("1.2.3+a") == semver("1.2.3+b"))", 3 },
    { R"(ip("1.2.3.4") == ip("1.2.3.4"))", 3 },
    { R"(cidr("10.0.0.0/8") == cidr("10.0.0.0/8"))", 3 },
    // url("https://a/b"): ceil(0.1 x 11) = 2, twice; == ceil(0.1 x 11) = 2 (the right size)
    { R"(url("https://a/b") == url("https://a/b"))", 6 },
    // The right operand's size only: url of an attribute value (64) costs 4 + ceil(6.4) = 11;
    // on the right, == costs ceil(0.1 x 64) = 7; on the left, ceil(0.1 x 11) = 2.
    { R"(url("https://a/b") == url(device.attributes["d"].u))", 20 },
    { R"(url(device.attributes["d"].u) == url("https://a/b"))", 15 },
    // != keeps cel-go's rule: 0.1 x the smaller size, which a URL has (its argument's).
    { R"(url("https://a/b") != url("https://a/b"))", 6 },
    // Different types (dyn and a version): cel-go's rule, ceil(0.1 x min(64, unknown)) = 7.
    { R"(device.attributes["d"].v == semver("1.0.0"))", 12 },
};

TEST(CelCost, KubernetesEqualityFigures)
{
    for (const auto& f : kKubernetesEqualityFigures)
        EXPECT_EQ(estimate(f.expression), f.cost) << f.expression;
}

int64_t actualCost(const std::string& expression)
{
    CompileError error;
    // Unfolded, so that every call is charged as Kubernetes charges it.
    auto p = compileProgram(expression, true, &error, false);
    EXPECT_TRUE(p) << expression << ": " << error.message;
    if (!p)
        return -1;
    DeviceView none;
    int64_t used = 0;
    p->run(none, kRuntimeCostLimit, &used);
    return used;
}

// Kubernetes' CallCost charges `==` with one of its values on the left 1 at run time, whatever
// the estimate; `!=` measures these values as size 1 (cel-go's tracker): 1 too.
TEST(CelCost, KubernetesEqualityActualCost)
{
    // 1 + 1 for the two quantity() calls, 1 for ==
    EXPECT_EQ(actualCost(R"(quantity("1") == quantity("2"))"), 3);
    EXPECT_EQ(actualCost(R"(ip("1.2.3.4") == ip("1.2.3.4"))"), 3);
    // url("https://a/b"): ceil(0.1 x 11) = 2, twice; == 1 (estimated 2)
    EXPECT_EQ(actualCost(R"(url("https://a/b") == url("https://a/b"))"), 5);
    EXPECT_EQ(actualCost(R"(url("https://a/b") != url("https://a/b"))"), 5);
    // Stored expressions of dyn operands reach the same rule at run time.
    EXPECT_EQ(actualCost(R"(dyn(quantity("1")) == dyn(quantity("1")))"), 5);
}

// Only `==` of two values of one Kubernetes type: `!=`, and a dyn operand, keep cel-go's rule,
// which cannot bound these values.
TEST(CelCost, KubernetesInequalityAndMixedTypesExceedTheLimit)
{
    for (const char* e : {
             R"(device.capacity["d"].m != quantity("1"))",
             R"(quantity("1") != quantity("2"))",
             R"(semver("1.2.3") != semver("1.2.3"))",
             R"(ip("1.2.3.4") != ip("1.2.3.4"))",
             R"(cidr("10.0.0.0/8") != cidr("10.0.0.0/8"))",
             R"(quantity("1") == dyn(quantity("1")))",
             R"(dyn(quantity("1")) == quantity("1"))",
             R"(url("https://a/b") == url(string(1)))",
         }) {
        EXPECT_GT(estimate(e), 1e18) << e;
        CompileError error;
        EXPECT_FALSE(compileProgram(e, false, &error)) << e;
        EXPECT_EQ(error.message, "too complex, exceeds cost limit") << e;
    }
}

TEST(CelCost, AcceptedAndRejectedSidesOfTheParityCases)
{
    CompileError error;
    EXPECT_TRUE(compileProgram(
        R"(string(device.attributes["gpu.example.com"].index).startsWith("a"))", false, &error))
        << error.message;
    EXPECT_TRUE(
        compileProgram(R"(string(device.attributes["gpu.example.com"].index).endsWith("0"))", false, &error))
        << error.message;
    EXPECT_TRUE(compileProgram(R"(string(1) == "1")", false, &error)) << error.message;
    EXPECT_FALSE(compileProgram(R"(string(2.0) + "x" == "1x")", false, &error));
    EXPECT_FALSE(compileProgram(R"(string(1) == string(false ? 1 : 1))", false, &error));
}

} // namespace
} // namespace drasim::cel
