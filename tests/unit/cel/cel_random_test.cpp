// SPDX-License-Identifier: Apache-2.0
// Randomised laws of the CEL compiler and evaluator, with selectors generated from a small typed
// grammar (literals at the edges of their ranges, conversions, arithmetic, strings, lists,
// macros, bindings, device attributes that may be missing or of another type). No oracle is
// needed, only agreement between parts that must agree:
//   * folding: a closed constant expression folds to exactly the value it evaluates to, and is
//     rejected exactly when its evaluation fails (with that error); folding never changes the
//     value of a selector on any device, nor its cost estimate;
//   * cost: the actual cost of every evaluation is within the estimate;
//   * printing: printing a parsed selector and parsing it again is a fixpoint after one round
//     and keeps compile verdict, estimate and every device's outcome.
// Seeded: DRASIM_CEL_SEED (first case) and DRASIM_CEL_CASES (how many) reproduce a failure.
#include <cstdlib>
#include <random>
#include <sstream>

#include <gtest/gtest.h>

#include "core/cel/interpreter.h"
#include "core/cel/parser.h"
#include "core/cel/printer.h"
#include "core/cel/program.h"
#include "tests/unit/cel/cel_fixtures.h"
#include "tests/unit/env_number.h"

namespace drasim::cel {
namespace {

enum class T { Bool, Int, Uint, Double, String, Bytes, ListInt, ListString, Dyn };

class Gen
{
public:
    explicit Gen(uint64_t seed)
        : m_rng(seed)
    { }

    std::string selector() { return gen(T::Bool, 4); }

    /// Constants, conversions, dyn() and list/map literals only: what the planner folds.
    std::string constant(int depth)
    {
        static const char* kConversions[]
            = { "int", "uint", "double", "string", "bool", "bytes", "dyn", "type" };
        switch (depth <= 0 ? 0 : pick(6)) {
        case 0:
        case 1: {
            m_closed = true; // no device.driver
            std::string out = leaf(pickOf({ T::Bool, T::Int, T::Uint, T::Double, T::String, T::Bytes }));
            m_closed = false;
            return out;
        }
        case 2:
        case 3:
            return std::string(kConversions[pick(8)]) + "(" + constant(depth - 1) + ")";
        case 4: {
            // Homogeneous on purpose: dyn() elements always type-check.
            std::string out = "[";
            for (int i = 0, n = pick(3); i < n; ++i)
                out += (i ? ", dyn(" : "dyn(") + constant(depth - 1) + ")";
            return out + "]";
        }
        default: {
            // Distinct keys: a map with a repeated key is not folded (a documented decision).
            std::string out = "{";
            for (int i = 0, n = pick(3); i < n; ++i)
                out += (i ? ", \"k" : "\"k") + std::to_string(i) + "\": dyn(" + constant(depth - 1) + ")";
            return out + "}";
        }
        }
    }

private:
    std::mt19937_64 m_rng;
    std::vector<std::pair<std::string, T>> m_vars;
    int m_nextVar = 0;
    bool m_closed = false;

    int pick(int n) { return int(m_rng() % uint64_t(n)); }
    template <typename X> X pickOf(std::initializer_list<X> xs)
    {
        return *(xs.begin() + pick(int(xs.size())));
    }
    std::string var(T t)
    {
        std::vector<std::string> names;
        for (const auto& [name, type] : m_vars) {
            if (type == t)
                names.push_back(name);
        }
        return names.empty() ? std::string() : names[size_t(pick(int(names.size())))];
    }

    std::string attribute()
    {
        std::string domain
            = pickOf<const char*>({ "gpu.example.com", "gpu.example.com", "numa.example.org", "x.io" });
        std::string name = pickOf<const char*>({ "index", "model", "flag", "version", "count", "absent" });
        if (pick(2))
            return "device.attributes[\"" + domain + "\"]." + name;
        return "device.attributes[\"" + domain + "\"][\"" + name + "\"]";
    }

    std::string leaf(T t)
    {
        if (std::string v = var(t); !v.empty() && pick(2))
            return v;
        switch (t) {
        case T::Bool:
            return pickOf<const char*>({ "true", "false" });
        case T::Int:
            return pickOf<const char*>({ "0", "1", "-1", "2", "7", "-7", "3", "100", "9223372036854775807",
                "-9223372036854775808" });
        case T::Uint:
            return pickOf<const char*>({ "0u", "1u", "7u", "3u", "18446744073709551615u" });
        case T::Double:
            return pickOf<const char*>({ "0.0", "-0.0", "0.5", "-0.75", "1.5", "1e300", "-2.5", "3.0",
                "18446744073709551616.0", "9223372036854775808.0", "-9223372036854775809.0" });
        case T::String:
            return pickOf<const char*>({ "\"\"", "\"a\"", "\"abc\"", "\"gpu\"", "\"3\"", "\"-4\"", "\"true\"",
                "\"1.5\"", "\"\xc3\xa9t\xc3\xa9\"", "\"18446744073709551616\"",
                m_closed ? "\"x\"" : "device.driver" });
        case T::Bytes:
            return pickOf<const char*>({ "b\"\"", "b\"ab\"", "b\"\\xff\"" });
        case T::ListInt:
            return pickOf<const char*>({ "[]", "[1, 2]", "[0, -1, 7]" });
        case T::ListString:
            return pickOf<const char*>({ "[\"a\"]", "[\"x\", \"yz\"]", "[]" });
        case T::Dyn:
            return pick(3) ? attribute()
                           : "dyn(" + leaf(pickOf({ T::Int, T::String, T::Bool, T::Double })) + ")";
        }
        return "true";
    }

    /// A fresh iteration or bind variable of type t, visible while `body` is generated.
    template <typename F> std::string withVar(T t, F body)
    {
        std::string name = "v" + std::to_string(m_nextVar++);
        m_vars.emplace_back(name, t);
        std::string out = body(name);
        m_vars.pop_back();
        return out;
    }

    std::string gen(T t, int depth)
    {
        if (depth <= 0 || pick(4) == 0)
            return leaf(t);
        int d = depth - 1;
        auto g = [&](T x) { return gen(x, d); };
        switch (t) {
        case T::Bool:
            switch (pick(16)) {
            case 0: {
                T x = pickOf({ T::Int, T::Uint, T::Double, T::String });
                return "(" + g(x) + pickOf<const char*>({ " < ", " <= ", " > ", " >= " }) + g(x) + ")";
            }
            case 1: {
                T x = pickOf({ T::Int, T::Double, T::String, T::Bool, T::ListInt, T::Bytes });
                return "(" + g(x) + pickOf<const char*>({ " == ", " != " }) + g(x) + ")";
            }
            case 2:
                return "!(" + g(T::Bool) + ")";
            case 3:
                return "(" + g(T::Bool) + " && " + g(T::Bool) + ")";
            case 4:
                return "(" + g(T::Bool) + " || " + g(T::Bool) + ")";
            case 5:
                return "(" + g(T::Bool) + " ? " + g(T::Bool) + " : " + g(T::Bool) + ")";
            case 6:
                return g(T::String) + pickOf<const char*>({ ".startsWith(", ".endsWith(", ".contains(" })
                    + g(T::String) + ")";
            case 7:
                return g(T::String) + ".matches(" + pickOf<const char*>({ "\"a.c\"", "\"^[0-9]+$\"", "\"\"" })
                    + ")";
            case 8:
                return "(" + g(T::Int) + " in " + g(T::ListInt) + ")";
            case 9:
                return "(" + g(T::Dyn) + " == " + g(pickOf({ T::Int, T::String, T::Bool, T::Dyn })) + ")";
            case 10:
                return withVar(T::Int, [&](const std::string& v) {
                    return g(T::ListInt) + pickOf<const char*>({ ".all(", ".exists(", ".exists_one(" }) + v
                        + ", " + g(T::Bool) + ")";
                });
            case 11:
                return withVar(T::String, [&](const std::string& v) {
                    return g(T::ListString) + ".exists(" + v + ", " + g(T::Bool) + ")";
                });
            case 12:
                return "has(" + attribute() + ")";
            case 13:
                return "(" + g(T::Dyn) + pickOf<const char*>({ " < ", " > " })
                    + g(pickOf({ T::Int, T::Double })) + ")";
            case 14:
                return std::string("bool(") + pickOf<const char*>({ "\"true\"", "\"f\"", "\"yes\"" }) + ")";
            default:
                return "(" + g(T::String) + " in " + g(T::ListString) + ")";
            }
        case T::Int:
            switch (pick(11)) {
            case 0:
            case 1:
                return "(" + g(T::Int) + pickOf<const char*>({ " + ", " - ", " * ", " / ", " % " })
                    + g(T::Int) + ")";
            case 2:
                return "-(" + g(T::Int) + ")";
            case 3:
                return "int(" + g(pickOf({ T::Uint, T::Double, T::String, T::Dyn })) + ")";
            case 4:
                return "size(" + g(pickOf({ T::String, T::Bytes, T::ListInt })) + ")";
            case 5:
                return "(" + g(T::Bool) + " ? " + g(T::Int) + " : " + g(T::Int) + ")";
            case 6:
                return withVar(T::Int, [&](const std::string& v) {
                    return "cel.bind(" + v + ", " + g(T::Int) + ", " + g(T::Int) + ")";
                });
            case 7:
                return g(T::ListInt) + "[" + g(T::Int) + "]";
            case 8:
                return "int(" + g(T::Dyn) + ")";
            case 9:
                return g(T::String) + ".size()";
            default:
                return g(T::ListInt) + ".size()";
            }
        case T::Uint:
            switch (pick(4)) {
            case 0:
                return "(" + g(T::Uint) + pickOf<const char*>({ " + ", " - ", " * ", " / ", " % " })
                    + g(T::Uint) + ")";
            default:
                return "uint(" + g(pickOf({ T::Int, T::Double, T::String })) + ")";
            }
        case T::Double:
            switch (pick(4)) {
            case 0:
                return "(" + g(T::Double) + pickOf<const char*>({ " + ", " - ", " * ", " / " }) + g(T::Double)
                    + ")";
            case 1:
                return "-(" + g(T::Double) + ")";
            default:
                return "double(" + g(pickOf({ T::Int, T::Uint, T::String })) + ")";
            }
        case T::String:
            switch (pick(7)) {
            case 0:
                return "(" + g(T::String) + " + " + g(T::String) + ")";
            case 1:
                return "string(" + g(pickOf({ T::Int, T::Uint, T::Double, T::Bool, T::Bytes })) + ")";
            case 2:
                return g(T::String) + pickOf<const char*>({ ".lowerAscii()", ".upperAscii()", ".trim()" });
            case 3:
                return g(T::String) + ".replace(\"a\", \"bb\")";
            case 4:
                return g(T::String) + ".substring(" + pickOf<const char*>({ "0", "1" }) + ")";
            case 5:
                return "string(" + g(T::Dyn) + ")";
            default:
                return "(" + g(T::Bool) + " ? " + g(T::String) + " : " + g(T::String) + ")";
            }
        case T::Bytes:
            return pick(2) ? "bytes(" + g(T::String) + ")" : "(" + g(T::Bytes) + " + " + g(T::Bytes) + ")";
        case T::ListInt:
            switch (pick(4)) {
            case 0:
                return "(" + g(T::ListInt) + " + " + g(T::ListInt) + ")";
            case 1:
                return withVar(T::Int, [&](const std::string& v) {
                    return g(T::ListInt) + ".map(" + v + ", " + g(T::Int) + ")";
                });
            case 2:
                return withVar(T::Int, [&](const std::string& v) {
                    return g(T::ListInt) + ".filter(" + v + ", " + g(T::Bool) + ")";
                });
            default:
                return "[" + g(T::Int) + ", " + g(T::Int) + "]";
            }
        case T::ListString:
            switch (pick(3)) {
            case 0:
                return withVar(T::Int, [&](const std::string& v) {
                    return g(T::ListInt) + ".map(" + v + ", " + g(T::String) + ")";
                });
            case 1:
                return g(T::String) + ".split(\",\")";
            default:
                return "[" + g(T::String) + "]";
            }
        case T::Dyn:
            return "dyn(" + g(pickOf({ T::Int, T::String, T::Bool, T::Double, T::Uint })) + ")";
        }
        return leaf(t);
    }
};

/// Devices with the attributes the generator names, present or absent and of varying types.
std::vector<testing::DeviceFixture> devices(std::mt19937_64& rng)
{
    std::vector<testing::DeviceFixture> out = { testing::gpuDevice(), testing::plainDevice() };
    for (int k = 0; k < 2; ++k) {
        testing::DeviceFixture d;
        d.driver = "gpu.example.com";
        auto maybe = [&](const std::string& name, api::DeviceAttribute a) {
            if (rng() % 4)
                d.attributes[name] = std::move(a);
        };
        maybe("index", testing::intAttr(int64_t(rng() % 5) - 1));
        maybe("model", testing::stringAttr(rng() % 2 ? "abc" : std::string(64, 'x')));
        maybe("flag", testing::boolAttr(rng() % 2));
        maybe("version", testing::versionAttr("1.2.3"));
        maybe("count", rng() % 2 ? testing::intAttr(9223372036854775807) : testing::stringAttr("7"));
        maybe("numa.example.org/index", testing::intAttr(1));
        out.push_back(std::move(d));
    }
    return out;
}

std::string describe(const Value& v)
{
    if (v.isError())
        return "error: " + v.errorMessage();
    return std::string(typeName(v)) + " " + debugString(v);
}

/// Same kind and same value (doubles bit for bit, so NaN and -0.0 count).
bool identical(const Value& a, const Value& b)
{
    if (a.kind != b.kind)
        return false;
    if (a.isError())
        return a.errorMessage() == b.errorMessage();
    if (a.kind == Kind::Double)
        return std::signbit(a.d) == std::signbit(b.d) && (a.d == b.d || (std::isnan(a.d) && std::isnan(b.d)));
    return debugString(a) == debugString(b);
}

using drasim::test_support::envNumber;

class CelRandom : public ::testing::Test
{
protected:
    uint64_t m_first = envNumber("DRASIM_CEL_SEED", 20261202);
    uint64_t m_cases = envNumber("DRASIM_CEL_CASES", 2500);
    int m_failures = 0;

    void report(uint64_t seed, const std::string& expression, const std::string& what)
    {
        ADD_FAILURE() << what << "\n  expression: " << expression << "\n  reproduce: DRASIM_CEL_SEED=" << seed
                      << " DRASIM_CEL_CASES=1 " << ::testing::internal::GetArgvs()[0] << " --gtest_filter="
                      << ::testing::UnitTest::GetInstance()->current_test_info()->test_suite_name() << "."
                      << ::testing::UnitTest::GetInstance()->current_test_info()->name();
        ++m_failures;
    }
    bool tooManyFailures() const { return m_failures >= 5; }
};

// A closed constant expression folds to exactly what it evaluates to, or is rejected with the
// error its evaluation gives.
TEST_F(CelRandom, ConstantsFoldToTheirValue)
{
    int folded = 0, rejected = 0;
    for (uint64_t seed = m_first; seed < m_first + m_cases && !tooManyFailures(); ++seed) {
        Gen gen(seed);
        std::string expression = "dyn(" + gen.constant(4) + ")";
        CompileError error;
        auto unfolded = compileProgram(expression, true, &error, false);
        if (!unfolded)
            continue; // does not type-check: nothing to fold
        DeviceView none;
        Value evaluated = unfolded->run(none, kRuntimeCostLimit);
        auto program = compileProgram(expression, true, &error, true);
        if (evaluated.isError()) {
            ++rejected;
            if (program)
                report(seed, expression, "evaluates to " + describe(evaluated) + " but folding accepted it");
            else if (error.message != evaluated.errorMessage())
                report(seed, expression,
                    "folding rejected it with \"" + error.message + "\", evaluation fails with \""
                        + evaluated.errorMessage() + "\"");
            continue;
        }
        ++folded;
        if (!program) {
            report(seed, expression,
                "evaluates to " + describe(evaluated) + " but folding rejected it: " + error.message);
        } else if (program->root().kind != NodeKind::Literal) {
            report(seed, expression, "a closed constant expression was not folded");
        } else if (!identical(program->root().literal, evaluated)) {
            report(seed, expression,
                "folded to " + describe(program->root().literal) + ", evaluates to " + describe(evaluated));
        }
    }
    // The generator must exercise both sides of the law.
    EXPECT_GT(folded, int(m_cases / 4));
    if (m_cases >= 1000) {
        EXPECT_GT(rejected, 50);
    }
}

// On generated selectors: folding keeps values and estimates, the estimate bounds the actual
// cost, and printing round-trips.
TEST_F(CelRandom, SelectorLaws)
{
    int evaluated = 0, accepted = 0;
    for (uint64_t seed = m_first; seed < m_first + m_cases && !tooManyFailures(); ++seed) {
        Gen gen(seed);
        std::string expression = gen.selector();
        std::mt19937_64 rng(seed);
        auto fixtures = devices(rng);

        CompileError foldedError, plainError;
        auto folded = compileProgram(expression, true, &foldedError, true);
        auto plain = compileProgram(expression, true, &plainError, false);
        if (!plain) {
            if (folded)
                report(seed, expression, "compiles only when folded");
            continue; // a type error of the generator: nothing to compare
        }
        if (folded && folded->estimatedCost() != plain->estimatedCost())
            report(seed, expression, "folding changed the estimate");

        // Printing: a fixpoint after one round, with the same meaning.
        ParseError parseError;
        NodePtr parsed = parseExpression(expression, &parseError);
        std::string printed = printExpression(*parsed);
        NodePtr reparsed = parseExpression(printed, &parseError);
        if (!reparsed) {
            report(seed, expression, "printed form does not parse: " + printed + ": " + parseError.message);
            continue;
        }
        if (printExpression(*reparsed) != printed)
            report(seed, expression, "printing is not a fixpoint: " + printed);
        CompileError printedError;
        auto printedProgram = compileProgram(printed, true, &printedError, true);
        if (bool(printedProgram) != bool(folded) || (!folded && printedError.message != foldedError.message))
            report(seed, expression, "printed form compiles differently: " + printed);
        if (printedProgram && folded && printedProgram->estimatedCost() != folded->estimatedCost())
            report(seed, expression, "printed form estimates differently: " + printed);

        if (!folded)
            continue; // a constant conversion failed: rejected at validation
        bool withinLimit = folded->estimatedCost() <= 1000000;
        accepted += withinLimit;
        for (const auto& d : fixtures) {
            DeviceView view = d.view();
            int64_t cost = 0;
            Value a = folded->run(view, kRuntimeCostLimit, &cost);
            Value b = plain->run(view, kRuntimeCostLimit);
            ++evaluated;
            if (!identical(a, b))
                report(seed, expression,
                    "folded " + describe(a) + ", unfolded " + describe(b) + " on " + d.driver);
            if (withinLimit && double(cost) > folded->estimatedCost())
                report(seed, expression,
                    "actual cost " + std::to_string(cost) + " above the estimate "
                        + std::to_string(folded->estimatedCost()));
            if (printedProgram) {
                Value c = printedProgram->run(view, kRuntimeCostLimit);
                if (!identical(a, c))
                    report(
                        seed, expression, "printed form gives " + describe(c) + " instead of " + describe(a));
            }
        }
    }
    EXPECT_GT(accepted, int(m_cases / 4));
    EXPECT_GT(evaluated, int(m_cases));
}

// Printing on hand-picked edge cases: escapes, bytes, negative literals (a literal, not a
// negation), unary operators, macros, optional syntax, bindings.
TEST(CelPrinter, PrintsEdgeCasesAsParseableSource)
{
    const std::pair<const char*, const char*> cases[] = {
        { R"("a\"b\\c\n")", R"("a\"b\\c\x0a")" },
        { R"(b"\xff\x00a")", R"(b"\xff\x00a")" },
        { "-9223372036854775808", "-9223372036854775808" },
        { "-(1)", "-(1)" },
        { "--1", "-(-1)" },
        { "!!true", "!(!(true))" },
        { "1.0 + 2e3 + 18446744073709551615u", "((1.0 + 2000.0) + 18446744073709551615u)" },
        { "[1, 2].map(x, x > 1, x * 2)", "([1, 2]).map(x, (x > 1), (x * 2))" },
        { "{'k': 1}.all(k, v, v > 0)", R"(({"k": 1}).all(k, v, (v > 0)))" },
        { "cel.bind(a, 1, a + a)", "cel.bind(a, 1, (a + a))" },
        { "has(device.attributes.x)", "has(((device).attributes).x)" },
        { "device.attributes[?'d'].orValue({})", R"((((device).attributes)[?"d"]).orValue({}))" },
        { "[?optional.of(2), 1]", "[?(optional).of(2), 1]" },
        { "a ? b : c ? d : e", "(a ? b : (c ? d : e))" },
    };
    for (const auto& [source, printed] : cases) {
        ParseError error;
        NodePtr parsed = parseExpression(source, &error);
        ASSERT_TRUE(parsed) << source << ": " << error.message;
        EXPECT_EQ(printExpression(*parsed), printed) << source;
        NodePtr again = parseExpression(printed, &error);
        ASSERT_TRUE(again) << printed << ": " << error.message;
        EXPECT_EQ(printExpression(*again), printed);
    }
}

// The laws can fail: a deliberately wrong estimate or fold would be caught.
TEST_F(CelRandom, IdenticalDistinguishesValues)
{
    EXPECT_FALSE(identical(Value::dbl(0.0), Value::dbl(-0.0)));
    EXPECT_FALSE(identical(Value::integer(1), Value::uinteger(1)));
    EXPECT_TRUE(identical(Value::dbl(std::nan("")), Value::dbl(std::nan(""))));
    EXPECT_FALSE(identical(Value::error("a"), Value::error("b")));
}

} // namespace
} // namespace drasim::cel
