// SPDX-License-Identifier: Apache-2.0
// Bad input never crashes: random token soups and mutations of the conformance expressions are
// compiled (new and stored) and evaluated; every outcome must be a clean result or message.
#include <filesystem>
#include <fstream>
#include <random>

#include <gtest/gtest.h>

#include "core/cel/cel.h"
#include "tests/unit/cel/cel_fixtures.h"

namespace drasim::cel {
namespace {

const char* const kFragments[] = { "device", ".", "driver", "attributes", "capacity", "[", "]", "(", ")", "{",
    "}", "\"gpu.nvidia.com\"", "\"x\"", "'a'", "r\"\\d\"", "b\"\\xff\"", "1", "-", "0", "9223372036854775807",
    "1u", "2.5", "1e308", "+", "*", "/", "%", "==", "!=", "<", ">=", "&&", "||", "!", "?", ":", ",", "in",
    "true", "null", "has", "all", "exists", "exists_one", "map", "filter", "x", "y", "cel.bind",
    "quantity(\"1Gi\")", "semver(\"1.0.0\")", "compareTo", "matches", "size", "int", "string", "dyn", "type",
    "productName", "memory", ".?", "[?", "optional.none()", "orValue", "lists.range(100)", "duration(\"1h\")",
    "timestamp(0)", "ip(\"::1\")", "\"%d\"", "format", " ", "\n", "//c\n", "\"\"\"", "\\", "@", "#", "`" };

struct Counts
{
    size_t compiled = 0;
    size_t evaluated = 0;
};

void exercise(const std::string& expr, const DeviceView& view, Counts& counts)
{
    for (bool stored : { false, true }) {
        CompileError error;
        auto s = stored ? Selector::compileStored(expr, &error) : Selector::compile(expr, &error);
        if (!s) {
            ASSERT_FALSE(error.message.empty()) << expr;
            ASSERT_GE(error.line, 1) << expr;
            ASSERT_GE(error.column, 1) << expr;
            continue;
        }
        ++counts.compiled;
        EvalResult r = s->evaluate(view);
        ++counts.evaluated;
        if (r.outcome == Outcome::Error) {
            ASSERT_FALSE(r.error.empty()) << expr;
        }
    }
}

TEST(CelRobustness, RandomTokenSoupsNeverCrash)
{
    auto dev = testing::gpuDevice();
    std::mt19937_64 rng(20240601);
    const size_t fragments = sizeof kFragments / sizeof kFragments[0];
    Counts counts;
    for (int i = 0; i < 20000; ++i) {
        std::string expr;
        size_t len = 1 + rng() % 24;
        for (size_t k = 0; k < len; ++k)
            expr += kFragments[rng() % fragments];
        exercise(expr, dev.view(), counts);
    }
    // The generator must reach the evaluator, or this test proves little.
    EXPECT_GT(counts.evaluated, 10u);
}

TEST(CelRobustness, MutatedConformanceExpressionsNeverCrash)
{
    std::vector<std::string> seeds;
    for (const auto& e : std::filesystem::directory_iterator(DRASIM_SOURCE_DIR "/tests/unit/cel/cases")) {
        std::ifstream in(e.path());
        std::string line;
        while (std::getline(in, line)) {
            size_t at = line.rfind(" ==> ");
            if (at != std::string::npos)
                seeds.push_back(line.substr(0, at));
        }
    }
    std::sort(seeds.begin(), seeds.end()); // directory order is not deterministic
    ASSERT_GT(seeds.size(), 300u);
    auto dev = testing::gpuDevice();
    std::mt19937_64 rng(7);
    Counts counts;
    const std::string alphabet = "()[]{}.,:?!-+*/%<>=&|\"'\\ 0123456789abcxyzu_";
    for (const auto& seed : seeds) {
        for (int m = 0; m < 8; ++m) {
            std::string expr = seed;
            int edits = 1 + int(rng() % 3);
            for (int k = 0; k < edits && !expr.empty(); ++k) {
                size_t pos = rng() % expr.size();
                switch (rng() % 3) {
                case 0:
                    expr.erase(pos, 1);
                    break;
                case 1:
                    expr.insert(pos, 1, alphabet[rng() % alphabet.size()]);
                    break;
                default:
                    expr[pos] = alphabet[rng() % alphabet.size()];
                }
            }
            exercise(expr, dev.view(), counts);
        }
    }
    EXPECT_GT(counts.evaluated, 1000u);
}

} // namespace
} // namespace drasim::cel
