// SPDX-License-Identifier: Apache-2.0
// Randomised laws of the Kubernetes lists library on dyn lists that mix ints, doubles (NaN
// included), strings and bools, where some pairs cannot be compared:
//   * min, max and isSorted never fail on such elements: a comparison that fails is skipped;
//   * min and max return an element of the list, and one that no element it can be compared
//     with beats (on a list without NaN whose elements all compare, the true extreme);
//   * sum on a dyn list adds to int 0: it succeeds exactly when every element is an int.
// Seeded like cel_random_test: DRASIM_CEL_SEED, DRASIM_CEL_CASES.
#include <cstdlib>
#include <random>

#include <gtest/gtest.h>

#include "core/cel/interpreter.h"
#include "core/cel/program.h"
#include "tests/unit/env_number.h"

namespace drasim::cel {
namespace {

Value run(const std::string& expression)
{
    CompileError error;
    auto program = compileProgram(expression, true, &error, true);
    if (!program)
        return Value::error("compile: " + error.message);
    DeviceView none;
    return program->run(none, kRuntimeCostLimit);
}

using drasim::test_support::envNumber;

TEST(CelListsLaws, ExtremesSkipFailedComparisonsAndSumStartsFromInt)
{
    const uint64_t first = envNumber("DRASIM_CEL_SEED", 20261202);
    const uint64_t cases = envNumber("DRASIM_CEL_CASES", 2500);
    int failures = 0, mixed = 0;
    auto fail = [&](uint64_t seed, const std::string& what) {
        ADD_FAILURE() << what << "\n  reproduce: DRASIM_CEL_SEED=" << seed << " DRASIM_CEL_CASES=1";
        ++failures;
    };
    for (uint64_t seed = first; seed < first + cases && failures < 5; ++seed) {
        std::mt19937_64 rng(seed);
        static const char* const kElements[]
            = { "1", "-3", "7", "2.5", "-0.5", "0.0/0.0", "\"a\"", "\"b\"", "true", "false", "2u" };
        const size_t pool = rng() % 2 ? 3 : std::size(kElements); // numbers only, or anything
        std::string list = "[";
        bool allInts = true, allNumbers = true;
        for (uint64_t i = 0, n = 1 + rng() % 4; i < n; ++i) {
            size_t e = rng() % pool;
            allInts = allInts && e < 3;
            allNumbers = allNumbers && (e < 5 || e == 10);
            list += std::string(i ? ", " : "") + "dyn(" + kElements[e] + ")";
        }
        list += "]";
        mixed += !allNumbers;
        for (const char* fn : { "min", "max" }) {
            Value v = run(list + "." + fn + "()");
            if (v.isError()) {
                fail(seed, list + "." + fn + "() fails: " + v.errorMessage());
                continue;
            }
            // Nothing comparable with the result beats it.
            std::string op = std::string(fn) == "min" ? "<" : ">";
            Value beaten = run(list
                + ".exists(x, (x == x) && type(x) != string && type(x) != bool && "
                  "type(dyn("
                + list + "." + fn
                + "())) != string && "
                  "type(dyn("
                + list + "." + fn + "())) != bool && x " + op + " dyn(" + list + "." + fn + "()))");
            if (allNumbers && beaten.kind == Kind::Bool && beaten.b)
                fail(seed, list + "." + fn + "() is beaten by another element");
        }
        if (Value sorted = run(list + ".isSorted()"); sorted.isError())
            fail(seed, list + ".isSorted() fails: " + sorted.errorMessage());
        Value sum = run(list + ".sum()");
        if (sum.isError() == allInts)
            fail(seed,
                list + ".sum() gives " + (sum.isError() ? sum.errorMessage() : "a value")
                    + (allInts ? " on ints" : " although it starts from int 0"));
    }
    if (cases >= 1000) {
        EXPECT_GT(mixed, int(cases / 4));
    }
}

} // namespace
} // namespace drasim::cel
