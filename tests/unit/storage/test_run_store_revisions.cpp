// SPDX-License-Identifier: Apache-2.0
// Scenario content hashes and revisions with each run, and the migration of schema-1 stores.
#include <filesystem>

#include <gtest/gtest.h>

#include "core/scenario/prepare.h"
#include "core/scenario/scenario.h"
#include "core/sim/run_prepared.h"
#include "core/storage/database.h"
#include "core/storage/run_store.h"
#include "core/storage/run_store_recorder.h"
#include "core/storage/schema.h"
#include "tests/unit/temp_dir.h"

using namespace drasim;
using namespace drasim::storage;
namespace fs = std::filesystem;

namespace {

using drasim::test_support::TempDir;

// What a store written before runs had scenario hashes (schema 1) holds; its tables come from
// migrateSchema(db, 1), the shipped first migration, so migration is tested against real old files.
const char* const kSchema1Rows = R"sql(
    INSERT INTO scenarios VALUES ('baseline', 'kind: Scenario', '2026-01-01T00:00:00Z');
    INSERT INTO runs(scenario, seed, label, status, summary_json, created_at)
        VALUES ('baseline', 42, 'old', 'finished', '{"pods": 3}', '2026-01-01T00:00:00Z');
    INSERT INTO run_series VALUES (1, 'pending_pods', 0, 3), (1, 'pending_pods', 60, 0);
)sql";

} // namespace

TEST(RunStoreRevisions, EachNewContentOfAScenarioGetsTheNextRevision)
{
    TempDir dir;
    RunStore store(dir.file("runs.db"));
    int64_t a1 = store.beginRun("a", 1, "", "hash-1");
    int64_t a1again = store.beginRun("a", 2, "", "hash-1");
    int64_t a2 = store.beginRun("a", 1, "", "hash-2");
    int64_t back = store.beginRun("a", 1, "", "hash-1");
    int64_t b = store.beginRun("b", 1, "", "hash-2");
    int64_t unknown = store.beginRun("a", 1, "");
    EXPECT_EQ(store.run(a1)->scenarioRevision, 1);
    EXPECT_EQ(store.run(a1again)->scenarioRevision, 1);
    EXPECT_EQ(store.run(a2)->scenarioRevision, 2);
    EXPECT_EQ(store.run(back)->scenarioRevision, 1); // the same content keeps its number
    EXPECT_EQ(store.run(b)->scenarioRevision, 1); // revisions count per scenario name
    EXPECT_EQ(store.run(a2)->scenarioHash, "hash-2");
    EXPECT_EQ(store.run(unknown)->scenarioRevision, 0);
    EXPECT_EQ(store.run(unknown)->scenarioHash, "");
    EXPECT_EQ(store.scenarioRevisions("a"), (std::vector<std::string> { "hash-1", "hash-2" }));
    EXPECT_EQ(store.scenarioRevisions("b"), (std::vector<std::string> { "hash-2" }));
    EXPECT_TRUE(store.scenarioRevisions("c").empty());
}

TEST(RunStoreRevisions, ASchemaOneStoreIsMigratedWithItsRunsIntact)
{
    TempDir dir;
    {
        Database db(dir.file("runs.db"));
        migrateSchema(db, 1);
        ASSERT_EQ(db.userVersion(), 1);
        db.exec(kSchema1Rows);
    }
    {
        RunStore store(dir.file("runs.db"));
        auto runs = store.runs();
        ASSERT_EQ(runs.size(), 1u);
        EXPECT_EQ(runs[0].scenario, "baseline");
        EXPECT_EQ(runs[0].seed, 42u);
        EXPECT_EQ(runs[0].label, "old");
        EXPECT_EQ(runs[0].status, "finished");
        EXPECT_EQ(runs[0].summaryJson, R"({"pods": 3})");
        EXPECT_EQ(runs[0].scenarioHash, "");
        EXPECT_EQ(runs[0].scenarioRevision, 0);
        EXPECT_EQ(store.series(runs[0].id).size(), 2u);
        EXPECT_EQ(store.scenario("baseline").value(), "kind: Scenario");
        int64_t id = store.beginRun("baseline", 1, "new", "h");
        EXPECT_EQ(store.run(id)->scenarioRevision, 1);
        // Later schemas arrive too: old runs have no pod events, new ones can.
        EXPECT_TRUE(store.podEvents(runs[0].id).empty());
        sim::PodEvent e;
        e.pod = "default/p";
        store.appendPodEvents(id, { e });
        EXPECT_EQ(store.podEvents(id).size(), 1u);
    }
    Database db(dir.file("runs.db"));
    EXPECT_EQ(db.userVersion(), RunStore::kSchemaVersion);
    RunStore reopened(dir.file("runs.db")); // opening a migrated store again changes nothing
    EXPECT_EQ(reopened.runs().size(), 2u);
}

TEST(RunStoreRevisions, RecordedRunsCarryTheScenarioContentHash)
{
    TempDir dir;
    RunStore store(dir.file("runs.db"));
    Diagnostics diags;
    auto sc = scenario::loadScenario(DRASIM_SOURCE_DIR "/scenarios/sim/default/scenario.yaml", diags);
    ASSERT_TRUE(sc) << diags.formatAll();
    sc->duration = 2 * sim::kHour; // keep the test short
    auto runOnce = [&](const scenario::Scenario& s) {
        auto prepared = scenario::prepareScenario(s, {}, diags);
        EXPECT_TRUE(prepared) << diags.formatAll();
        RunStoreRecorder recorder(store);
        sim::RunOptions options;
        options.recorders.push_back(&recorder);
        EXPECT_TRUE(sim::runPrepared(*prepared, options, diags)) << diags.formatAll();
        EXPECT_EQ(store.run(recorder.runId())->scenarioHash, prepared->contentHash);
        return *store.run(recorder.runId());
    };
    RunInfo first = runOnce(*sc);
    EXPECT_EQ(first.scenarioHash.size(), 64u);
    EXPECT_EQ(first.scenarioRevision, 1);
    EXPECT_EQ(runOnce(*sc).scenarioRevision, 1);
    sc->nodePools[1].count = 5;
    RunInfo changed = runOnce(*sc);
    EXPECT_EQ(changed.scenarioRevision, 2);
    EXPECT_NE(changed.scenarioHash, first.scenarioHash);
}

TEST(RunStoreRevisions, SeriesComeBackInRecordingOrderAcrossBatchesAndTheSchemaSixMigration)
{
    TempDir dir;
    {
        // A schema-5 store: its points were inserted in recording order, which rowid keeps.
        Database db(dir.file("runs.db"));
        migrateSchema(db, 5);
        db.exec(R"sql(
            INSERT INTO runs(scenario, seed, label, status, summary_json, created_at)
                VALUES ('old', 1, '', 'finished', '', '2026-01-01T00:00:00Z');
            INSERT INTO run_series(run_id, metric, time, value)
                VALUES (1, 'pods.pending', 0, 3), (1, 'b/key', 0, 1), (1, 'pods.pending', 60, 2), (1, 'a', 60, 4);
        )sql");
    }
    RunStore store(dir.file("runs.db"));
    std::vector<std::string> order;
    for (const auto& p : store.recordedSeries(1))
        order.push_back(std::to_string(int(p.time)) + " " + p.metric);
    EXPECT_EQ(order, (std::vector<std::string> { "0 pods.pending", "0 b/key", "60 pods.pending", "60 a" }));

    const int64_t id = store.beginRun("new", 1, "");
    store.appendSamples(id, { { 0, "z", 1 }, { 0, "a", 2 } });
    store.appendSamples(id, { { 10, "m", 3 } });
    order.clear();
    for (const auto& p : store.recordedSeries(id))
        order.push_back(std::to_string(int(p.time)) + " " + p.metric);
    EXPECT_EQ(order, (std::vector<std::string> { "0 z", "0 a", "10 m" }));
}
