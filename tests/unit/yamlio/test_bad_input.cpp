// SPDX-License-Identifier: Apache-2.0
// Malformed input never crashes or hangs the loader; each case gives the asserted message.
// Committed cases live in tests/data/invalid/; large or binary ones are generated here.
#include <filesystem>
#include <fstream>
#include <random>

#include <gtest/gtest.h>

#include "core/yamlio/loader.h"

using namespace drasim;

namespace {

const std::string kDir = std::string(DRASIM_SOURCE_DIR) + "/tests/data/invalid/";

struct CorpusCase
{
    const char* file;
    const char* expected; ///< the whole diagnostic output, file name relative to the corpus
    size_t objects = 0; ///< objects of documents before a YAML error are still loaded
};

class CorpusTest : public ::testing::TestWithParam<CorpusCase>
{
};

TEST_P(CorpusTest, GivesAClearMessage)
{
    const std::string path = kDir + GetParam().file;
    auto r = yamlio::loadPaths({ path });
    std::string out = r.diagnostics.formatAll();
    // Make the expectation independent of the checkout location.
    for (size_t at; (at = out.find(kDir)) != std::string::npos;)
        out.erase(at, kDir.size());
    EXPECT_EQ(out, GetParam().expected);
    EXPECT_EQ(r.objects.size(), GetParam().objects);
}

INSTANTIATE_TEST_SUITE_P(Invalid, CorpusTest,
    ::testing::Values(
        CorpusCase { "broken_indentation.yaml", "broken_indentation.yaml:5:2: YAML: end of map not found\n" },
        CorpusCase {
            "unterminated_flow.yaml", "unterminated_flow.yaml:4:1: YAML: end of map flow not found\n" },
        CorpusCase { "unterminated_quote.yaml",
            "unterminated_quote.yaml:4:9: YAML: found unexpected end of stream while scanning a quoted "
            "scalar\n" },
        CorpusCase { "wrong_types.yaml",
            "wrong_types.yaml:11:16: ResourceClaim default/c1: spec.devices.requests[0].exactly.count: "
            "expected an "
            "integer, got string \"two\"\n" },
        CorpusCase { "duplicate_keys.yaml",
            "duplicate_keys.yaml:5:3: mapping key \"name\" already defined at line 4\n" },
        CorpusCase { "huge_numbers.yaml",
            "huge_numbers.yaml:8:32: ResourceSlice s1: spec.pool.generation: Invalid value: "
            "99999999999999999999999999: "
            "must be an integer in int64 range\n" },
        CorpusCase { "empty.yaml", "empty.yaml: warning: contains no Kubernetes objects (empty file)\n" },
        CorpusCase { "only_comments.yaml",
            "only_comments.yaml: warning: contains no Kubernetes objects (empty file)\n" },
        CorpusCase { "scalar_document.yaml",
            "scalar_document.yaml:1:1: expected a Kubernetes object (a map with apiVersion and kind), got "
            "string\n" },
        CorpusCase { "missing_kind.yaml", "missing_kind.yaml:1:1: kind: Required value: kind not set\n" },
        CorpusCase { "classic_dra.yaml",
            "classic_dra.yaml:1:1: ResourceClass gpu: resource.k8s.io/v1alpha2 ResourceClass is classic DRA "
            "(resource.k8s.io/v1alpha1/v1alpha2, removed in Kubernetes 1.31); it was replaced by structured "
            "parameters: DeviceClass with CEL selectors instead of ResourceClass, ResourceSlices published "
            "by the "
            "driver, and ResourceClaim.spec.devices.requests instead of parametersRef "
            "(resource.k8s.io/v1)\n" },
        CorpusCase { "tab_indentation.yaml",
            "tab_indentation.yaml:4:6: YAML: illegal map value (tabs are not allowed for indentation in "
            "YAML)\n" },
        CorpusCase { "map_as_key.yaml",
            "map_as_key.yaml:4:5: Node: metadata: map keys must be strings\n"
            "map_as_key.yaml:4:3: Node: metadata.name: Required value\n" },
        CorpusCase {
            "unknown_anchor.yaml", "unknown_anchor.yaml:4:9: YAML: the referenced anchor is not defined\n" },
        // Found by fuzz_loader: yaml-cpp 0.7 loops forever on a stray ',' at document level.
        CorpusCase { "fuzz_stray_flow_entry.yaml",
            "fuzz_stray_flow_entry.yaml:7:4: YAML: did not find expected node content\n", 1 },
        CorpusCase { "recursive_alias.yaml",
            "recursive_alias.yaml:1:8: YAML: alias refers to a node that contains it\n" }));

// Generated inputs: written to a temporary directory, loaded from there.
class GeneratedInput : public ::testing::Test
{
protected:
    void SetUp() override
    {
        m_dir = std::filesystem::temp_directory_path()
            / ("drasim-bad-input-" + std::to_string(::getpid()) + "-"
                + ::testing::UnitTest::GetInstance()->current_test_info()->name());
        std::filesystem::create_directories(m_dir);
    }
    void TearDown() override { std::filesystem::remove_all(m_dir); }

    std::string write(const std::string& name, const std::string& content)
    {
        const auto path = (m_dir / name).string();
        std::ofstream(path, std::ios::binary) << content;
        return path;
    }

    std::string loadMessage(const std::string& path, const yamlio::LoadOptions& options = {})
    {
        auto r = yamlio::loadPaths({ path }, options);
        EXPECT_EQ(r.objects.size(), 0u);
        std::string out = r.diagnostics.formatAll();
        for (size_t at; (at = out.find(path)) != std::string::npos;)
            out.replace(at, path.size(), "FILE");
        return out;
    }

    std::filesystem::path m_dir;
};

TEST_F(GeneratedInput, HundredThousandNestedBrackets)
{
    EXPECT_EQ(loadMessage(write("deep.yaml", std::string(100000, '['))),
        "FILE:1:129: YAML: nesting deeper than 256 levels\n");
}

TEST_F(GeneratedInput, DeeplyNestedBlockMaps)
{
    std::string text;
    for (int i = 0; i < 5000; ++i)
        text += std::string(size_t(i) * 2, ' ') + "k:\n";
    const std::string message = loadMessage(write("deep-block.yaml", text));
    EXPECT_NE(message.find("YAML: nesting deeper than 256 levels"), std::string::npos) << message;
}

TEST_F(GeneratedInput, BillionLaughs)
{
    std::string text = "apiVersion: v1\nkind: Node\nmetadata:\n  name: n\n  labels:\n    a: &a "
                       "[\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n";
    for (char c = 'b'; c <= 'i'; ++c) {
        text += std::string("    ") + c + ": &" + c + " [";
        for (int k = 0; k < 9; ++k)
            text += std::string(k ? "," : "") + "*" + char(c - 1);
        text += "]\n";
    }
    EXPECT_EQ(loadMessage(write("bomb.yaml", text)),
        "FILE:12:12: YAML: document contains excessive aliasing (more than 1000000 nodes expanded)\n");
}

TEST_F(GeneratedInput, BinaryGarbage)
{
    std::mt19937 rng(42);
    std::string bytes(4096, '\0');
    for (auto& b : bytes)
        b = char(rng() & 0xff);
    bytes[0] = 'a'; // so the first offending byte is not at 1:1
    const std::string message = loadMessage(write("garbage.bin.yaml", bytes));
    EXPECT_NE(message.find("(binary file?)"), std::string::npos) << message;
    EXPECT_EQ(message.rfind("FILE:1:", 0), 0u) << message;
}

TEST_F(GeneratedInput, NulByte)
{
    EXPECT_EQ(loadMessage(write("nul.yaml", std::string("apiVersion: v1\nkind: No\0de\n", 27))),
        "FILE:2:9: control character 0x00 is not allowed in YAML (binary file?)\n");
}

TEST_F(GeneratedInput, HundredMegabyteFile)
{
    // Refused before it is read: memory stays bounded whatever the size.
    const std::string path = (m_dir / "huge.yaml").string();
    {
        std::ofstream out(path, std::ios::binary);
        const std::string line = "# " + std::string(1021, 'x') + "\n";
        for (int i = 0; i < 100 * 1024; ++i)
            out << line;
    }
    ASSERT_EQ(std::filesystem::file_size(path), 104857600u);
    EXPECT_EQ(loadMessage(path),
        "FILE: cannot read file: file is 104857600 bytes, more than the limit of 67108864 bytes\n");
}

TEST_F(GeneratedInput, LongScalarsAndManyKeysStillLoad)
{
    // Large but legal: a 1 MB label value is reported as invalid, not a crash.
    const std::string text = "apiVersion: v1\nkind: Node\nmetadata:\n  name: n\n  labels: {k: "
        + std::string(1 << 20, 'v') + "}\n";
    const std::string message = loadMessage(write("long.yaml", text));
    EXPECT_NE(message.find("metadata.labels[k]: Invalid value"), std::string::npos) << message.substr(0, 200);
}

} // namespace
