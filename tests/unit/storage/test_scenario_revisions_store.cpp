// SPDX-License-Identifier: Apache-2.0
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdlib.h>

#include <gtest/gtest.h>

#include "core/storage/database.h"
#include "core/storage/run_store.h"
#include "core/storage/schema.h"
#include "tests/unit/temp_dir.h"

using namespace drasim::storage;
namespace fs = std::filesystem;

namespace {

using drasim::test_support::TempDir;

std::string bytesOf(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace

TEST(ScenarioRevisions, EachContentIsOneRevisionWithItsFilesKeptExactly)
{
    TempDir dir;
    RunStore store(dir.file("runs.db"));
    const std::string binary("a\0b\xff\n", 5); // NUL and a byte that is not UTF-8 survive
    std::vector<StoredFile> v1 { { "scenario.yaml", "kind: Scenario\n" }, { "w/x.yaml", binary } };
    SavedRevision a = store.saveScenarioRevision("default", "h1", "scenario.yaml", v1);
    EXPECT_EQ(a.revision, 1);
    EXPECT_TRUE(a.created);
    SavedRevision again = store.saveScenarioRevision("default", "h1", "scenario.yaml", v1);
    EXPECT_EQ(again.revision, 1);
    EXPECT_FALSE(again.created);
    // A run saw a second content first; saving that content later fills the same revision.
    store.beginRun("default", 1, "", "h2");
    SavedRevision b = store.saveScenarioRevision("default", "h2", "scenario.yaml", { v1[0] });
    EXPECT_EQ(b.revision, 2);
    EXPECT_TRUE(b.created);
    store.beginRun("default", 1, "", "h3"); // run only

    EXPECT_EQ(store.scenarioFiles("default", 1), v1);
    EXPECT_EQ(store.scenarioFiles("default", 1)[1].content.size(), 5u);
    EXPECT_TRUE(store.scenarioFiles("default", 3).empty());
    auto revisions = store.revisionsOf("default");
    ASSERT_EQ(revisions.size(), 3u);
    EXPECT_EQ(revisions[0].files, 2);
    EXPECT_EQ(revisions[1].runs, 1);
    EXPECT_EQ(revisions[2].mainFile, "");
    EXPECT_EQ(store.revisedScenarioNames(), (std::vector<std::string> { "default" }));
    EXPECT_THROW(store.saveScenarioRevision("default", "h4", "", v1), StorageError);
}

TEST(ScenarioRevisions, AFailedSaveLeavesNoHalfRevision)
{
    TempDir dir;
    RunStore store(dir.file("runs.db"));
    // Two files with one path break the primary key half way through the insert.
    std::vector<StoredFile> twice { { "scenario.yaml", "a" }, { "scenario.yaml", "b" } };
    EXPECT_THROW(store.saveScenarioRevision("default", "h1", "scenario.yaml", twice), StorageError);
    EXPECT_TRUE(store.revisionsOf("default").empty());
    EXPECT_EQ(store.saveScenarioRevision("default", "h1", "scenario.yaml", { twice[0] }).revision, 1);
}

TEST(Schema, PlannerTablesAreVersionedWithTheRest)
{
    TempDir dir;
    {
        Database db(dir.file("s.db"));
        openSchema(db);
        EXPECT_EQ(db.userVersion(), kSchemaVersion);
        auto st = db.prepare("SELECT COUNT(*) FROM sqlite_master WHERE name IN ('planner_studies', "
                             "'planner_evaluations', 'scenario_files', 'scenario_variants')");
        ASSERT_TRUE(st.step());
        EXPECT_EQ(st.columnInt(0), 4);
        auto journal = db.prepare("PRAGMA journal_mode");
        ASSERT_TRUE(journal.step());
        EXPECT_EQ(journal.columnText(0), "wal");
        auto fk = db.prepare("PRAGMA foreign_keys");
        ASSERT_TRUE(fk.step());
        EXPECT_EQ(fk.columnInt(0), 1);
    }
    // A shard file written before the planner tables were versioned (version 0 with the tables)
    // migrates and keeps its rows.
    {
        Database db(dir.file("old-shard.db"));
        db.exec("CREATE TABLE planner_studies (id INTEGER PRIMARY KEY, name TEXT NOT NULL, fingerprint TEXT "
                "NOT NULL, shard_index INTEGER NOT NULL, shard_count INTEGER NOT NULL, shapes INTEGER NOT "
                "NULL, levels INTEGER NOT NULL, status TEXT NOT NULL, report_json TEXT NOT NULL DEFAULT '', "
                "created_at TEXT NOT NULL DEFAULT '')");
        db.exec("INSERT INTO planner_studies(name, fingerprint, shard_index, shard_count, shapes, levels, "
                "status) VALUES('s', 'f', 0, 1, 3, 1, 'finished')");
    }
    RunStore store(dir.file("old-shard.db"));
    Database db(dir.file("old-shard.db"));
    EXPECT_EQ(db.userVersion(), kSchemaVersion);
    auto st = db.prepare("SELECT name FROM planner_studies");
    ASSERT_TRUE(st.step());
    EXPECT_EQ(st.columnText(0), "s");
}

TEST(Schema, ANewerFileIsRefusedAndLeftByteForByte)
{
    TempDir dir;
    const std::string path = dir.file("newer.db");
    {
        Database db(path); // rollback journal: a WAL switch would show in the header bytes
        db.exec("CREATE TABLE future (x)");
        db.setUserVersion(kSchemaVersion + 5);
    }
    const std::string before = bytesOf(path);
    try {
        RunStore store(path);
        FAIL() << "expected StorageError";
    } catch (const StorageError& e) {
        EXPECT_EQ(std::string(e.what()),
            path + ": the store was written by a newer drasim (schema " + std::to_string(kSchemaVersion + 5)
                + ", this version knows " + std::to_string(kSchemaVersion) + "); it was left untouched");
    }
    EXPECT_EQ(bytesOf(path), before);
    EXPECT_FALSE(fs::exists(path + "-wal"));
}

TEST(Schema, ACorruptFileIsRefusedWithItsNameAndNotRewritten)
{
    TempDir dir;
    const std::string path = dir.file("corrupt.db");
    {
        RunStore store(path);
        for (int i = 0; i < 12; ++i)
            store.beginRun(std::string("s").append(std::to_string(i)), uint64_t(i), std::string(3000, 'x'));
    }
    {
        Database db(path);
        db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
        db.exec("PRAGMA journal_mode=DELETE");
    }
    std::string bytes = bytesOf(path);
    ASSERT_GT(bytes.size(), 8192u);
    for (size_t i = 4096 + 100; i < bytes.size(); i += 997)
        bytes[i] = char(0xA5); // scribble over every page after the first
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
    try {
        RunStore store(path);
        store.runs();
        FAIL() << "expected StorageError";
    } catch (const StorageError& e) {
        const std::string what = e.what();
        EXPECT_EQ(what.rfind(path + ": ", 0), 0u) << what;
        EXPECT_NE(what.find("malformed"), std::string::npos) << what;
    }
    EXPECT_EQ(bytesOf(path), bytes);
}
