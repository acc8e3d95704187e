// SPDX-License-Identifier: Apache-2.0
// drasim plan: runs a capacity study (kind Study) and prints the recommendation; or one shard of
// it into its own SQLite file; or the Kubernetes Indexed Job that runs every shard.
#include <CLI/CLI.hpp>
#include <csignal>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include "app/cli/cli_support.h"
#include "app/cli/command_registry.h"
#include "app/cli/common_options.h"
#include "app/cli/plan_output.h"
#include "core/common/data_value.h"
#include "core/planner/planner.h"
#include "core/planner/study_store.h"
#include "core/storage/database.h"

namespace {

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
    bool emitJob = false;
    int shards = 0;
    std::string image = "drasim:latest";
    std::string claim = "drasim-data";
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

/// The Indexed Job: one pod per shard, each writing its SQLite file to the shared volume, where
/// the study folder also lives (mounted at /data; the study path is taken as relative to it).
std::string jobManifest(const drasim::planner::Study& study, const Args& args)
{
    using drasim::DataValue;
    const std::string index = "$(JOB_COMPLETION_INDEX)";
    DataValue container = DataValue::map();
    container.set("name", "plan");
    container.set("image", args.image);
    DataValue argv = DataValue::list();
    for (const std::string& a : { std::string("plan"), "/data/" + args.study, std::string("--shard"),
             index + "/" + std::to_string(args.shards), std::string("--db"),
             "/data/results/" + study.name + "-shard-" + index + ".db" })
        argv.push(a);
    container.set("command", DataValue(DataValue::List { DataValue("drasim") }));
    container.set("args", argv);
    DataValue mount = DataValue::map();
    mount.set("name", "data");
    mount.set("mountPath", "/data");
    container.set("volumeMounts", DataValue(DataValue::List { mount }));

    DataValue claim = DataValue::map();
    claim.set("claimName", args.claim);
    DataValue volume = DataValue::map();
    volume.set("name", "data");
    volume.set("persistentVolumeClaim", claim);

    DataValue podSpec = DataValue::map();
    podSpec.set("restartPolicy", "Never");
    podSpec.set("containers", DataValue(DataValue::List { container }));
    podSpec.set("volumes", DataValue(DataValue::List { volume }));
    DataValue tmpl = DataValue::map();
    tmpl.set("spec", podSpec);

    DataValue spec = DataValue::map();
    spec.set("completionMode", "Indexed");
    spec.set("completions", int64_t(args.shards));
    spec.set("parallelism", int64_t(args.shards));
    spec.set("backoffLimitPerIndex", int64_t(1));
    spec.set("template", tmpl);

    DataValue meta = DataValue::map();
    meta.set("name", "drasim-plan-" + study.name);
    DataValue labels = DataValue::map();
    labels.set("app.kubernetes.io/name", "drasim");
    labels.set("drasim.dev/study", study.name);
    meta.set("labels", labels);

    DataValue job = DataValue::map();
    job.set("apiVersion", "batch/v1");
    job.set("kind", "Job");
    job.set("metadata", meta);
    job.set("spec", spec);
    return "# Runs study " + study.name + " as " + std::to_string(args.shards) + " shards. The volume (claim "
        + args.claim
        + ") holds the study folder as given on the\n"
          "# command line and receives one SQLite file per shard under results/; then run\n"
          "#   drasim merge "
        + args.study + " results/" + study.name + "-shard-*.db\n" + drasim::toYaml(job);
}

int run(const Args& args)
{
    using namespace drasim;
    planner::Shard shard;
    if (!args.shard.empty() && !parseShard(args.shard, shard)) {
        cli::printError("--shard: '" + args.shard + "' is not K/N with 0 <= K < N");
        return 2;
    }
    if (!args.shard.empty() && args.db.empty()) {
        cli::printError("--shard needs --db FILE: each shard writes its results to its own SQLite file");
        return 2;
    }
    if (args.emitJob && args.shards < 1) {
        cli::printError("--emit-job needs --shards N (the number of shards, one per job index)");
        return 2;
    }
    if (args.emitJob && (!args.study.empty() && args.study[0] == '/')) {
        cli::printError("--emit-job: give the study path relative to the volume root, not " + args.study);
        return 2;
    }

    Diagnostics diags;
    auto study = planner::loadStudy(args.study, diags);
    auto plan = study ? planner::preparePlan(*study, diags) : std::nullopt;
    if (!plan) {
        std::fputs(diags.formatAll().c_str(), stderr);
        return 1;
    }
    if (args.emitJob) {
        cli::printStdout(jobManifest(*study, args));
        return 0;
    }

    std::unique_ptr<planner::StudyStore> store;
    int64_t studyId = 0;
    planner::PlanOptions options;
    options.threads = args.threads;
    options.shard = shard;
    options.cancel = &g_interrupted;
    try {
        if (!args.db.empty()) {
            store = std::make_unique<planner::StudyStore>(args.db);
            studyId = store->beginStudy(plan->study.name, plan->fingerprint, shard, plan->candidates.size(),
                plan->study.serviceLevels.size());
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
            store->finishStudy(studyId, status, result && shard.count == 1 ? cli::studyJson(*result) : "");
    } catch (const storage::StorageError& e) {
        cli::printError(e.what());
        return 1;
    }
    if (!result)
        return stats.cancelled ? 130 : 1;
    if (shard.count > 1) {
        cli::printStdout("shard " + std::to_string(shard.index) + "/" + std::to_string(shard.count)
            + " of study " + plan->study.name + ": " + std::to_string(result->evaluations)
            + " mixes evaluated (" + std::to_string(stats.simulationsRun) + " simulations) into " + args.db
            + "\n");
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
`drasim merge STUDY FILE...` prints the study from all of them; `--emit-job --shards N` prints a
Kubernetes Indexed Job that runs every shard.

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
    app.add_flag(
        "--emit-job", args->emitJob, "print the Indexed Job manifest that runs the study as --shards shards");
    app.add_option("--shards", args->shards, "shards of the Job (one per completion index)")
        ->option_text("N")
        ->transform(wholeNumber(1, 100000));
    app.add_option("--image", args->image, "container image of the Job (default drasim:latest)")
        ->option_text("IMAGE");
    app.add_option("--claim", args->claim, "PersistentVolumeClaim mounted at /data (default drasim-data)")
        ->option_text("NAME");
    return [args] { return run(*args); };
}

const bool registered = drasim::cli::registerCommand(
    { "plan", "find the cheapest hardware mix that meets a study's service levels", define });

} // namespace
