// SPDX-License-Identifier: Apache-2.0
// Randomised law of string.format: "%s" prints a list or map as CEL source (strings quoted and
// escaped like Go's %q, bytes as b"...", doubles with six decimals, durations and timestamps as
// calls), so the printed text, read back as an expression, equals the value that was printed.
// Values are generated from a random type schema (homogeneous, so both sides type-check).
// Seeded like cel_random_test: DRASIM_CEL_SEED, DRASIM_CEL_CASES.
#include <cstdlib>
#include <random>

#include <gtest/gtest.h>

#include "core/cel/interpreter.h"
#include "core/cel/program.h"
#include "tests/unit/env_number.h"

namespace drasim::cel {
namespace {

struct Schema
{
    int kind = 0; ///< 0..8 scalars, 9 list, 10 map with string keys, 11 map with int keys
    std::vector<Schema> element;
};

Schema randomSchema(std::mt19937_64& rng, int depth)
{
    Schema s;
    s.kind = int(rng() % (depth > 0 ? 12 : 9));
    if (s.kind >= 9)
        s.element.push_back(randomSchema(rng, depth - 1));
    return s;
}

std::string value(std::mt19937_64& rng, const Schema& s)
{
    auto pick = [&](std::initializer_list<const char*> xs) {
        return std::string(*(xs.begin() + rng() % xs.size()));
    };
    switch (s.kind) {
    case 0:
        return pick({ "0", "-7", "42", "9223372036854775807", "-9223372036854775808" });
    case 1:
        return pick({ "0u", "7u", "9223372036854775807u" }); // printed without the u, read back as an int
    case 2: {
        std::string out = "\"";
        for (uint64_t i = 0, n = rng() % 4; i < n; ++i)
            out += pick({ "a", " ", "\\xe9", "\\n", "\\t", "\\\"", "\\\\", "\\u00a0", "\\x01", "\\U0001F600",
                "%", "\\u2028", "'" });
        return out + "\"";
    }
    case 3:
        return pick({ "true", "false" });
    case 4:
        return pick({ "b\"\"", "b\"ab\"", "b\"\\xc3\\xa9\\n\"" });
    case 5:
        return pick({ "0.5", "-2.25", "3.0", "1234.5", "-0.0" });
    case 6:
        return "null";
    case 7:
        return pick({ "duration(\"90s\")", "duration(\"-1.5s\")", "duration(\"0\")" });
    case 8:
        return pick({ "timestamp(\"2023-02-03T23:31:20Z\")", "timestamp(\"2001-01-01T00:00:00.5Z\")" });
    case 9: {
        std::string out = "[";
        for (uint64_t i = 0, n = rng() % 3; i < n; ++i)
            out += (i ? ", " : "") + value(rng, s.element[0]);
        return out + "]";
    }
    default: {
        std::string out = "{";
        for (uint64_t i = 0, n = rng() % 3; i < n; ++i) {
            std::string key = s.kind == 10 ? "\"k" + std::to_string(i) + "\"" : std::to_string(int(i) - 1);
            out += (i ? ", " : "") + key + ": " + value(rng, s.element[0]);
        }
        return out + "}";
    }
    }
}

Value evaluate(const std::string& expression, std::string* error)
{
    CompileError compileError;
    auto program = compileProgram(expression, true, &compileError, true);
    if (!program) {
        *error = "compile: " + compileError.message;
        return Value::error(*error);
    }
    DeviceView none;
    Value v = program->run(none, kRuntimeCostLimit);
    if (v.isError())
        *error = v.errorMessage();
    return v;
}

using drasim::test_support::envNumber;

TEST(CelFormatRoundTrip, PrintedCollectionsReadBackAsTheSameValue)
{
    const uint64_t first = envNumber("DRASIM_CEL_SEED", 20261202);
    const uint64_t cases = envNumber("DRASIM_CEL_CASES", 2500);
    int failures = 0, checked = 0;
    for (uint64_t seed = first; seed < first + cases && failures < 5; ++seed) {
        std::mt19937_64 rng(seed);
        Schema schema;
        schema.kind = 9 + int(rng() % 3);
        schema.element.push_back(randomSchema(rng, 2));
        const std::string original = value(rng, schema);
        std::string error;
        Value printed = evaluate("dyn(\"%s\".format([" + original + "]))", &error);
        if (printed.kind != Kind::String) {
            ADD_FAILURE() << original << " cannot be printed: " << error
                          << "\n  reproduce: DRASIM_CEL_SEED=" << seed << " DRASIM_CEL_CASES=1";
            ++failures;
            continue;
        }
        const std::string text(printed.str());
        Value same = evaluate("dyn(" + text + ") == dyn(" + original + ")", &error);
        ++checked;
        if (same.kind != Kind::Bool || !same.b) {
            ADD_FAILURE() << original << " prints as " << text << ", which reads back "
                          << (error.empty() ? "as another value" : "with " + error)
                          << "\n  reproduce: DRASIM_CEL_SEED=" << seed << " DRASIM_CEL_CASES=1";
            ++failures;
        }
    }
    EXPECT_EQ(checked, int(cases)) << "every generated value must print";
}

} // namespace
} // namespace drasim::cel
