// SPDX-License-Identifier: Apache-2.0
// A writer killed with SIGKILL at random moments, round after round, on one store: the file stays
// consistent (PRAGMA integrity_check) and everything the writer had finished before is intact.
#include <csignal>
#include <filesystem>
#include <random>
#include <set>
#include <sstream>
#include <stdlib.h>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "core/storage/database.h"
#include "core/storage/run_store.h"
#include "tests/unit/damaged_file.h"
#include "tests/unit/temp_dir.h"

using namespace drasim::storage;
namespace fs = std::filesystem;

namespace {

constexpr int kSamplesPerBatch = 50;
constexpr int kBatches = 2;

std::string summaryOf(int64_t run)
{
    return "{\"run\": " + std::to_string(run) + ", \"padding\": \"" + std::string(size_t(run % 97), 'p')
        + "\"}";
}

std::vector<StoredFile> filesOf(int round, int n)
{
    return { { "scenario.yaml",
                 "kind: Scenario # " + std::to_string(round) + "/" + std::to_string(n) + "\n" },
        { "workloads/w.yaml", std::string(size_t(1000 + n), char('a' + n % 26)) } };
}

std::string hashOf(int round, int n)
{
    return "hash-" + std::to_string(round) + "-" + std::to_string(n);
}

/// The child: saves revisions and records runs forever, telling the parent after each commit.
[[noreturn]] void writeUntilKilled(const std::string& path, int round, int fd)
{
    try {
        RunStore store(path);
        for (int n = 0;; ++n) {
            store.saveScenarioRevision("crash", hashOf(round, n), "scenario.yaml", filesOf(round, n));
            std::string line = "rev " + std::to_string(round) + " " + std::to_string(n) + "\n";
            if (write(fd, line.data(), line.size()) < 0)
                _exit(3);
            const int64_t run = store.beginRun("crash", uint64_t(n), "round " + std::to_string(round));
            for (int b = 0; b < kBatches; ++b) {
                std::vector<SeriesPoint> points;
                for (int i = 0; i < kSamplesPerBatch; ++i)
                    points.push_back({ double(b * kSamplesPerBatch + i), "pods.pending", double(i) });
                store.appendSamples(run, points);
                drasim::sim::PodEvent e;
                e.time = b;
                e.pod = "default/p-" + std::to_string(b);
                e.devices.push_back({ "claim", "gpu.nvidia.com", "pool", "gpu-" + std::to_string(b), "gpu" });
                store.appendPodEvents(run, { e });
            }
            store.finishRun(run, "finished", summaryOf(run));
            line = "run " + std::to_string(run) + "\n";
            if (write(fd, line.data(), line.size()) < 0)
                _exit(3);
        }
    } catch (...) {
        _exit(2);
    }
}

std::string readAll(int fd)
{
    std::string out;
    char buf[4096];
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) > 0)
        out.append(buf, size_t(n));
    return out;
}

} // namespace

TEST(CrashSafety, AWriterKilledAtRandomMomentsLosesNothingItFinished)
{
    std::string tmpl = (fs::temp_directory_path() / "drasim-crash-XXXXXX").string();
    const std::string dir = mkdtemp(tmpl.data());
    const std::string path = dir + "/store.db";
    std::mt19937 rng(1202);
    std::set<int64_t> finishedRuns;
    std::set<std::pair<int, int>> savedRevisions;
    int killedMidWork = 0;

    for (int round = 0; round < 30; ++round) {
        int fds[2];
        ASSERT_EQ(pipe(fds), 0);
        const pid_t child = fork();
        ASSERT_GE(child, 0);
        if (child == 0) {
            close(fds[0]);
            writeUntilKilled(path, round, fds[1]);
        }
        close(fds[1]);
        usleep(useconds_t(std::uniform_int_distribution<int>(1000, 200000)(rng)));
        kill(child, SIGKILL);
        int status = 0;
        ASSERT_EQ(waitpid(child, &status, 0), child);
        ASSERT_TRUE(WIFSIGNALED(status))
            << "the writer stopped by itself (exit " << WEXITSTATUS(status) << ")";
        const std::string report = readAll(fds[0]);
        close(fds[0]);
        std::istringstream lines(report);
        std::string kind;
        while (lines >> kind) {
            if (kind == "rev") {
                int r = 0, n = 0;
                lines >> r >> n;
                savedRevisions.insert({ r, n });
            } else {
                int64_t run = 0;
                lines >> run;
                finishedRuns.insert(run);
            }
        }

        {
            Database db(path);
            auto check = db.prepare("PRAGMA integrity_check");
            ASSERT_TRUE(check.step());
            ASSERT_EQ(check.columnText(0), "ok") << "round " << round;
            auto fk = db.prepare("PRAGMA foreign_key_check");
            ASSERT_FALSE(fk.step()) << "round " << round << ": a row points at nothing";
        }
        RunStore store(path);
        for (int64_t id : finishedRuns) {
            auto run = store.run(id);
            ASSERT_TRUE(run.has_value()) << "run " << id << " lost in round " << round;
            EXPECT_EQ(run->status, "finished");
            EXPECT_EQ(run->summaryJson, summaryOf(id));
            EXPECT_EQ(store.series(id).size(), size_t(kSamplesPerBatch * kBatches)) << "run " << id;
            auto events = store.podEvents(id);
            ASSERT_EQ(events.size(), size_t(kBatches)) << "run " << id;
            EXPECT_EQ(events.back().devices.size(), 1u);
        }
        for (const RunInfo& r : store.runs()) {
            if (!finishedRuns.count(r.id) && r.status != "finished") {
                EXPECT_EQ(r.status, "interrupted") << "run " << r.id;
                ++killedMidWork;
            }
        }
        const auto revisions = store.revisionsOf("crash");
        std::set<std::string> savedHashes;
        for (const auto& rev : revisions)
            if (!rev.mainFile.empty())
                savedHashes.insert(rev.hash);
        for (const auto& [r, n] : savedRevisions) {
            ASSERT_TRUE(savedHashes.count(hashOf(r, n))) << "revision " << r << "/" << n << " lost";
        }
        for (const auto& rev : revisions) {
            // A revision is saved whole or not at all: its files are all there or it has none.
            const auto files = store.scenarioFiles("crash", rev.revision);
            EXPECT_TRUE(files.empty() || files.size() == 2u) << "revision " << rev.revision;
            if (!rev.mainFile.empty()) {
                EXPECT_EQ(files.size(), 2u) << "revision " << rev.revision;
            }
        }
    }
    // The test means something only if the kills landed both between and inside pieces of work.
    RecordProperty("finishedRuns", int(finishedRuns.size()));
    RecordProperty("killedMidWork", killedMidWork);
    EXPECT_GT(finishedRuns.size(), 0u);
    EXPECT_GT(killedMidWork, 0);
    fs::remove_all(dir);
}

// Page 4 of a store overwritten with garbage (8 KiB from byte 12288, as `dd` would): the store is
// refused by whoever opens it, with what SQLite found, and the file stays byte for byte as it was.
// Writing into it would spread the damage to rows that were still readable.
TEST(CrashSafety, ADamagedStoreIsRefusedAndLeftAsItWas)
{
    drasim::test_support::TempDir dir;
    const std::string path = dir.file("store.db");
    {
        RunStore store(path);
        for (int n = 0; n < 3; ++n) {
            store.saveScenarioRevision("crash", hashOf(0, n), "scenario.yaml", filesOf(0, n));
            const int64_t run = store.beginRun("crash", uint64_t(n), "damaged");
            store.finishRun(run, "finished", summaryOf(run));
        }
    }
    const std::string damaged = drasim::test_support::overwriteWithGarbage(path, 12288, 8192);
    {
        Database db(path);
        auto check = db.prepare("PRAGMA integrity_check");
        ASSERT_TRUE(check.step());
        ASSERT_NE(check.columnText(0), "ok");
    }
    try {
        RunStore store(path);
        FAIL() << "a damaged store was opened";
    } catch (const StorageError& e) {
        EXPECT_EQ(std::string(e.what()),
            path
                + ": the store is damaged (Page 4: btreeInitPage() returns error code 11); it was "
                  "left untouched");
    }
    EXPECT_EQ(drasim::test_support::bytesOf(path), damaged);
}
