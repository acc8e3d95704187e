// SPDX-License-Identifier: Apache-2.0
#include <filesystem>
#include <fstream>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "core/storage/database.h"
#include "core/storage/run_store.h"
#include "tests/unit/temp_dir.h"

using namespace drasim::storage;
namespace fs = std::filesystem;

namespace {

using drasim::test_support::TempDir;

} // namespace

TEST(RunStore, ScenariosRoundTripAndUpdateInPlace)
{
    TempDir dir;
    RunStore store(dir.file("runs.db"));
    store.saveScenario("h100-plus-12", "kind: Scenario\n");
    store.saveScenario("baseline", "kind: Scenario # v1\n");
    store.saveScenario("baseline", "kind: Scenario # v2\n");
    EXPECT_EQ(store.scenarioNames(), (std::vector<std::string> { "baseline", "h100-plus-12" }));
    EXPECT_EQ(store.scenario("baseline").value(), "kind: Scenario # v2\n");
    EXPECT_FALSE(store.scenario("missing").has_value());
    EXPECT_TRUE(store.deleteScenario("baseline"));
    EXPECT_FALSE(store.deleteScenario("baseline"));
}

TEST(RunStore, RecordsRunsWithSeriesAndSummary)
{
    TempDir dir;
    RunStore store(dir.file("runs.db"));
    int64_t a = store.beginRun("baseline", 42, "first");
    store.appendSamples(
        a, { { 0, "pending_pods", 3 }, { 60, "pending_pods", 1 }, { 0, "utilization", 0.5 } });
    store.appendSamples(a, { { 120, "pending_pods", 0 } });
    store.finishRun(a, "finished", R"({"p95_wait_s": 12.5})");
    int64_t b = store.beginRun("baseline", 7, "second");

    auto runs = store.runs();
    ASSERT_EQ(runs.size(), 2u);
    EXPECT_EQ(runs[0].id, b); // newest first
    EXPECT_EQ(runs[0].status, "running");
    EXPECT_EQ(runs[1].seed, 42u);
    EXPECT_EQ(runs[1].summaryJson, R"({"p95_wait_s": 12.5})");

    auto pending = store.series(a, "pending_pods");
    ASSERT_EQ(pending.size(), 3u);
    EXPECT_EQ(pending[2].time, 120);
    EXPECT_EQ(pending[2].value, 0);
    EXPECT_EQ(store.metrics(a), (std::vector<std::string> { "pending_pods", "utilization" }));

    EXPECT_TRUE(store.deleteRun(a));
    EXPECT_TRUE(store.series(a).empty()); // samples go with their run
    EXPECT_FALSE(store.run(a).has_value());
}

TEST(RunStore, RunCutShortByACrashIsReportedInterrupted)
{
    TempDir dir;
    int64_t id = 0;
    {
        RunStore store(dir.file("runs.db"));
        id = store.beginRun("baseline", 1, "");
        store.appendSamples(id, { { 0, "pending_pods", 5 } });
        // The process "dies" here: finishRun is never called.
    }
    RunStore reopened(dir.file("runs.db"));
    auto run = reopened.run(id);
    ASSERT_TRUE(run.has_value());
    EXPECT_EQ(run->status, "interrupted");
    EXPECT_EQ(reopened.series(id).size(), 1u);
}

TEST(RunStore, ARunAnotherWriterIsStillRecordingStaysRunning)
{
    TempDir dir;
    RunStore writer(dir.file("runs.db"));
    const int64_t id = writer.beginRun("baseline", 1, "");
    {
        RunStore reader(dir.file("runs.db")); // e.g. `drasim runs list` while the GUI simulates
        EXPECT_EQ(reader.run(id)->status, "running");
    }
    writer.finishRun(id, "finished", "{}");
    RunStore reader(dir.file("runs.db"));
    EXPECT_EQ(reader.run(id)->status, "finished");
}

TEST(RunStore, ARunWhoseWriterOnThisHostIsGoneIsInterrupted)
{
    TempDir dir;
    int64_t id = 0;
    {
        RunStore store(dir.file("runs.db"));
        id = store.beginRun("baseline", 1, "");
    }
    // Make the run look begun by a process of this host that no longer exists, and unfinished.
    const pid_t child = fork();
    if (child == 0)
        _exit(0);
    waitpid(child, nullptr, 0);
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    {
        Database db(dir.file("runs.db"));
        db.prepare("UPDATE runs SET status = 'running', writer = ?1 WHERE id = ?2")
            .bind(1, std::string(host) + ":" + std::to_string(child))
            .bind(2, id)
            .run();
    }
    RunStore reopened(dir.file("runs.db"));
    EXPECT_EQ(reopened.run(id)->status, "interrupted");
    {
        Database db(dir.file("runs.db"));
        db.prepare("UPDATE runs SET status = 'running', writer = 'another-host:1' WHERE id = ?1")
            .bind(1, id)
            .run();
    }
    RunStore again(dir.file("runs.db"));
    EXPECT_EQ(again.run(id)->status, "running"); // nothing here can tell whether it lives
}

TEST(RunStore, TransactionNotCommittedLeavesNothingBehind)
{
    TempDir dir;
    {
        RunStore store(dir.file("runs.db"));
    }
    {
        Database db(dir.file("runs.db"));
        try {
            Transaction tx(db);
            db.exec("INSERT INTO scenarios(name, content, updated_at) VALUES('half', 'x', 'now')");
            throw std::runtime_error("bad input half way");
        } catch (const std::runtime_error&) { }
    }
    RunStore store(dir.file("runs.db"));
    EXPECT_TRUE(store.scenarioNames().empty());
}

TEST(RunStore, NotADatabaseGivesAClearError)
{
    TempDir dir;
    std::string path = dir.file("garbage.db");
    std::ofstream(path) << "this is a text file, not SQLite, and it is long enough to have a header";
    try {
        RunStore store(path);
        FAIL() << "expected StorageError";
    } catch (const StorageError& e) {
        EXPECT_NE(std::string(e.what()).find(path + ": file is not a database"), std::string::npos)
            << e.what();
    }
}

TEST(RunStore, RefusesAStoreFromANewerVersion)
{
    TempDir dir;
    {
        Database db(dir.file("runs.db"));
        db.setUserVersion(RunStore::kSchemaVersion + 1);
    }
    try {
        RunStore store(dir.file("runs.db"));
        FAIL() << "expected StorageError";
    } catch (const StorageError& e) {
        EXPECT_NE(std::string(e.what()).find("written by a newer drasim"), std::string::npos) << e.what();
    }
}
