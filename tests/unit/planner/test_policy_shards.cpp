// SPDX-License-Identifier: Apache-2.0
// A study comparing scoring policies (spec.policies) split into shards: the law that the shards'
// files, read back and replayed, give what one process reports, over random studies; and the
// errors that name the file and the policy when a part is missing.
#include <algorithm>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/planner/policy_study.h"
#include "core/planner/shard_files.h"
#include "core/planner/study_store.h"
#include "core/storage/database.h"
#include "core/storage/schema.h"

namespace policy_shards_tests {

using namespace drasim;
using namespace drasim::planner;

/// A fresh folder of its own for one test's files.
std::string tempFolder(const std::string& name)
{
    const auto path = std::filesystem::temp_directory_path() / ("drasim-policy-shards-" + name);
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
    return path.string();
}

std::optional<Plan> planOf(const std::string& text, Diagnostics& diags)
{
    const std::string file = std::string(DRASIM_SOURCE_DIR) + "/tests/unit/planner/data/policies/random.yaml";
    auto study = parseStudy(text, file, diags);
    return study ? preparePlan(*study, diags) : std::nullopt;
}

/// A random study on the scenario where the policies answer differently: two to four policies
/// in a random order, random maxNodes, one or two seeds, with or without a load growth.
std::string randomStudy(std::mt19937& rng)
{
    std::vector<std::string> policies { "default", "most-allocated", "least-allocated", "fgd" };
    std::shuffle(policies.begin(), policies.end(), rng);
    policies.resize(2 + rng() % 3);
    std::string list;
    for (const auto& p : policies)
        list += (list.empty() ? "" : ", ") + p;
    return "apiVersion: drasim.dev/v1alpha1\n"
           "kind: Study\n"
           "metadata: {name: random}\n"
           "spec:\n"
           "  scenario: scenario.yaml\n"
           "  candidates:\n"
           "    - {shape: dgx-h100, name: h100, maxNodes: "
        + std::to_string(3 + rng() % 6)
        + "}\n"
          "    - {shape: l40s-pcie-4gpu, name: l40s, maxNodes: "
        + std::to_string(2 + rng() % 7)
        + "}\n"
          "  serviceLevels:\n"
          "    - {metric: wait, percentile: 90, workload: finetune, max: 15m}\n"
          "    - {metric: pending, max: 2h}\n"
          "  seeds: "
        + std::string(rng() % 2 ? "[1]" : "[1, 2]") + "\n" + (rng() % 2 ? "  loadGrowth: [50%]\n" : "")
        + "  policies: [" + list + "]\n";
}

/// Runs one part of the study (a shard, or the bisection stage) into its own file as drasim plan
/// --db does: a row per policy, each evaluation as it comes. `bisections` per policy, if read.
PlanStats runInto(const Plan& plan, const Shard& shard, const std::string& file,
    const std::vector<std::vector<Evaluation>>* bisections = nullptr)
{
    StudyStore store(file);
    PlanOptions options;
    options.threads = 2;
    options.shard = shard;
    int64_t row = 0;
    PolicyHooks hooks;
    hooks.before = [&](size_t part, PlanOptions& one) {
        row = store.beginStudy(plan.study.name, plan.fingerprint, shard, plan.candidates.size(),
            plan.study.serviceLevels.size(), storedPolicyName(plan, part));
        one.onEvaluated = [&store, r = row](const Evaluation& e) { store.addEvaluation(r, e); };
        if (bisections)
            one.bisections = &(*bisections)[part];
    };
    hooks.after = [&](size_t, const StudyResult&) { store.finishStudy(row, "finished", ""); };
    Diagnostics diags;
    PlanStats stats;
    EXPECT_TRUE(runPolicyPlans(plan, options, diags, &stats, hooks)) << diags.formatAll();
    return stats;
}

/// Everything the report says, in the three forms drasim plan prints or writes.
std::string everything(const PolicyStudyResult& r)
{
    return formatPolicyText(r) + policyFrontierCsv(r) + toJson(toData(r));
}

// The law: shard K of N runs slice K of every policy's search; the N files merged give, byte for
// byte, the single process's report; with the bisections shared, the split runs exactly the
// single process's simulations.
TEST(PlannerPolicyShards, MergedShardsOfRandomStudiesGiveTheSingleProcessReport)
{
    std::mt19937 rng(2026120602);
    const std::string folder = tempFolder("law");
    for (int round = 0; round < 4; ++round) {
        Diagnostics diags;
        const std::string text = randomStudy(rng);
        auto plan = planOf(text, diags);
        ASSERT_TRUE(plan) << diags.formatAll() << text;
        PlanOptions options;
        options.threads = 2;
        PlanStats single;
        auto whole = runPolicyPlans(*plan, options, diags, &single);
        ASSERT_TRUE(whole) << diags.formatAll();

        const int n = 2 + int(rng() % 2);
        const bool shared = rng() % 2;
        std::vector<std::string> files;
        int64_t simulations = 0;
        std::vector<std::vector<Evaluation>> bisections;
        if (shared) {
            Shard stage;
            stage.bisectionsOnly = true;
            files.push_back(folder + "/bisections-" + std::to_string(round) + ".db");
            simulations += runInto(*plan, stage, files.back()).simulationsRun;
            std::string error;
            ASSERT_TRUE(readBisectionFile(*plan, files.back(), bisections, error)) << error;
            ASSERT_EQ(bisections.size(), plan->study.policies.size());
        }
        for (int k = 0; k < n; ++k) {
            files.push_back(folder + "/shard-" + std::to_string(round) + "-" + std::to_string(k) + ".db");
            simulations += runInto(*plan, Shard { k, n }, files.back(), shared ? &bisections : nullptr)
                               .simulationsRun;
        }
        if (!shared)
            std::reverse(files.begin(), files.end()); // the files' order does not matter
        std::vector<std::vector<Evaluation>> known;
        std::string error;
        ASSERT_TRUE(readShardFiles(*plan, files, known, error)) << error;
        auto merged = replayPolicyPlans(*plan, known, diags);
        ASSERT_TRUE(merged) << diags.formatAll();
        EXPECT_EQ(everything(*merged), everything(*whole)) << text << n << " shards";
        if (shared) {
            EXPECT_EQ(simulations, single.simulationsRun) << text;
        }
    }
}

/// A file as a shard (or the bisection stage) leaves it: a finished row for each of `finished`,
/// a cancelled one for each of `cancelled`, with no evaluations (the checks come before them).
void writeParts(const Plan& plan, const std::string& file, const Shard& shard,
    const std::vector<size_t>& finished, const std::vector<size_t>& cancelled = {})
{
    StudyStore store(file);
    for (size_t part : finished)
        store.finishStudy(store.beginStudy(plan.study.name, plan.fingerprint, shard, plan.candidates.size(),
                              plan.study.serviceLevels.size(), storedPolicyName(plan, part)),
            "finished", "");
    for (size_t part : cancelled)
        store.finishStudy(store.beginStudy(plan.study.name, plan.fingerprint, shard, plan.candidates.size(),
                              plan.study.serviceLevels.size(), storedPolicyName(plan, part)),
            "cancelled", "");
}

std::string shardFilesError(const Plan& plan, const std::vector<std::string>& files)
{
    std::vector<std::vector<Evaluation>> known;
    std::string error;
    EXPECT_FALSE(readShardFiles(plan, files, known, error));
    return error;
}

std::optional<Plan> twoPolicies(Diagnostics& diags)
{
    return planOf(
        "apiVersion: drasim.dev/v1alpha1\nkind: Study\nmetadata: {name: two}\nspec:\n"
        "  scenario: scenario.yaml\n  candidates:\n    - {shape: dgx-h100, name: h100, maxNodes: 4}\n"
        "  serviceLevels:\n    - {metric: pending, max: 1h}\n  policies: [fgd, most-allocated]\n",
        diags);
}

TEST(PlannerPolicyShards, AShardWhoseRunStoppedBeforeAPolicyNamesIt)
{
    Diagnostics diags;
    auto plan = twoPolicies(diags);
    ASSERT_TRUE(plan) << diags.formatAll();
    const std::string folder = tempFolder("stopped");
    writeParts(*plan, folder + "/0.db", Shard { 0, 2 }, { 0, 1 });
    writeParts(*plan, folder + "/1.db", Shard { 1, 2 }, { 0 }, { 1 });
    EXPECT_EQ(shardFilesError(*plan, { folder + "/0.db", folder + "/1.db" }),
        folder
            + "/1.db: no finished shard of study two under scoring policy most-allocated (did its run stop "
              "before that policy?)");
    // A file of another study (here: none of this one's rows) is told as for a one-policy study.
    writeParts(*plan, folder + "/empty.db", Shard { 1, 2 }, {});
    EXPECT_EQ(shardFilesError(*plan, { folder + "/0.db", folder + "/empty.db" }),
        folder
            + "/empty.db: no finished shard of study two with these inputs (was it run from the same study "
              "and "
              "scenario files?)");
}

TEST(PlannerPolicyShards, MissingShardsAreSaidOnceWhenEveryPolicyMissesThem)
{
    Diagnostics diags;
    auto plan = twoPolicies(diags);
    ASSERT_TRUE(plan) << diags.formatAll();
    const std::string folder = tempFolder("missing");
    writeParts(*plan, folder + "/0.db", Shard { 0, 3 }, { 0, 1 });
    writeParts(*plan, folder + "/2.db", Shard { 2, 3 }, { 0, 1 });
    EXPECT_EQ(shardFilesError(*plan, { folder + "/0.db", folder + "/2.db" }), "shards missing: 1 of 3");
    // One file holding shard 1 of fgd, and (from a later run into it) shard 2 of most-allocated.
    writeParts(*plan, folder + "/mixed.db", Shard { 1, 3 }, { 0 });
    writeParts(*plan, folder + "/mixed.db", Shard { 2, 3 }, { 1 });
    EXPECT_EQ(shardFilesError(*plan, { folder + "/0.db", folder + "/mixed.db" }),
        "shards missing under scoring policy fgd: 2 of 3");
    EXPECT_EQ(shardFilesError(*plan, { folder + "/0.db", folder + "/2.db", folder + "/mixed.db" }),
        folder + "/mixed.db: shard 2 again (also in " + folder + "/2.db)");
    writeParts(*plan, folder + "/other-split.db", Shard { 1, 2 }, { 0, 1 });
    EXPECT_EQ(shardFilesError(*plan, { folder + "/0.db", folder + "/other-split.db" }),
        folder + "/other-split.db: shard of a 2-way split; the others are 3-way");
}

TEST(PlannerPolicyShards, BisectionsLackingAPolicyNameIt)
{
    Diagnostics diags;
    auto plan = twoPolicies(diags);
    ASSERT_TRUE(plan) << diags.formatAll();
    const std::string folder = tempFolder("bisections");
    Shard stage;
    stage.bisectionsOnly = true;
    writeParts(*plan, folder + "/b.db", stage, { 0 }, { 1 });
    std::vector<std::vector<Evaluation>> read;
    std::string error;
    EXPECT_FALSE(readBisectionFile(*plan, folder + "/b.db", read, error));
    EXPECT_EQ(error,
        folder
            + "/b.db: no finished bisections of study two under scoring policy most-allocated (did the "
              "--bisect-only run stop before that policy?)");
    // Alone, the bisections are no shard; beside a shard they must cover every policy too.
    EXPECT_EQ(shardFilesError(*plan, { folder + "/b.db" }),
        folder
            + "/b.db: no finished shard of study two under scoring policy most-allocated (did its run stop "
              "before that policy?)");
    writeParts(*plan, folder + "/b2.db", stage, { 0, 1 });
    EXPECT_EQ(shardFilesError(*plan, { folder + "/b2.db" }),
        "no shard among the files: only the bisections (drasim plan --bisect-only)");
}

TEST(PlannerPolicyShards, AReplayLackingAnEvaluationNamesThePolicy)
{
    Diagnostics diags;
    auto plan = twoPolicies(diags);
    ASSERT_TRUE(plan) << diags.formatAll();
    PlanOptions options;
    options.threads = 2;
    std::vector<std::vector<Evaluation>> known(2);
    size_t part = 0;
    PolicyHooks hooks;
    hooks.before = [&](size_t p, PlanOptions& one) {
        part = p;
        one.onEvaluated = [&](const Evaluation& e) { known[part].push_back(e); };
    };
    auto whole = runPolicyPlans(*plan, options, diags, nullptr, hooks);
    ASSERT_TRUE(whole) << diags.formatAll();
    auto replayed = replayPolicyPlans(*plan, known, diags);
    ASSERT_TRUE(replayed) << diags.formatAll();
    EXPECT_EQ(everything(*replayed), everything(*whole));
    known[1].pop_back();
    EXPECT_FALSE(replayPolicyPlans(*plan, known, diags));
    EXPECT_NE(diags.formatAll().find("scoring policy most-allocated: no result for mix "), std::string::npos)
        << diags.formatAll();
}

// Files written before the store named policies (schema 6) still read: their rows are the
// scenario's own scoring, part "" of a study without spec.policies.
TEST(PlannerPolicyShards, RowsOfAStoreWrittenBeforePoliciesHaveNone)
{
    const std::string path = tempFolder("schema6") + "/old.db";
    {
        storage::Database db(path);
        storage::migrateSchema(db, 6);
        db.exec("INSERT INTO planner_studies (name, fingerprint, shard_index, shard_count, shapes, levels, "
                "status) "
                "VALUES ('s', 'f', 0, 2, 1, 1, 'finished')");
    }
    StudyStore store(path);
    auto rows = store.studies();
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].policy, "");
    EXPECT_EQ(rows[0].shardCount, 2);
    EXPECT_EQ(storage::Database(path).userVersion(), storage::kSchemaVersion);
}

} // namespace policy_shards_tests
