// SPDX-License-Identifier: Apache-2.0
// drasim merge: the study report from the SQLite files of its shards (drasim plan --shard).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/cli/cli_support.h"
#include "app/cli/command_registry.h"
#include "app/cli/common_options.h"
#include "app/cli/plan_output.h"
#include "core/planner/planner.h"
#include "core/planner/policy_study.h"
#include "core/planner/shard_files.h"
#include "core/planner/study_store.h"
#include "core/storage/database.h"

namespace {
namespace cmd_merge {

struct Args
{
    std::string study;
    std::vector<std::string> shardFiles;
    drasim::cli::PlanOutputs outputs;
    std::string db;
};

/// Records the merged study in --db as one run of each part (policy) of it, with its report.
bool recordMerged(const std::string& db, const drasim::planner::Plan& plan,
    const std::vector<std::vector<drasim::planner::Evaluation>>& byPart,
    const std::vector<std::string>& reports)
{
    using namespace drasim;
    try {
        planner::StudyStore store(db);
        for (size_t p = 0; p < byPart.size(); ++p) {
            const int64_t id = store.beginStudy(plan.study.name, plan.fingerprint, planner::Shard {},
                plan.candidates.size(), plan.study.serviceLevels.size(), planner::storedPolicyName(plan, p));
            for (const auto& e : byPart[p])
                store.addEvaluation(id, e);
            store.finishStudy(id, "finished", reports[p]);
        }
    } catch (const storage::StorageError& e) {
        cli::printError(e.what());
        return false;
    }
    return true;
}

int run(const Args& args)
{
    using namespace drasim;
    Diagnostics diags;
    auto study = planner::loadStudy(args.study, diags);
    auto plan = study ? planner::preparePlan(*study, diags) : std::nullopt;
    if (!plan) {
        std::fputs(diags.formatAll().c_str(), stderr);
        return 1;
    }
    // Exactly one finished shard of this study per index, all of one split, for each policy.
    std::vector<std::vector<planner::Evaluation>> byPart;
    try {
        std::string error;
        if (!planner::readShardFiles(*plan, args.shardFiles, byPart, error)) {
            cli::printError(error);
            return 1;
        }
    } catch (const storage::StorageError& e) {
        cli::printError(e.what());
        return 1;
    }

    if (!plan->study.policies.empty()) {
        auto result = planner::replayPolicyPlans(*plan, byPart, diags);
        if (!diags.all().empty())
            std::fputs(diags.formatAll().c_str(), stderr);
        if (!result)
            return 1;
        std::vector<std::string> reports;
        for (const auto& p : result->policies)
            reports.push_back(cli::studyJson(p.result));
        if (!args.db.empty() && !recordMerged(args.db, *plan, byPart, reports))
            return 1;
        return cli::emitPolicyStudy(*result, args.outputs) ? 0 : 1;
    }
    auto result = planner::replayPlan(*plan, byPart[0], diags);
    if (!diags.all().empty())
        std::fputs(diags.formatAll().c_str(), stderr);
    if (!result)
        return 1;
    if (!args.db.empty() && !recordMerged(args.db, *plan, byPart, { cli::studyJson(*result) }))
        return 1;
    return cli::emitStudy(*result, args.outputs) ? 0 : 1;
}

drasim::cli::Runner define(CLI::App& app)
{
    using namespace drasim::cli;
    auto args = std::make_shared<Args>();
    app.description(
        R"(Combines the SQLite files of a study's shards (`drasim plan STUDY --shard K/N --db FILE`) and
prints the study exactly as `drasim plan STUDY` would in one process: the search is replayed
against the shards' evaluations (for a study comparing scoring policies, each policy's search).
Every shard 0..N-1 must be there, run from the same study and scenario files.)");
    app.footer(R"(Exit status: 0 on success, 1 when a shard is missing, foreign or unreadable, or the study is
invalid (diagnostics on stderr), 2 on bad usage.)");
    app.add_option("STUDY", args->study, "the Study YAML file the shards ran")->required();
    app.add_option("SHARD", args->shardFiles, "the shards' SQLite files")->required();
    app.add_option(
           "--frontier-csv", args->outputs.frontierCsv, "write the frontier of every load level as CSV")
        ->option_text("FILE");
    app.add_option("--frontier-json", args->outputs.frontierJson, "write the whole result as JSON")
        ->option_text("FILE");
    addOutputOption(app, args->outputs.output, { "text", "json" }, "what to print on stdout (default text)");
    app.add_option("--db", args->db, "also record the merged study in this SQLite file")->option_text("FILE");
    return [args] { return run(*args); };
}

const bool registered = drasim::cli::registerCommand(
    { "merge", "combine the shard files of a study (drasim plan --shard) into its report", define });

} // namespace cmd_merge
} // namespace
