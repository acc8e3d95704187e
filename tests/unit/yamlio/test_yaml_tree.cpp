// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include "core/yamlio/yaml_tree.h"

using namespace drasim;
using drasim::yamlio::YamlNode;

namespace {

std::vector<YamlNode> parse(const std::string& text, Diagnostics& d)
{
    return yamlio::parseYamlDocuments(text, "t.yaml", d);
}

TEST(YamlTree, PositionsKindsAndTypes)
{
    Diagnostics d;
    auto docs = parse("a: 1\nb: \"x\"\nc: [yes, 0x10, 1e3, ~, '', 9.0.0]\nd: |\n  block\n", d);
    ASSERT_FALSE(d.hasErrors()) << d.formatAll();
    ASSERT_EQ(docs.size(), 1u);
    const YamlNode& root = docs[0];
    ASSERT_TRUE(root.isMap());
    EXPECT_EQ(root.get("a")->asInt(), 1);
    EXPECT_EQ(root.get("a")->pos.line, 1);
    EXPECT_EQ(root.get("a")->pos.column, 4);
    EXPECT_EQ(root.get("a")->pos.file, "t.yaml");
    EXPECT_TRUE(root.get("b")->quoted);
    EXPECT_EQ(root.get("b")->asString(), "x");
    const YamlNode& c = *root.get("c");
    ASSERT_TRUE(c.isSequence());
    ASSERT_EQ(c.items.size(), 6u);
    EXPECT_EQ(c.items[0].asBool(), true); // YAML 1.1, as Kubernetes' decoder reads it
    EXPECT_EQ(c.items[1].asInt(), 16);
    EXPECT_DOUBLE_EQ(*c.items[2].asDouble(), 1000.0);
    EXPECT_TRUE(c.items[3].isNull());
    EXPECT_STREQ(c.items[4].typeName(), "string");
    EXPECT_STREQ(c.items[5].typeName(), "string");
    EXPECT_EQ(root.get("d")->scalar, "block\n");
    EXPECT_EQ(root.get("missing"), nullptr);
}

TEST(YamlTree, MultipleDocumentsSkipEmptyOnes)
{
    Diagnostics d;
    auto docs = parse("a: 1\n---\n---\n# only a comment\n---\nb: 2\n", d);
    EXPECT_FALSE(d.hasErrors());
    ASSERT_EQ(docs.size(), 2u);
    EXPECT_EQ(docs[1].get("b")->pos.line, 6);
}

TEST(YamlTree, AliasesAreExpandedWithinBudget)
{
    Diagnostics d;
    auto docs = parse("base: &b {x: 1}\ncopy: *b\n", d);
    ASSERT_EQ(docs.size(), 1u);
    EXPECT_EQ(docs[0].get("copy")->get("x")->asInt(), 1);

    Diagnostics bomb;
    std::string text = "a: &a [x, x, x, x, x, x, x, x, x, x]\n";
    for (char c = 'b'; c <= 'j'; ++c)
        text += std::string(1, c) + ": &" + c + " [*" + char(c - 1) + ", *" + char(c - 1) + ", *"
            + char(c - 1) + ", *" + char(c - 1) + ", *" + char(c - 1) + ", *" + char(c - 1) + ", *"
            + char(c - 1) + ", *" + char(c - 1) + ", *" + char(c - 1) + ", *" + char(c - 1) + "]\n";
    EXPECT_TRUE(parse(text, bomb).empty());
    ASSERT_EQ(bomb.all().size(), 1u);
    EXPECT_NE(bomb.all()[0].format().find("YAML: document contains excessive aliasing"), std::string::npos)
        << bomb.formatAll();
}

TEST(YamlTree, ErrorsArePositioned)
{
    Diagnostics d;
    parse("a: 1\na: 2\n", d);
    EXPECT_EQ(d.formatAll(), "t.yaml:2:1: mapping key \"a\" already defined at line 1\n");

    Diagnostics deep;
    parse(std::string(1000, '['), deep);
    ASSERT_TRUE(deep.hasErrors());
    EXPECT_NE(deep.formatAll().find("YAML: nesting deeper than 256 levels"), std::string::npos);

    Diagnostics limited;
    yamlio::YamlLimits limits;
    limits.maxDepth = 2;
    yamlio::parseYamlDocuments("a: {b: {c: 1}}\n", "t.yaml", limited, limits);
    EXPECT_EQ(limited.formatAll(), "t.yaml:1:8: YAML: nesting deeper than 2 levels\n");
}

TEST(YamlTree, ReadFileReportsMissingFiles)
{
    std::string text, error;
    EXPECT_FALSE(yamlio::readFile("/nonexistent/x.yaml", text, &error));
    EXPECT_EQ(error, "No such file or directory");
    EXPECT_TRUE(
        yamlio::readFile(std::string(DRASIM_SOURCE_DIR) + "/tests/data/invalid/README.md", text, &error));
    EXPECT_NE(text.find("Malformed-input corpus"), std::string::npos);
    EXPECT_FALSE(
        yamlio::readFile(std::string(DRASIM_SOURCE_DIR) + "/tests/data/invalid/README.md", text, &error, 10));
    EXPECT_NE(error.find("more than the limit of 10 bytes"), std::string::npos);
}

} // namespace
