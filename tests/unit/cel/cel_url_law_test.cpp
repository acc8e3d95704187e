// SPDX-License-Identifier: Apache-2.0
// Randomised laws of the Kubernetes URL library over URLs assembled from good and bad pieces
// (schemes, userinfo, hosts with spaces, braces and escapes, ports, paths with raw and escaped
// characters, queries):
//   * isURL(s) holds exactly when url(s) succeeds;
//   * an accepted URL's hostname holds only what Go lets a host hold (letters, digits,
//     "-_.~!$&'()*+,;=:[]<>\"" and non-ASCII bytes), so a host Go refuses is refused;
//   * getEscapedPath() is always validly encoded: every character is one a path may carry as it
//     is, or part of a %XX escape.
// Seeded like cel_random_test: DRASIM_CEL_SEED, DRASIM_CEL_CASES.
#include <cstdlib>
#include <random>

#include <gtest/gtest.h>

#include "core/cel/interpreter.h"
#include "core/cel/program.h"
#include "tests/unit/env_number.h"

namespace drasim::cel {
namespace {

Value runDyn(const std::string& expression)
{
    CompileError error;
    auto program
        = compileProgram("dyn(" + expression + ")", true, &error, true); // a result must be bool or dyn
    if (!program)
        return Value::error("compile: " + error.message);
    DeviceView none;
    return program->run(none, kRuntimeCostLimit);
}

std::string celString(const std::string& s)
{
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\')
            out += '\\';
        out += c;
    }
    return out + "\"";
}

bool allOf(std::string_view s, std::string_view allowed)
{
    for (unsigned char c : s) {
        bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        if (!alnum && c < 0x80 && allowed.find(char(c)) == std::string_view::npos)
            return false;
    }
    return true;
}

using drasim::test_support::envNumber;

TEST(CelUrlLaws, HostsAndEscapedPathsAreWhatGoAllows)
{
    const uint64_t first = envNumber("DRASIM_CEL_SEED", 20261202);
    const uint64_t cases = envNumber("DRASIM_CEL_CASES", 2500);
    int failures = 0, accepted = 0, refused = 0;
    for (uint64_t seed = first; seed < first + cases && failures < 5; ++seed) {
        std::mt19937_64 rng(seed);
        auto pick = [&](std::initializer_list<const char*> xs) {
            return std::string(*(xs.begin() + rng() % xs.size()));
        };
        std::string s = pick({ "http://", "https://", "", "mailto:", "HTTP://" });
        if (s.ends_with("//"))
            s += pick({ "", "", "u@", "u:p@", "us er@", "u%zz@" })
                + pick({ "example.com", "exa mple.com", "[::1]", "x%41y", "h%C3%A9st", "a{b}", "a|b", "a^b" })
                + pick({ "", ":80", ":8x" });
        s += pick({ "", "/", "/a b", "/a%2Fb", "/a{b}", "/%zz", "/\xc3\xa9", "/a%20b", "/x!y", "rel" })
            + pick({ "", "?a=1&b=2", "?a;b", "?" });
        const Value parsed = runDyn("url(" + celString(s) + ").getScheme()");
        const Value is = runDyn("isURL(" + celString(s) + ")");
        auto fail = [&](const std::string& what) {
            ADD_FAILURE() << s << ": " << what << "\n  reproduce: DRASIM_CEL_SEED=" << seed
                          << " DRASIM_CEL_CASES=1";
            ++failures;
        };
        if (is.kind != Kind::Bool || is.b == parsed.isError()) {
            fail("isURL and url() disagree: "
                + (parsed.isError() ? parsed.errorMessage() : std::string("value")));
            continue;
        }
        if (parsed.isError()) {
            ++refused;
            continue;
        }
        ++accepted;
        Value host = runDyn("url(" + celString(s) + ").getHostname()");
        Value path = runDyn("url(" + celString(s) + ").getEscapedPath()");
        if (host.kind != Kind::String || !allOf(host.str(), "-_.~!$&'()*+,;=:[]<>\""))
            fail("hostname " + (host.kind == Kind::String ? std::string(host.str()) : "?")
                + " is not a host Go accepts");
        if (path.kind != Kind::String || !allOf(path.str(), "-_.~$&+,/:;=@!'()*[]%"))
            fail("escaped path " + (path.kind == Kind::String ? std::string(path.str()) : "?")
                + " is not validly encoded");
    }
    if (cases >= 1000) {
        EXPECT_GT(accepted, int(cases / 5));
        EXPECT_GT(refused, int(cases / 5));
    }
}

} // namespace
} // namespace drasim::cel
