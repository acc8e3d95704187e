// SPDX-License-Identifier: Apache-2.0
// The reader of drasim's own documents: each getter's accepted values and the exact message of
// each mistake, positioned at the offending node.
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "core/yamlio/doc_reader.h"
#include "core/yamlio/yaml_tree.h"

using namespace drasim;
using namespace drasim::yamlio;

namespace {

/// Reads `text` as one document and hands its root to `read`; returns every diagnostic.
template <class F> std::string readDoc(const std::string& text, F&& read)
{
    Diagnostics diags;
    auto docs = parseYamlDocuments(text, "d.yaml", diags);
    EXPECT_EQ(docs.size(), 1u);
    if (docs.size() != 1)
        return diags.formatAll();
    DocReader r(diags, "Thing", "t");
    read(r, docs[0]);
    EXPECT_EQ(r.errors(), diags.errorCount());
    return diags.formatAll();
}

} // namespace

TEST(DocReader, FieldLoopFlagsUnknownKeysInDocumentOrder)
{
    std::vector<std::string> seen;
    const std::string out
        = readDoc("a: 1\nbogus: 2\nb: {c: 3, d: 4}\n", [&](DocReader& r, const YamlNode& root) {
              EXPECT_TRUE(
                  r.fields(root, "", [&](const std::string& key, const YamlNode& v, const std::string& path) {
                      seen.push_back(path);
                      if (key == "b")
                          return r.fields(
                              v, path, [&](const std::string& k, const YamlNode&, const std::string& p) {
                                  seen.push_back(p);
                                  return k == "c";
                              });
                      return key == "a";
                  }));
          });
    EXPECT_EQ(seen, (std::vector<std::string> { "a", "bogus", "b", "b.c", "b.d" }));
    EXPECT_EQ(out,
        "d.yaml:2:1: Thing t: bogus: unknown field \"bogus\"\n"
        "d.yaml:3:11: Thing t: b.d: unknown field \"d\"\n");
}

TEST(DocReader, ShapeErrors)
{
    EXPECT_EQ(readDoc("a: [1]\nb: x\n",
                  [](DocReader& r, const YamlNode& root) {
                      EXPECT_FALSE(r.fields(*root.get("a"), "a", [](auto&&...) { return true; }));
                      EXPECT_FALSE(r.items(*root.get("b"), "b", [](auto&&...) {}));
                  }),
        "d.yaml:1:4: Thing t: a: expected a map, got list\n"
        "d.yaml:2:4: Thing t: b: expected a list, got string \"x\"\n");
}

TEST(DocReader, TypedGettersAcceptTheirTypes)
{
    readDoc("s: text\nq: \"12\"\nb: true\ni: -3\nn: 2.5\nd: 1h30m\nn90: 90\nf: forever\n",
        [](DocReader& r, const YamlNode& root) {
            EXPECT_EQ(r.string(*root.get("s"), "s"), "text");
            EXPECT_EQ(r.string(*root.get("q"), "q"), "12");
            EXPECT_EQ(r.boolean(*root.get("b"), "b"), true);
            EXPECT_EQ(r.integer(*root.get("i"), "i"), -3);
            EXPECT_EQ(r.number(*root.get("n"), "n"), 2.5);
            EXPECT_EQ(r.number(*root.get("i"), "i"), -3.0);
            EXPECT_EQ(r.duration(*root.get("d"), "d"), 5400);
            EXPECT_EQ(r.milliseconds(*root.get("d"), "d"), 5'400'000);
            EXPECT_EQ(r.duration(*root.get("n90"), "n90"), 90);
            EXPECT_TRUE(std::isinf(*r.duration(*root.get("f"), "f")));
            EXPECT_TRUE(r.ok());
        });
}

TEST(DocReader, TypedGettersWordEveryMistakeOneWay)
{
    const std::string out = readDoc(
        "s: [x]\nb: yes please\ni: two\nlow: 0\nhigh: 11\nn: \"1.5\"\nneg: -1.5\nd: 5 min\nf: forever\n",
        [](DocReader& r, const YamlNode& root) {
            EXPECT_FALSE(r.string(*root.get("s"), "s"));
            EXPECT_FALSE(r.boolean(*root.get("b"), "b"));
            EXPECT_FALSE(r.integer(*root.get("i"), "i"));
            EXPECT_FALSE(r.integer(*root.get("low"), "low", 1));
            EXPECT_FALSE(r.integer(*root.get("high"), "high", 1, 10));
            EXPECT_FALSE(r.number(*root.get("n"), "n"));
            EXPECT_FALSE(r.number(*root.get("neg"), "neg", 0));
            EXPECT_FALSE(r.duration(*root.get("d"), "d"));
            EXPECT_FALSE(r.duration(*root.get("f"), "f", Forever::Rejected));
            EXPECT_FALSE(r.duration(*root.get("s"), "s"));
            EXPECT_FALSE(r.milliseconds(*root.get("f"), "f"));
        });
    EXPECT_EQ(out,
        "d.yaml:1:4: Thing t: s: expected a string, got list\n"
        "d.yaml:2:4: Thing t: b: expected a boolean, got string \"yes please\"\n"
        "d.yaml:3:4: Thing t: i: expected an integer, got string \"two\"\n"
        "d.yaml:4:6: Thing t: low: Invalid value: 0: must be greater than or equal to 1\n"
        "d.yaml:5:7: Thing t: high: Invalid value: 11: must be between 1 and 10\n"
        "d.yaml:6:4: Thing t: n: expected a number, got string \"1.5\"\n"
        "d.yaml:7:6: Thing t: neg: Invalid value: -1.5: must be greater than or equal to 0\n"
        "d.yaml:8:4: Thing t: d: invalid duration \"5 min\": unknown unit \" min\"; expected seconds or a "
        "duration like 250ms, 90s, 15m, 2h, 1d, 1h30m, or forever\n"
        "d.yaml:9:4: Thing t: f: invalid duration \"forever\": must be finite here\n"
        "d.yaml:1:4: Thing t: s: expected a duration such as 90s, 15m or 2h, got list\n"
        "d.yaml:9:4: Thing t: f: invalid duration \"forever\": must be finite here\n");
}

TEST(DocReader, PathLists)
{
    std::vector<std::string> one, many, none;
    const std::string out = readDoc("one: a.yaml\nmany: [a.yaml, b/c.yaml, {x: 1}]\nnone: {x: 1}\n",
        [&](DocReader& r, const YamlNode& root) {
            one = r.paths(*root.get("one"), "one");
            many = r.paths(*root.get("many"), "many");
            none = r.paths(*root.get("none"), "none");
        });
    EXPECT_EQ(one, (std::vector<std::string> { "a.yaml" }));
    EXPECT_EQ(many, (std::vector<std::string> { "a.yaml", "b/c.yaml" }));
    EXPECT_TRUE(none.empty());
    EXPECT_EQ(out,
        "d.yaml:2:26: Thing t: many[2]: expected a string, got map\n"
        "d.yaml:3:7: Thing t: none: expected a path or a list of paths, got map\n");
}

TEST(DocReader, ApiServerWordsForValues)
{
    EXPECT_EQ(readDoc("a: 1\n",
                  [](DocReader& r, const YamlNode& root) {
                      r.required(root, "spec");
                      r.invalid(*root.get("a"), "a", "1", "must be a label");
                      r.unsupported(*root.get("a"), "a", "1", { "x", "y" });
                      r.duplicate(*root.get("a"), "a", "1");
                      r.warning(*root.get("a"), "a", "looks odd");
                  }),
        "d.yaml:1:1: Thing t: spec: Required value\n"
        "d.yaml:1:4: Thing t: a: Invalid value: \"1\": must be a label\n"
        "d.yaml:1:4: Thing t: a: Unsupported value: \"1\": supported values: \"x\", \"y\"\n"
        "d.yaml:1:4: Thing t: a: Duplicate value: \"1\"\n"
        "d.yaml:1:4: warning: Thing t: a: looks odd\n");
}
