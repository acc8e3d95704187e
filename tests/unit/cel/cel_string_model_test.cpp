// SPDX-License-Identifier: Apache-2.0
// Randomised: the index-based functions of the strings extension and the regex library's findAll
// against a small model of cel-go's definitions on code points (strings of one- to four-byte
// characters, the empty string, positions just outside the string). The model is the contract
// Kubernetes implements: an empty search string returns the position unchecked, any other
// search needs a position inside the string, a two-sided substring checks its order first, and
// findAll steps one code point past an empty match and drops an empty match where the previous
// match ended. Seeded like cel_random_test: DRASIM_CEL_SEED, DRASIM_CEL_CASES.
#include <cstdlib>
#include <optional>
#include <random>

#include <gtest/gtest.h>

#include "core/cel/interpreter.h"
#include "core/cel/program.h"
#include "tests/unit/env_number.h"

namespace drasim::cel {
namespace {

const char* const kChars[] = { "a", "b", "\xc3\xa9", "\xf0\x9f\x98\x80" }; // a b é 😀

using Text = std::vector<int>; // indices into kChars

std::string utf8(const Text& t)
{
    std::string out;
    for (int c : t)
        out += kChars[c];
    return out;
}

/// An int result or an error message.
struct Outcome
{
    std::optional<int64_t> value;
    std::string error;
    std::string describe() const { return value ? std::to_string(*value) : "error: " + error; }
    bool operator==(const Outcome& o) const { return value == o.value && error == o.error; }
};

Outcome ok(int64_t v)
{
    return { v, {} };
}
Outcome outOfRange(int64_t i)
{
    return { std::nullopt, "index out of range: " + std::to_string(i) };
}

bool occursAt(const Text& s, const Text& t, int64_t at)
{
    return std::equal(t.begin(), t.end(), s.begin() + at);
}

Outcome modelIndexOf(const Text& s, const Text& t, std::optional<int64_t> from)
{
    int64_t start = from.value_or(0);
    if (t.empty())
        return ok(start);
    int64_t len = int64_t(s.size());
    if (start < 0 || start >= len)
        return outOfRange(start);
    for (int64_t i = start; i + int64_t(t.size()) <= len; ++i) {
        if (occursAt(s, t, i))
            return ok(i);
    }
    return ok(-1);
}

Outcome modelLastIndexOf(const Text& s, const Text& t, std::optional<int64_t> from)
{
    int64_t len = int64_t(s.size());
    if (!from && t.empty())
        return ok(len);
    int64_t last = from.value_or(len - 1);
    if (t.empty())
        return ok(last);
    if (last < 0 || last >= len)
        return outOfRange(last);
    for (int64_t i = std::min(last, len - int64_t(t.size())); i >= 0; --i) {
        if (occursAt(s, t, i))
            return ok(i);
    }
    return ok(-1);
}

/// Go's FindAllString for the pattern `c*` (or `` when c < 0), as its match count.
int64_t modelFindAllCount(const Text& s, int c)
{
    int64_t count = 0;
    int64_t previousEnd = -1;
    for (int64_t pos = 0; pos <= int64_t(s.size());) {
        int64_t end = pos;
        while (c >= 0 && end < int64_t(s.size()) && s[size_t(end)] == c)
            ++end;
        if (end == pos) {
            count += pos != previousEnd;
            ++pos;
        } else {
            ++count;
            pos = end;
        }
        previousEnd = end;
    }
    return count;
}

Outcome evaluate(const std::string& expression)
{
    CompileError error;
    // dyn(): a selector's result must be bool or dyn.
    auto program = compileProgram("dyn(" + expression + ")", true, &error, true);
    if (!program)
        return { std::nullopt, "compile: " + error.message };
    DeviceView none;
    Value v = program->run(none, kRuntimeCostLimit);
    if (v.isError())
        return { std::nullopt, v.errorMessage() };
    if (v.kind != Kind::Int)
        return { std::nullopt, "not an int" };
    return ok(v.i);
}

using drasim::test_support::envNumber;

TEST(CelStringModel, IndexFunctionsAndFindAllFollowCelGo)
{
    uint64_t first = envNumber("DRASIM_CEL_SEED", 20261202);
    uint64_t cases = envNumber("DRASIM_CEL_CASES", 2500);
    int failures = 0, errors = 0, found = 0;
    for (uint64_t seed = first; seed < first + cases && failures < 5; ++seed) {
        std::mt19937_64 rng(seed);
        auto text = [&](int maxLen) {
            Text t(rng() % uint64_t(maxLen + 1));
            for (int& c : t)
                c = int(rng() % 4);
            return t;
        };
        Text s = text(4), t = text(2);
        int64_t i = int64_t(rng() % 8) - 2, j = int64_t(rng() % 8) - 2;
        bool withPosition = rng() % 3 != 0;
        std::string pos = withPosition ? ", " + std::to_string(i) : "";
        std::optional<int64_t> from = withPosition ? std::optional<int64_t>(i) : std::nullopt;
        std::string subject = "\"" + utf8(s) + "\"";
        int c = int(rng() % 5) - 1;
        std::string pattern = c < 0 ? "" : std::string(kChars[c]) + "*";
        struct Check
        {
            std::string expression;
            Outcome expected;
        };
        std::string substringError
            = "invalid substring range. start: " + std::to_string(i) + ", end: " + std::to_string(j);
        const int64_t len = int64_t(s.size());
        Outcome substring = j < i ? Outcome { std::nullopt, substringError }
            : (i < 0 || i > len)  ? outOfRange(i)
            : (j > len)           ? outOfRange(j)
                                  : ok(j - i);
        const Check checks[] = {
            { subject + ".indexOf(\"" + utf8(t) + "\"" + pos + ")", modelIndexOf(s, t, from) },
            { subject + ".lastIndexOf(\"" + utf8(t) + "\"" + pos + ")", modelLastIndexOf(s, t, from) },
            { subject + ".substring(" + std::to_string(i) + ", " + std::to_string(j) + ").size()",
                substring },
            { subject + ".findAll(\"" + pattern + "\").size()", ok(modelFindAllCount(s, c)) },
        };
        for (const auto& check : checks) {
            Outcome actual = evaluate(check.expression);
            errors += !actual.value.has_value();
            found += actual.value.value_or(-1) > 0;
            if (!(actual == check.expected)) {
                ADD_FAILURE() << check.expression << "\n  gives " << actual.describe() << ", cel-go gives "
                              << check.expected.describe() << "\n  reproduce: DRASIM_CEL_SEED=" << seed
                              << " DRASIM_CEL_CASES=1";
                ++failures;
            }
        }
    }
    // Both sides of every rule are exercised.
    if (cases >= 1000) {
        EXPECT_GT(errors, int(cases / 4));
        EXPECT_GT(found, int(cases / 2));
    }
}

} // namespace
} // namespace drasim::cel
