// SPDX-License-Identifier: Apache-2.0
// Loads report progress over the bytes read and stop early when cancelled, through the serial
// path (many documents), the parallel path (a large `kind: List`) and across files.
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/yamlio/loader.h"

using namespace drasim;

namespace {

// Names of one width, so files with as many documents have as many bytes.
std::string deviceClass(int i)
{
    return "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n  name: class-"
        + std::to_string(100000 + i)
        + "\nspec:\n  selectors:\n  - cel:\n      expression: device.driver == \"gpu.example.com\"\n";
}

std::string documents(int count)
{
    std::string text;
    for (int i = 0; i < count; ++i)
        text += "---\n" + deviceClass(i);
    return text;
}

/// A `kind: List` of at least minBytes, the shape `kubectl get -o yaml` writes.
std::string list(size_t minBytes, int& count)
{
    std::string text = "apiVersion: v1\nkind: List\nitems:\n";
    for (count = 0; text.size() < minBytes; ++count) {
        std::string item = deviceClass(count);
        std::string indented = "- ";
        for (size_t i = 0; i < item.size(); ++i) {
            indented += item[i];
            if (item[i] == '\n' && i + 1 < item.size())
                indented += "  ";
        }
        text += indented;
    }
    return text;
}

/// Records every report and cancels once the fraction passes a threshold.
class Recorder : public ProgressSink
{
public:
    explicit Recorder(double cancelAt = 2.0)
        : m_cancelAt(cancelAt)
    { }
    void progress(double fraction, std::string_view stage) override
    {
        fractions.push_back(fraction);
        EXPECT_EQ(stage, "loading");
        if (fraction >= m_cancelAt)
            token.cancel();
    }
    CancelToken token;
    std::vector<double> fractions;

private:
    double m_cancelAt;
};

void expectRisingWithinUnit(const std::vector<double>& fractions)
{
    ASSERT_FALSE(fractions.empty());
    for (size_t i = 0; i < fractions.size(); ++i) {
        EXPECT_GE(fractions[i], 0.0);
        EXPECT_LE(fractions[i], 1.0);
        if (i > 0) {
            EXPECT_GE(fractions[i], fractions[i - 1]) << "at report " << i;
        }
    }
}

} // namespace

TEST(LoadControl, ProgressRisesToOneAndChangesNothing)
{
    const std::string text = documents(50);
    Recorder sink;
    yamlio::LoadOptions options;
    options.progress = &sink;
    options.cancel = &sink.token;
    const auto withSink = yamlio::loadText(text, "many.yaml", options);
    const auto plain = yamlio::loadText(text, "many.yaml");
    EXPECT_FALSE(withSink.cancelled);
    EXPECT_EQ(withSink.objects.deviceClasses.size(), 50u);
    EXPECT_EQ(withSink.objects.deviceClasses.size(), plain.objects.deviceClasses.size());
    EXPECT_EQ(withSink.diagnostics.formatAll(), plain.diagnostics.formatAll());
    expectRisingWithinUnit(sink.fractions);
    EXPECT_GE(sink.fractions.size(), 50u); // one report per document at least
    EXPECT_DOUBLE_EQ(sink.fractions.back(), 1.0);
}

TEST(LoadControl, AlreadyCancelledReadsNothing)
{
    CancelToken token;
    token.cancel();
    yamlio::LoadOptions options;
    options.cancel = &token;
    const auto r = yamlio::loadText(documents(5), "many.yaml", options);
    EXPECT_TRUE(r.cancelled);
    EXPECT_TRUE(r.objects.deviceClasses.empty());
    EXPECT_TRUE(r.diagnostics.all().empty());
}

TEST(LoadControl, CancellingMidFileStopsAtTheNextDocument)
{
    Recorder sink(0.3);
    yamlio::LoadOptions options;
    options.progress = &sink;
    options.cancel = &sink.token;
    const auto r = yamlio::loadText(documents(200), "many.yaml", options);
    EXPECT_TRUE(r.cancelled);
    EXPECT_GT(r.objects.deviceClasses.size(), 0u);
    EXPECT_LT(r.objects.deviceClasses.size(), 100u);
    EXPECT_LT(sink.fractions.back(), 0.5);
}

TEST(LoadControl, CancellingALargeListStopsItsParallelParse)
{
    int items = 0;
    const std::string text = list(size_t(1200) << 10, items);
    Recorder sink(0.2);
    yamlio::LoadOptions options;
    options.progress = &sink;
    options.cancel = &sink.token;
    const auto r = yamlio::loadText(text, "dump.yaml", options);
    EXPECT_TRUE(r.cancelled);
    EXPECT_LT(r.objects.deviceClasses.size(), size_t(items));
    expectRisingWithinUnit(sink.fractions);
    EXPECT_LT(sink.fractions.back(), 0.9);

    // Not cancelled: every item, and the progress reaches the end.
    Recorder full;
    options.progress = &full;
    options.cancel = &full.token;
    const auto all = yamlio::loadText(text, "dump.yaml", options);
    EXPECT_FALSE(all.cancelled);
    EXPECT_EQ(all.objects.deviceClasses.size(), size_t(items));
    EXPECT_DOUBLE_EQ(full.fractions.back(), 1.0);
}

TEST(LoadControl, CancellingBetweenFilesKeepsTheFilesRead)
{
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("drasim-load-control-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    for (int f = 0; f < 4; ++f) {
        std::ofstream out(dir / ("part-" + std::to_string(f) + ".yaml"));
        for (int i = 0; i < 10; ++i)
            out << "---\n" << deviceClass(f * 10 + i);
    }
    // Each file is a quarter of the bytes: cancel when the first one is done.
    Recorder sink(0.25);
    yamlio::LoadOptions options;
    options.progress = &sink;
    options.cancel = &sink.token;
    const auto r = yamlio::loadPaths({ dir.string() }, options);
    fs::remove_all(dir);
    EXPECT_TRUE(r.cancelled);
    EXPECT_EQ(r.objects.deviceClasses.size(), 10u);
    EXPECT_EQ(r.objects.deviceClasses.front().meta.name, "class-100000");
}
