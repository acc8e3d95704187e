// SPDX-License-Identifier: Apache-2.0
#include <filesystem>
#include <random>

#include <gtest/gtest.h>

#include "core/planner/study_store.h"
#include "core/storage/database.h"
#include "core/storage/run_store.h"
#include "tests/unit/damaged_file.h"

using namespace drasim;
using namespace drasim::planner;

namespace {

std::string tempDb(const std::string& name)
{
    auto path = std::filesystem::temp_directory_path() / ("drasim-planner-" + name + ".db");
    for (const char* suffix : { "", "-wal", "-shm" })
        std::filesystem::remove(path.string() + suffix);
    return path.string();
}

} // namespace

TEST(PlannerStudyStore, EvaluationsReadBackExactly)
{
    const std::string path = tempDb("roundtrip");
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<double> value(0, 1e6);
    std::vector<Evaluation> written;
    {
        StudyStore store(path);
        const int64_t id = store.beginStudy("s", "f00d", Shard { 1, 3 }, 3, 2);
        for (int i = 0; i < 20; ++i) {
            Evaluation e;
            e.mix = { int(rng() % 9), int(rng() % 9), int(rng() % 9) };
            e.load = 1.0 + double(rng() % 4) / 10;
            for (uint64_t s : { 1, 2 }) {
                const bool stopped = rng() % 2 == 0;
                e.seeds.push_back(SeedOutcome { s, { value(rng), value(rng) / 3 }, stopped,
                    stopped && rng() % 2 == 0 ? value(rng) / 7 : -1.0 });
            }
            store.addEvaluation(id, e);
            written.push_back(e);
        }
        store.finishStudy(id, "finished", "{}");
    }
    StudyStore again(path);
    auto studies = again.studies();
    ASSERT_EQ(studies.size(), 1u);
    EXPECT_EQ(studies[0].shardIndex, 1);
    EXPECT_EQ(studies[0].shardCount, 3);
    EXPECT_EQ(studies[0].status, "finished");
    auto read = again.evaluations(studies[0]);
    ASSERT_EQ(read.size(), written.size());
    for (size_t i = 0; i < read.size(); ++i) {
        EXPECT_EQ(read[i].mix, written[i].mix);
        EXPECT_EQ(read[i].load, written[i].load);
        ASSERT_EQ(read[i].seeds.size(), 2u);
        for (size_t s = 0; s < 2; ++s) {
            EXPECT_EQ(read[i].seeds[s].seed, written[i].seeds[s].seed);
            EXPECT_EQ(read[i].seeds[s].values, written[i].seeds[s].values); // bit for bit
            EXPECT_EQ(read[i].seeds[s].stoppedEarly, written[i].seeds[s].stoppedEarly);
            EXPECT_EQ(read[i].seeds[s].stoppedAtSeconds, written[i].seeds[s].stoppedAtSeconds);
        }
    }
}

TEST(PlannerStudyStore, AMalformedRowIsAnErrorNamingTheFile)
{
    const std::string path = tempDb("malformed");
    StoredStudy study;
    {
        StudyStore store(path);
        study.id = store.beginStudy("s", "f", Shard {}, 2, 1);
        study.shapes = 2;
        study.levels = 1;
    }
    {
        storage::Database db(path);
        db.exec("INSERT INTO planner_evaluations VALUES (" + std::to_string(study.id)
            + ", 0, '1,x', '1', '1:0:5')");
    }
    StudyStore store(path);
    try {
        store.evaluations(study);
        FAIL() << "no error";
    } catch (const storage::StorageError& e) {
        EXPECT_NE(std::string(e.what()).find(path + ": study 1: malformed evaluation of mix \"1,x\""),
            std::string::npos)
            << e.what();
    }
}

// A store the planner records into, with page 4 overwritten with garbage (`dd` of 8 KiB at byte
// 12288): `drasim plan --db` and `drasim merge --db` refuse it before writing a study into it, as
// the readers of its runs do, and leave the file byte for byte as it was.
TEST(PlannerStudyStore, ADamagedStoreIsRefusedBeforeAStudyIsWritten)
{
    const std::string path = tempDb("damaged");
    {
        storage::RunStore runs(path);
        for (int n = 0; n < 3; ++n)
            runs.finishRun(runs.beginRun("s", uint64_t(n), "run"), "finished", "{}");
        StudyStore store(path);
        store.finishStudy(store.beginStudy("s", "f", Shard {}, 2, 1), "finished", "{}");
    }
    const std::string damaged = test_support::overwriteWithGarbage(path, 12288, 8192);
    try {
        StudyStore store(path);
        store.beginStudy("s", "f", Shard {}, 2, 1);
        FAIL() << "a study was written into a damaged store";
    } catch (const storage::StorageError& e) {
        EXPECT_EQ(std::string(e.what()),
            path
                + ": the store is damaged (Page 4: btreeInitPage() returns error code 11); it was "
                  "left untouched");
    }
    EXPECT_EQ(test_support::bytesOf(path), damaged);
}

TEST(PlannerStudyStore, StoresWrittenBeforeStopTimesWereKeptStillRead)
{
    const std::string path = tempDb("old-stop");
    StoredStudy study;
    {
        StudyStore store(path);
        study.id = store.beginStudy("s", "f", Shard {}, 1, 1);
        study.shapes = 1;
        study.levels = 1;
    }
    {
        storage::Database db(path);
        db.exec("INSERT INTO planner_evaluations VALUES (" + std::to_string(study.id)
            + ", 0, '1', '1', '1:1:4000;2:1@29376.5:3700;3:0:10')");
    }
    StudyStore store(path);
    auto read = store.evaluations(study);
    ASSERT_EQ(read.size(), 1u);
    ASSERT_EQ(read[0].seeds.size(), 3u);
    EXPECT_TRUE(read[0].seeds[0].stoppedEarly);
    EXPECT_EQ(read[0].seeds[0].stoppedAtSeconds, -1); // unknown
    EXPECT_TRUE(read[0].seeds[1].stoppedEarly);
    EXPECT_EQ(read[0].seeds[1].stoppedAtSeconds, 29376.5);
    EXPECT_FALSE(read[0].seeds[2].stoppedEarly);
}
