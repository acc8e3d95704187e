// SPDX-License-Identifier: Apache-2.0
// The law that guards the cost estimator: every CEL selector written in the conformance cases
// and the learn scenarios compiles as a new expression (the API server's validation), unless its
// case states that the input is rejected with that very message (`# expect: error TEXT`; a
// selector that is not valid CEL may instead be stated by the field its case expects rejected).
// A change of the estimator that starts rejecting a selector these folders accept fails here,
// whichever case holds it.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "core/cel/cel.h"
#include "core/yamlio/yaml_tree.h"

namespace drasim::cel {
namespace {

namespace fs = std::filesystem;

struct Found
{
    std::string expression;
    int line = 0;
};

/// Every `cel: {expression: ...}` of a YAML tree (device classes, claims, templates, taint rules,
/// wherever they are nested).
void collect(const yamlio::YamlNode& n, std::vector<Found>& out)
{
    for (const auto& item : n.items)
        collect(item, out);
    for (const auto& [key, value] : n.entries) {
        if (key.scalar == "cel" && value.isMap())
            if (const auto* e = value.get("expression"); e && e->asString())
                out.push_back({ *e->asString(), e->pos.line });
        collect(value, out);
    }
}

/// The texts of the file's `# expect: error TEXT` lines.
std::vector<std::string> expectedErrors(const std::string& text)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    const std::string prefix = "# expect: error ";
    for (std::string line; std::getline(in, line);)
        if (line.rfind(prefix, 0) == 0)
            out.push_back(line.substr(prefix.size()));
    return out;
}

/// Input manifests of the two folders (goldens are outputs, not inputs).
std::vector<fs::path> inputFiles()
{
    std::vector<fs::path> files;
    for (const char* dir : { "scenarios/conformance", "scenarios/learn" })
        for (const auto& e : fs::recursive_directory_iterator(fs::path(DRASIM_SOURCE_DIR) / dir))
            if (e.path().extension() == ".yaml" && e.path().filename().string().rfind("expected", 0) != 0)
                files.push_back(e.path());
    std::sort(files.begin(), files.end());
    return files;
}

TEST(CelSelectorLaw, EverySelectorOfTheCasesCompilesUnlessItsCaseSaysOtherwise)
{
    size_t selectors = 0;
    for (const auto& path : inputFiles()) {
        std::ifstream in(path);
        std::stringstream buffer;
        buffer << in.rdbuf();
        const std::string text = buffer.str();
        Diagnostics diags;
        const auto docs = yamlio::parseYamlDocuments(text, path.string(), diags);
        std::vector<Found> found;
        for (const auto& d : docs)
            collect(d, found);
        const auto expected = expectedErrors(text);
        for (const auto& s : found) {
            ++selectors;
            CompileError error;
            if (Selector::compile(s.expression, &error))
                continue;
            // The case names the message, or (for a selector that is not valid CEL at all, where
            // no estimate is involved) expects its selector field to be rejected.
            const bool cost = error.message == "too complex, exceeds cost limit";
            const bool stated = std::any_of(expected.begin(), expected.end(), [&](const std::string& t) {
                return error.message.find(t) != std::string::npos
                    || (!cost && t.find(".cel.expression") != std::string::npos);
            });
            EXPECT_TRUE(stated) << path.string() << ":" << s.line << ": " << s.expression << ": "
                                << error.message;
        }
    }
    // The walk found the selectors (the folders hold hundreds).
    EXPECT_GT(selectors, 200u);
}

} // namespace
} // namespace drasim::cel
