// SPDX-License-Identifier: Apache-2.0
// drasim merge: the study report from the SQLite files of its shards (drasim plan --shard).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/cli/cli_support.h"
#include "app/cli/command_registry.h"
#include "app/cli/common_options.h"
#include "app/cli/plan_output.h"
#include "core/planner/planner.h"
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
    if (!plan->study.policies.empty()) { // drasim plan never shards such a study
        cli::printError("study " + plan->study.name
            + " compares scoring policies (spec.policies): its shards cannot exist; run it with drasim plan");
        return 1;
    }

    // Exactly one finished shard of this study per index, all of one split.
    std::vector<planner::Evaluation> known;
    std::map<int, std::string> seen;
    int count = 0;
    try {
        for (const auto& file : args.shardFiles) {
            std::error_code ec;
            if (!std::filesystem::is_regular_file(file, ec)) {
                cli::printError(file + ": no such shard file");
                return 1;
            }
            planner::StudyStore store(file);
            std::optional<planner::StoredStudy> found;
            for (const auto& s : store.studies())
                if (s.fingerprint == plan->fingerprint && s.status == "finished")
                    found = s; // the latest finished run of this study in the file
            if (!found) {
                cli::printError(file + ": no finished shard of study " + plan->study.name
                    + " with these inputs (was it run from the same study and scenario files?)");
                return 1;
            }
            if (found->bisectionStage()) { // drasim plan --bisect-only: no shard, but welcome
                auto evaluations = store.evaluations(*found);
                known.insert(known.end(), evaluations.begin(), evaluations.end());
                continue;
            }
            if (count != 0 && found->shardCount != count) {
                cli::printError(file + ": shard of a " + std::to_string(found->shardCount)
                    + "-way split; the others are " + std::to_string(count) + "-way");
                return 1;
            }
            count = found->shardCount;
            if (auto [it, fresh] = seen.emplace(found->shardIndex, file); !fresh) {
                cli::printError(file + ": shard " + std::to_string(found->shardIndex) + " again (also in "
                    + it->second + ")");
                return 1;
            }
            auto evaluations = store.evaluations(*found);
            known.insert(known.end(), evaluations.begin(), evaluations.end());
        }
    } catch (const storage::StorageError& e) {
        cli::printError(e.what());
        return 1;
    }
    if (count == 0) {
        cli::printError("no shard among the files: only the bisections (drasim plan --bisect-only)");
        return 1;
    }
    if (int(seen.size()) != count) {
        std::string missing;
        for (int k = 0; k < count; ++k)
            if (!seen.count(k))
                missing += (missing.empty() ? "" : ", ") + std::to_string(k);
        cli::printError("shards missing: " + missing + " of " + std::to_string(count));
        return 1;
    }

    auto result = planner::replayPlan(*plan, known, diags);
    if (!diags.all().empty())
        std::fputs(diags.formatAll().c_str(), stderr);
    if (!result)
        return 1;
    if (!args.db.empty()) {
        try {
            planner::StudyStore store(args.db);
            const int64_t id = store.beginStudy(plan->study.name, plan->fingerprint, planner::Shard {},
                plan->candidates.size(), plan->study.serviceLevels.size());
            for (const auto& e : known)
                store.addEvaluation(id, e);
            store.finishStudy(id, "finished", cli::studyJson(*result));
        } catch (const storage::StorageError& e) {
            cli::printError(e.what());
            return 1;
        }
    }
    return cli::emitStudy(*result, args.outputs) ? 0 : 1;
}

drasim::cli::Runner define(CLI::App& app)
{
    using namespace drasim::cli;
    auto args = std::make_shared<Args>();
    app.description(
        R"(Combines the SQLite files of a study's shards (`drasim plan STUDY --shard K/N --db FILE`) and
prints the study exactly as `drasim plan STUDY` would in one process: the search is replayed
against the shards' evaluations. Every shard 0..N-1 must be there, run from the same study and
scenario files.)");
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
