// SPDX-License-Identifier: Apache-2.0
// Table-driven conformance suite: every file in tests/unit/cel/cases holds cases
//   EXPRESSION ==> true | false | error: <substring> | compile: <substring>
// (an expression may span lines; "# " starts a comment; "@device NAME" switches the fixture).
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "core/cel/cel.h"
#include "tests/unit/cel/cel_fixtures.h"

namespace drasim::cel {
namespace {

struct Case
{
    std::string file;
    int line = 0;
    std::string device;
    std::string expression;
    std::string expected;
    bool stored = false; ///< compiled like the scheduler does (no cost limit)
};

std::vector<Case> loadCases(const std::filesystem::path& path)
{
    std::vector<Case> out;
    std::ifstream in(path);
    std::string line;
    std::string pending;
    int pendingLine = 0;
    int lineNo = 0;
    std::string device = "gpu";
    bool stored = false;
    const std::string sep = " ==> ";
    while (std::getline(in, line)) {
        ++lineNo;
        if (pending.empty() && (line.rfind("# ", 0) == 0 || line.empty()))
            continue;
        if (pending.empty() && line.rfind("@device ", 0) == 0) {
            device = line.substr(8);
            continue;
        }
        // "@stored on" checks semantics the API server would refuse to validate (too complex
        // for its estimate) the way the scheduler still evaluates stored expressions.
        if (pending.empty() && line.rfind("@stored ", 0) == 0) {
            stored = line.substr(8) == "on";
            continue;
        }
        if (pending.empty())
            pendingLine = lineNo;
        size_t at = line.rfind(sep);
        if (at == std::string::npos) {
            pending += line + "\n";
            continue;
        }
        Case c;
        c.file = path.filename().string();
        c.line = pendingLine;
        c.device = device;
        c.stored = stored;
        c.expression = pending + line.substr(0, at);
        c.expected = line.substr(at + sep.size());
        out.push_back(std::move(c));
        pending.clear();
    }
    return out;
}

std::vector<std::filesystem::path> caseFiles()
{
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::directory_iterator(DRASIM_SOURCE_DIR "/tests/unit/cel/cases")) {
        if (e.path().extension() == ".cases")
            files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    return files;
}

/// Runs one case; returns an empty string on success, otherwise what went wrong.
std::string runCase(const Case& c)
{
    testing::DeviceFixture fixture = c.device == "plain" ? testing::plainDevice()
        : c.device == "dranet"                           ? testing::dranetDevice()
                                                         : testing::gpuDevice();
    CompileError error;
    auto selector
        = c.stored ? Selector::compileStored(c.expression, &error) : Selector::compile(c.expression, &error);
    std::string actual;
    if (!selector) {
        actual = "compile: " + error.message;
    } else {
        EvalResult r = selector->evaluate(fixture.view());
        actual = r.outcome == Outcome::True ? "true"
            : r.outcome == Outcome::False   ? "false"
                                            : "error: " + r.error;
    }
    const std::string& want = c.expected;
    bool ok;
    if (want == "true" || want == "false") {
        ok = actual == want;
    } else {
        size_t colon = want.find(": ");
        std::string kind = want.substr(0, colon);
        std::string needle = want.substr(colon + 2);
        ok = actual.rfind(kind + ": ", 0) == 0 && actual.find(needle) != std::string::npos;
    }
    if (ok)
        return {};
    return c.file + ":" + std::to_string(c.line) + ": `" + c.expression + "`\n    expected: " + want
        + "\n    actual:   " + actual;
}

TEST(CelConformance, AllCaseFilesPass)
{
    size_t total = 0;
    for (const auto& file : caseFiles()) {
        for (const auto& c : loadCases(file)) {
            ++total;
            std::string failure = runCase(c);
            EXPECT_TRUE(failure.empty()) << failure;
        }
    }
    // The suite is the specification of our CEL; it must not silently shrink.
    EXPECT_GE(total, 300u);
}

TEST(CelConformance, CaseFormatDetectsWrongExpectations)
{
    Case c { "inline", 1, "gpu", "1 + 1 == 2", "false" };
    EXPECT_FALSE(runCase(c).empty());
    c.expected = "true";
    EXPECT_TRUE(runCase(c).empty());
    c.expected = "compile: anything";
    EXPECT_FALSE(runCase(c).empty());
}

} // namespace
} // namespace drasim::cel
