// SPDX-License-Identifier: Apache-2.0
// Edits keep every byte but the scalars they replace.
#include <gtest/gtest.h>

#include "core/yamlio/scalar_edit.h"

using namespace drasim;
using namespace drasim::yamlio;

namespace {

/// `text` with the scalar at each field replaced by its value (the map at "+FIELD" gets a first
/// entry `k: value`); "!" when an edit is refused.
std::string edited(const std::string& text, const std::vector<std::pair<std::string, std::string>>& changes)
{
    Diagnostics diags;
    auto docs = parseYamlDocuments(text, "t.yaml", diags);
    EXPECT_EQ(docs.size(), 1u) << diags.formatAll();
    std::vector<TextEdit> edits;
    for (const auto& [field, value] : changes) {
        const bool add = field[0] == '+';
        const YamlNode* node = findField(docs.front(), add ? field.substr(1) : field);
        if (!node)
            return "no " + field;
        auto edit = add ? addFirstEntry(text, *node, "k", value) : replaceScalar(text, *node, value);
        if (!edit)
            return "!";
        edits.push_back(*edit);
    }
    return applyEdits(text, edits);
}

TEST(ScalarEdit, ReplacesPlainAndQuotedScalarsInPlace)
{
    const std::string text
        = "# head\na:\n  b: [x.yaml, 'it''s.yaml', \"q\\\"z.yaml\"]  # keep\n  c: old # note\n";
    EXPECT_EQ(edited(text,
                  { { "a.b[0]", "n/x.yaml" }, { "a.b[1]", "n/y.yaml" }, { "a.b[2]", "n/z,1.yaml" },
                      { "a.c", "new" } }),
        "# head\na:\n  b: [n/x.yaml, n/y.yaml, \"n/z,1.yaml\"]  # keep\n  c: new # note\n");
}

TEST(ScalarEdit, KeysWithDotsAndMissingFields)
{
    const std::string text = "t:\n  a.b: {file: x}\n  a: {b: {file: y}}\n";
    EXPECT_EQ(edited(text, { { "t.a.b.file", "z" } }), "t:\n  a.b: {file: z}\n  a: {b: {file: y}}\n");
    EXPECT_EQ(edited(text, { { "t.c", "z" } }), "no t.c");
    EXPECT_EQ(edited(text, { { "t.a.b[3]", "z" } }), "no t.a.b[3]");
}

TEST(ScalarEdit, RefusesWhatIsNotOnePlainOrQuotedLine)
{
    EXPECT_EQ(edited("a: |\n  x\n", { { "a", "z" } }), "!");
    EXPECT_EQ(edited("a: !!str x\n", { { "a", "z" } }), "!");
    EXPECT_EQ(edited("a: x\n  y\n", { { "a", "z" } }), "!");
}

TEST(ScalarEdit, AddsAFirstEntryInBlockAndFlowMaps)
{
    EXPECT_EQ(edited("s:\n  c:\n    p: 1\n", { { "+s.c", "v" } }), "s:\n  c:\n    k: v\n    p: 1\n");
    EXPECT_EQ(edited("s:\n  c: {p: 1}\n", { { "+s.c", "v" } }), "s:\n  c: {k: v, p: 1}\n");
    EXPECT_EQ(edited("- p: 1\n  q: 2\n", { { "+[0]", "v" } }), "- k: v\n  p: 1\n  q: 2\n");
}

} // namespace
