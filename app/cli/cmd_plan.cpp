// SPDX-License-Identifier: Apache-2.0
// drasim plan: runs a capacity study (kind Study) and prints the recommendation; or one shard of
// it into its own SQLite file; or the Kubernetes Indexed Job that runs every shard.
#include <CLI/CLI.hpp>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "app/cli/cli_support.h"
#include "app/cli/command_registry.h"
#include "app/cli/common_options.h"
#include "app/cli/plan_job.h"
#include "app/cli/plan_output.h"
#include "core/common/data_value.h"
#include "core/planner/planner.h"
#include "core/planner/study_export.h"
#include "core/planner/study_store.h"
#include "core/storage/database.h"

namespace {
namespace cmd_plan {

drasim::CancelToken g_interrupted;

extern "C" void onInterrupt(int)
{
    g_interrupted.cancel(); // an atomic store: safe in a signal handler
}

struct Args
{
    std::string study;
    unsigned threads = 0;
    drasim::cli::PlanOutputs outputs;
    std::string db;
    std::string shard; ///< "K/N"
    bool bisectOnly = false; ///< --bisect-only: the stage every shard of a split shares
    std::string bisections; ///< --bisections FILE: that stage's results, read by a shard
    std::string emitJob; ///< the folder the study is exported to
    int shards = 0;
    std::string image = "drasim:latest";
    std::string claim = "drasim-data";
    drasim::cli::ClusterVersionOptions version;
    std::string scoring; ///< --scoring, "" = the scenario's
    std::string tieBreak; ///< --tie-break, "" = the scenario's
};

bool parseShard(const std::string& text, drasim::planner::Shard& out)
{
    const size_t slash = text.find('/');
    if (slash == std::string::npos)
        return false;
    const std::string k = text.substr(0, slash), n = text.substr(slash + 1);
    auto digits = [](const std::string& s) {
        return !s.empty() && s.size() < 7 && s.find_first_not_of("0123456789") == std::string::npos;
    };
    if (!digits(k) || !digits(n))
        return false;
    out.index = std::stoi(k);
    out.count = std::stoi(n);
    return out.count >= 1 && out.index < out.count;
}

/// What --emit-job cannot honour or needs; empty when the command line is usable.
std::string emitJobProblem(const Args& args)
{
    if (args.shards < 1)
        return "--emit-job needs --shards N (the number of shards, one per job index)";
    if (args.threads < 1)
        return "--emit-job needs --threads N: each shard runs N simulations at once and its pod asks "
               "for N cpus";
    if (!args.shard.empty() || !args.db.empty() || args.bisectOnly || !args.bisections.empty())
        return "--emit-job writes the Jobs that run the shards; --shard, --db, --bisect-only and "
               "--bisections are for one shard here";
    if (!args.outputs.frontierCsv.empty() || !args.outputs.frontierJson.empty())
        return "--emit-job: the merge Job writes results/frontier.csv and results/result.json in the "
               "exported folder; --frontier-csv and --frontier-json are for a run here";
    const std::string name = std::filesystem::path(args.emitJob).lexically_normal().filename().string();
    if (name.empty() || name == "." || name == "..")
        return "--emit-job: give the folder a name of its own, not " + args.emitJob;
    return {};
}

/// What --bisect-only and --bisections cannot honour or need; empty when the command line is usable.
std::string bisectionProblem(const Args& args)
{
    if (args.bisectOnly && args.db.empty())
        return "--bisect-only needs --db FILE: the shards of the split read the bisections from it "
               "(--bisections FILE)";
    if (args.bisectOnly && (!args.shard.empty() || !args.bisections.empty()))
        return "--bisect-only runs the bisections every shard shares, before the shards: not with "
               "--shard or --bisections";
    if (!args.bisections.empty() && args.shard.empty())
        return "--bisections is for a shard (--shard K/N): a study run here bisects itself";
    if (args.bisectOnly && (!args.outputs.frontierCsv.empty() || !args.outputs.frontierJson.empty()))
        return "--frontier-csv and --frontier-json need the whole study: the bisections have no "
               "frontier; drasim merge writes them from every shard's file";
    return {};
}

/// Options that do not go together, or that the chosen mode would drop without a word; empty when
/// the command line is usable.
std::string usageProblem(const Args& args)
{
    const bool split = !args.emitJob.empty() || !args.shard.empty() || args.bisectOnly;
    // Shards and Jobs run the study's files as written (and drasim merge checks them): the gates
    // they run with belong in the scenario, where every one of them reads them.
    if ((!args.version.version.empty() || !args.version.featureGates.empty()) && split)
        return "--kubernetes-version and --feature-gates are for a study run here; shards and Jobs "
               "run the scenario as written: put them in its spec.scheduler";
    if ((!args.scoring.empty() || !args.tieBreak.empty()) && split)
        return "--scoring and --tie-break are for a study run here; shards and Jobs run the scenario as "
               "written: put them in its spec.scheduler";
    if (!args.emitJob.empty())
        return emitJobProblem(args);
    if (const std::string problem = bisectionProblem(args); !problem.empty())
        return problem;
    if (!args.shard.empty() && args.db.empty())
        return "--shard needs --db FILE: each shard writes its results to its own SQLite file";
    if (!args.shard.empty() && (!args.outputs.frontierCsv.empty() || !args.outputs.frontierJson.empty()))
        return "--frontier-csv and --frontier-json need the whole study: a shard has no frontier; "
               "drasim merge writes them from every shard's file";
    return {};
}

/// The study exported into the folder, then the Jobs that run it printed.
int emitJob(const drasim::planner::Plan& plan, const Args& args)
{
    using namespace drasim;
    cli::JobSpec spec;
    spec.study = plan.study.name;
    spec.folder = std::filesystem::path(args.emitJob).lexically_normal().filename().string();
    spec.shards = args.shards;
    spec.threads = args.threads;
    spec.image = args.image;
    spec.claim = args.claim;
    spec.output = args.outputs.output;
    std::string error = cli::checkJobNames(spec);
    std::vector<planner::ExportedFile> files;
    if (error.empty() && !planner::exportStudy(plan, args.emitJob, files, error))
        error = "--emit-job: " + error;
    if (!error.empty()) {
        cli::printError(error);
        return 1;
    }
    cli::printStdout(cli::jobManifests(spec));
    return 0;
}

/// A shard's --db may name a folder that does not exist yet (a fresh volume): it is made.
bool createParentFolders(const std::string& file)
{
    const std::filesystem::path parent = std::filesystem::path(file).parent_path();
    std::error_code ec;
    if (!parent.empty())
        std::filesystem::create_directories(parent, ec);
    if (ec)
        drasim::cli::printError("--db: cannot create the folder " + parent.string() + ": " + ec.message());
    return !ec;
}

/// The evaluations of the latest finished bisection stage of this study (same inputs) in `file`;
/// false (reported) when it has none or cannot be read.
bool readBisections(
    const std::string& file, const drasim::planner::Plan& plan, std::vector<drasim::planner::Evaluation>& out)
{
    using namespace drasim;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec)) {
        cli::printError("--bisections: " + file + ": no such file");
        return false;
    }
    try {
        planner::StudyStore store(file);
        std::optional<planner::StoredStudy> found;
        for (const auto& s : store.studies())
            if (s.bisectionStage() && s.fingerprint == plan.fingerprint && s.status == "finished")
                found = s;
        if (!found) {
            cli::printError("--bisections: " + file + ": no finished bisections of study " + plan.study.name
                + " with these inputs (drasim plan STUDY --bisect-only --db FILE writes them)");
            return false;
        }
        out = store.evaluations(*found);
    } catch (const storage::StorageError& e) {
        cli::printError(e.what());
        return false;
    }
    return true;
}

/// The line a shard, or the bisection stage, prints instead of the report.
std::string partDone(const Args& args, const drasim::planner::Plan& plan, const drasim::planner::Shard& shard,
    int64_t evaluations, int64_t simulations, size_t read)
{
    const std::string part = shard.bisectionsOnly
        ? "bisections"
        : "shard " + std::to_string(shard.index) + "/" + std::to_string(shard.count);
    return part + " of study " + plan.study.name + ": " + std::to_string(evaluations) + " mixes evaluated ("
        + std::to_string(simulations) + " simulations"
        + (args.bisections.empty()
                ? std::string()
                : "; " + std::to_string(read) + " of the mixes read from " + args.bisections)
        + ") into " + args.db + "\n";
}

/// --kubernetes-version and --feature-gates over the scenario's spec.scheduler, as simulate
/// applies them; false (reported) when they do not go with it.
bool applyVersionOptions(drasim::planner::Plan& plan, const drasim::cli::ClusterVersionOptions& version)
{
    if (version.version.empty() && version.featureGates.empty())
        return true;
    std::string error;
    const auto gates = version.over(plan.scenario.featureGates, error);
    if (!gates) {
        drasim::cli::printError(error);
        return false;
    }
    drasim::planner::overrideFeatureGates(
        plan, *gates, "--kubernetes-version=" + version.version + " --feature-gates=" + version.featureGates);
    return true;
}

/// What the command line asks that a study comparing scoring policies cannot do; empty when none.
std::string policiesProblem(const Args& args)
{
    if (!args.scoring.empty())
        return "--scoring: the study compares the scoring policies of its spec.policies; drop one or "
               "the other";
    if (!args.db.empty() || !args.shard.empty() || !args.emitJob.empty() || args.bisectOnly
        || !args.bisections.empty())
        return "--db, --shard and --emit-job record and split the study of one scoring policy; this "
               "study compares those of its spec.policies: run it here, or each policy with --scoring "
               "after removing spec.policies";
    return {};
}

/// The search under each scoring policy of the study, reported side by side.
int runPolicies(const drasim::planner::Plan& plan, const Args& args, drasim::Diagnostics& diags)
{
    using namespace drasim;
    planner::PlanOptions options;
    options.threads = args.threads;
    options.cancel = &g_interrupted;
    cli::StderrPercent progress;
    if (cli::stderrIsTerminal())
        options.progress = &progress;
    auto previous = std::signal(SIGINT, onInterrupt);
    planner::PlanStats stats;
    auto result = planner::runPolicyPlans(plan, options, diags, &stats);
    std::signal(SIGINT, previous);
    progress.done();
    if (!diags.all().empty())
        std::fputs(diags.formatAll().c_str(), stderr);
    if (!result)
        return stats.cancelled ? 130 : 1;
    return cli::emitPolicyStudy(*result, args.outputs) ? 0 : 1;
}

int run(const Args& args)
{
    using namespace drasim;
    planner::Shard shard;
    if (!args.shard.empty() && !parseShard(args.shard, shard)) {
        cli::printError("--shard: '" + args.shard + "' is not K/N with 0 <= K < N");
        return 2;
    }
    if (const std::string problem = usageProblem(args); !problem.empty()) {
        cli::printError(problem);
        return 2;
    }
    Diagnostics diags;
    auto study = planner::loadStudy(args.study, diags);
    auto plan = study ? planner::preparePlan(*study, diags) : std::nullopt;
    if (!plan) {
        std::fputs(diags.formatAll().c_str(), stderr);
        return 1;
    }
    if (!applyVersionOptions(*plan, args.version))
        return 2;
    if (!args.scoring.empty() || !args.tieBreak.empty()) {
        const std::string scoring = args.scoring.empty() ? plan->scenario.scoring : args.scoring;
        const auto tieBreak
            = args.tieBreak.empty() ? plan->scenario.tieBreak : *scheduler::parseTieBreak(args.tieBreak);
        planner::overrideScoring(
            *plan, scoring, tieBreak, "--scoring=" + args.scoring + " --tie-break=" + args.tieBreak);
    }
    if (!plan->study.policies.empty()) {
        if (const std::string problem = policiesProblem(args); !problem.empty()) {
            cli::printError(problem);
            return 2;
        }
        return runPolicies(*plan, args, diags);
    }
    if (!args.emitJob.empty())
        return emitJob(*plan, args);

    std::unique_ptr<planner::StudyStore> store;
    int64_t studyId = 0;
    planner::PlanOptions options;
    options.threads = args.threads;
    options.shard = shard;
    options.shard.bisectionsOnly = args.bisectOnly;
    options.cancel = &g_interrupted;
    std::vector<planner::Evaluation> bisections;
    if (!args.bisections.empty()) {
        if (!readBisections(args.bisections, *plan, bisections))
            return 1;
        options.bisections = &bisections;
    }
    try {
        if (!args.db.empty()) {
            if ((!args.shard.empty() || args.bisectOnly) && !createParentFolders(args.db))
                return 1;
            store = std::make_unique<planner::StudyStore>(args.db);
            studyId = store->beginStudy(plan->study.name, plan->fingerprint, options.shard,
                plan->candidates.size(), plan->study.serviceLevels.size());
            options.onEvaluated = [&](const planner::Evaluation& e) { store->addEvaluation(studyId, e); };
        }
    } catch (const storage::StorageError& e) {
        cli::printError(e.what());
        return 1;
    }
    cli::StderrPercent progress;
    if (cli::stderrIsTerminal())
        options.progress = &progress;
    auto previous = std::signal(SIGINT, onInterrupt);
    planner::PlanStats stats;
    std::optional<planner::StudyResult> result;
    try {
        result = planner::runPlan(*plan, options, diags, &stats);
    } catch (const storage::StorageError& e) {
        std::signal(SIGINT, previous);
        progress.done();
        cli::printError(e.what());
        return 1;
    }
    std::signal(SIGINT, previous);
    progress.done();
    if (!diags.all().empty())
        std::fputs(diags.formatAll().c_str(), stderr);
    const std::string status = result ? "finished" : stats.cancelled ? "cancelled" : "failed";
    try {
        if (store)
            store->finishStudy(studyId, status,
                result && shard.count == 1 && !args.bisectOnly ? cli::studyJson(*result) : "");
    } catch (const storage::StorageError& e) {
        cli::printError(e.what());
        return 1;
    }
    if (!result)
        return stats.cancelled ? 130 : 1;
    if (shard.count > 1 || args.bisectOnly) {
        cli::printStdout(partDone(
            args, *plan, options.shard, result->evaluations, stats.simulationsRun, bisections.size()));
        return 0;
    }
    return cli::emitStudy(*result, args.outputs) ? 0 : 1;
}

drasim::cli::Runner define(CLI::App& app)
{
    using namespace drasim::cli;
    auto args = std::make_shared<Args>();
    app.description(
        R"(Runs a capacity study (apiVersion drasim.dev/v1alpha1, kind Study): which mix of the candidate
node shapes meets every service level on every seed at the least cost, at today's load and at each
load growth. Each shape alone is bisected, then mixes cheaper than the best single shape are
searched; every mix runs with every seed on a pool of threads. Prints the recommendation, its
spread across seeds, the frontier of cost against the main service level, and how the answer
moves with load. Same study, same output, whatever the thread count.)");
    app.footer(R"(Large studies: `--shard K/N --db FILE` runs one shard into its own SQLite file and
`drasim merge STUDY FILE...` prints the study from all of them. Every shard bisects each shape
first; `--bisect-only --db B` runs those bisections once, and `--shard K/N --bisections B` reads
them instead. `--emit-job FOLDER --shards N --threads T` copies the study and its files into FOLDER
and prints the Kubernetes Jobs that run the bisections, then every shard, on a cluster and merge
them (README: "Planning on a cluster").

Exit status: 0 on success, 1 when the study or its inputs are invalid (diagnostics on stderr),
2 on bad usage, 130 when interrupted.)");
    app.add_option("STUDY", args->study, "the Study YAML file")->required();
    app.add_option("--threads", args->threads, "simulations at once (default: every core)")
        ->option_text("N")
        ->transform(wholeNumber(1, 1024));
    app.add_option(
           "--frontier-csv", args->outputs.frontierCsv, "write the frontier of every load level as CSV")
        ->option_text("FILE");
    app.add_option("--frontier-json", args->outputs.frontierJson,
           "write the whole result (recommendations, frontiers, every mix evaluated) as JSON")
        ->option_text("FILE");
    addOutputOption(app, args->outputs.output, { "text", "json" }, "what to print on stdout (default text)");
    app.add_option("--db", args->db, "record the study and every evaluation in this SQLite file")
        ->option_text("FILE");
    app.add_option("--shard", args->shard, "run only shard K of N (0-based) into --db")->option_text("K/N");
    app.add_flag("--bisect-only", args->bisectOnly,
        "run only the bisection of each shape into --db: the stage the shards of a split share, run "
        "once before them");
    app.add_option("--bisections", args->bisections,
           "with --shard: read the bisections from this file (written by --bisect-only) instead of "
           "running them again")
        ->option_text("FILE");
    auto* emit = app.add_option("--emit-job", args->emitJob,
                        "copy the study with every file it reads into FOLDER (new), to put on the Jobs' "
                        "volume, and print the Indexed Job that runs it as --shards shards and the Job "
                        "that merges them")
                     ->option_text("FOLDER");
    app.add_option("--shards", args->shards, "shards of the Job (one per completion index)")
        ->option_text("N")
        ->transform(wholeNumber(1, 100000))
        ->needs(emit);
    app.add_option("--image", args->image, "container image of the Jobs (default drasim:latest)")
        ->option_text("IMAGE")
        ->needs(emit);
    app.add_option("--claim", args->claim,
           "PersistentVolumeClaim mounted at /data, holding FOLDER at its root (default drasim-data)")
        ->option_text("NAME")
        ->needs(emit);
    addClusterVersionOptions(app, args->version, false);
    app.add_option("--scoring", args->scoring,
           "run the study with this scoring policy instead of the scenario's: "
               + drasim::scheduler::scoringPolicyHelp())
        ->option_text("POLICY")
        ->check(drasim::cli::scoringPolicy());
    app.add_option("--tie-break", args->tieBreak, "and this tie-break: node-name or seeded-order")
        ->option_text("RULE")
        ->check(drasim::cli::oneOf({ "node-name", "seeded-order" }));
    return [args] { return run(*args); };
}

const bool registered = drasim::cli::registerCommand(
    { "plan", "find the cheapest hardware mix that meets a study's service levels", define });

} // namespace cmd_plan
} // namespace
