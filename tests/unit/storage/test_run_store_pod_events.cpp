// SPDX-License-Identifier: Apache-2.0
// Pod events with their devices and placement in the run store, so a run can be replayed.
#include <filesystem>

#include <gtest/gtest.h>

#include "core/scenario/prepare.h"
#include "core/scenario/scenario.h"
#include "core/sim/run_prepared.h"
#include "core/storage/database.h"
#include "core/storage/run_store.h"
#include "core/storage/run_store_recorder.h"
#include "tests/unit/temp_dir.h"

using namespace drasim;
using namespace drasim::storage;
namespace fs = std::filesystem;

namespace {

using drasim::test_support::TempDir;

sim::PodEvent event(
    sim::SimTime t, sim::PodEventType type, const std::string& pod, const std::string& node = {})
{
    sim::PodEvent e;
    e.time = t;
    e.type = type;
    e.pod = pod;
    e.job = pod + "-job";
    e.workload = "train";
    e.node = node;
    return e;
}

/// Every field, so a mismatch names what differs.
std::string describe(const sim::PodEvent& e)
{
    std::string s = std::to_string(e.time) + " " + sim::podEventTypeName(e.type) + " " + e.pod + " job="
        + e.job + " workload=" + e.workload + " node=" + e.node + " message=" + e.message + " devices=";
    for (const auto& d : e.devices)
        s += "[" + d.claim + " " + d.driver + " " + d.pool + " " + d.device + " " + d.deviceClass + "]";
    s += " placements=";
    for (const auto& p : e.placements)
        s += p + ";";
    return s;
}

int64_t rowCount(const std::string& path, const std::string& table)
{
    Database db(path);
    auto st = db.prepare("SELECT COUNT(*) FROM " + table);
    st.step();
    return st.columnInt(0);
}

} // namespace

TEST(RunStorePodEvents, RoundTripWithDevicesAndPlacementInOrder)
{
    TempDir dir;
    RunStore store(dir.file("runs.db"));
    int64_t run = store.beginRun("s", 1, "");
    auto created = event(0, sim::PodEventType::Created, "default/a-0");
    auto bound = event(1500, sim::PodEventType::Scheduled, "default/a-0", "n-1");
    bound.devices = { { "default/a-0-gpu", "gpu.nvidia.com", "n-1", "gpu-0", "gpu.nvidia.com" },
        { "default/a-0-gpu", "gpu.nvidia.com", "n-1", "gpu-1", "gpu.nvidia.com" },
        { "default/a-0-nic", "rdma.example.com", "n-1", "nic-0", "" } };
    bound.placements = { "NV", "PIX" };
    auto pending = event(2000, sim::PodEventType::Unschedulable, "default/b-0");
    pending.message = "0/2 nodes are available: 2 cannot allocate all claims.";
    auto done = event(9000, sim::PodEventType::Succeeded, "default/a-0", "n-1");
    store.appendPodEvents(run, { created, bound });
    store.appendPodEvents(run, { pending, done }); // a second batch continues the order

    auto all = store.podEvents(run);
    std::vector<sim::PodEvent> expected { created, bound, pending, done };
    ASSERT_EQ(all.size(), expected.size());
    for (size_t i = 0; i < all.size(); ++i)
        EXPECT_EQ(describe(all[i]), describe(expected[i])) << i;

    auto onlyA = store.podEvents(run, "default/a-0");
    ASSERT_EQ(onlyA.size(), 3u);
    EXPECT_EQ(describe(onlyA[1]), describe(bound));
    EXPECT_TRUE(store.podEvents(run, "default/none").empty());
    EXPECT_TRUE(store.podEvents(run + 1).empty());
}

TEST(RunStorePodEvents, DeletingARunDeletesItsEventsAndDevices)
{
    TempDir dir;
    std::string path = dir.file("runs.db");
    int64_t keep = 0;
    {
        RunStore store(path);
        int64_t gone = store.beginRun("s", 1, "");
        keep = store.beginRun("s", 2, "");
        auto bound = event(0, sim::PodEventType::Scheduled, "default/a-0", "n");
        bound.devices = { { "c", "d", "p", "x", "" } };
        store.appendPodEvents(gone, { bound, bound });
        store.appendPodEvents(keep, { bound });
        EXPECT_TRUE(store.deleteRun(gone));
    }
    EXPECT_EQ(rowCount(path, "run_pod_events"), 1);
    EXPECT_EQ(rowCount(path, "run_pod_devices"), 1);
    RunStore store(path);
    ASSERT_EQ(store.podEvents(keep).size(), 1u);
    EXPECT_EQ(store.podEvents(keep)[0].devices.size(), 1u);
}

TEST(RunStorePodEvents, TheRecorderStoresEveryEventOfASimulation)
{
    struct Capture : sim::RunRecorder
    {
        std::vector<sim::PodEvent> events;
        void onPodEvent(const sim::PodEvent& e) override { events.push_back(e); }
    } capture;
    TempDir dir;
    RunStore store(dir.file("runs.db"));
    Diagnostics diags;
    auto sc = scenario::loadScenario(DRASIM_SOURCE_DIR "/scenarios/sim/default/scenario.yaml", diags);
    ASSERT_TRUE(sc) << diags.formatAll();
    sc->duration = 3 * sim::kHour;
    auto prepared = scenario::prepareScenario(*sc, {}, diags);
    ASSERT_TRUE(prepared) << diags.formatAll();
    RunStoreRecorder recorder(store, "replay", 7); // small batches: many transactions
    sim::RunOptions options;
    options.recorders = { &recorder, &capture };
    ASSERT_TRUE(sim::runPrepared(*prepared, options, diags)) << diags.formatAll();

    auto stored = store.podEvents(recorder.runId());
    ASSERT_EQ(stored.size(), capture.events.size());
    ASSERT_GT(stored.size(), 20u);
    size_t withDevices = 0;
    for (size_t i = 0; i < stored.size(); ++i) {
        EXPECT_EQ(describe(stored[i]), describe(capture.events[i])) << i;
        withDevices += !stored[i].devices.empty();
    }
    EXPECT_GT(withDevices, 0u); // GPU pods were bound: their devices are there to replay
}
