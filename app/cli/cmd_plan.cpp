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
#include <vector>

#include "app/cli/cli_support.h"
#include "app/cli/command_registry.h"
#include "app/cli/common_options.h"
#include "app/cli/plan_job.h"
#include "app/cli/plan_output.h"
#include "core/common/data_value.h"
#include "core/planner/planner.h"
#include "core/planner/policy_study.h"
#include "core/planner/shard_files.h"
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

/// The evaluations of the latest finished bisection stage of this study (same inputs) in `file`,
/// per part (scoring policy) of the study; false (reported) when it has none or cannot be read.
bool readBisections(const std::string& file, const drasim::planner::Plan& plan,
    std::vector<std::vector<drasim::planner::Evaluation>>& out)
{
    using namespace drasim;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec)) {
        cli::printError("--bisections: " + file + ": no such file");
        return false;
    }
    try {
        std::string error;
        if (!planner::readBisectionFile(plan, file, out, error)) {
            cli::printError("--bisections: " + error);
            return false;
        }
    } catch (const storage::StorageError& e) {
        cli::printError(e.what());
        return false;
    }
    return true;
}

/// The study's rows in --db: one per part of the run (each scoring policy of a study comparing
/// them, else the one search), begun as that part's search starts and closed as it ends, with
/// every evaluation recorded as it comes (one transaction each: a killed shard keeps them).
class PartRecorder
{
public:
    PartRecorder(
        const std::string& file, const drasim::planner::Plan& plan, const drasim::planner::Shard& shard)
        : m_store(file)
        , m_plan(plan)
        , m_shard(shard)
    { }

    void begin(size_t part, drasim::planner::PlanOptions& options)
    {
        const int64_t row
            = m_store.beginStudy(m_plan.study.name, m_plan.fingerprint, m_shard, m_plan.candidates.size(),
                m_plan.study.serviceLevels.size(), drasim::planner::storedPolicyName(m_plan, part));
        m_open = row;
        options.onEvaluated
            = [this, row](const drasim::planner::Evaluation& e) { m_store.addEvaluation(row, e); };
    }

    /// The part's search is done; a whole study's row keeps its report.
    void finished(const drasim::planner::StudyResult& result)
    {
        const bool whole = m_shard.count == 1 && !m_shard.bisectionsOnly;
        m_store.finishStudy(*m_open, "finished", whole ? drasim::cli::studyJson(result) : "");
        m_open.reset();
    }

    /// The part whose search did not end (if any) is marked so (failed, cancelled).
    void stopped(const std::string& status)
    {
        if (m_open)
            m_store.finishStudy(*m_open, status, "");
        m_open.reset();
    }

private:
    drasim::planner::StudyStore m_store;
    const drasim::planner::Plan& m_plan;
    drasim::planner::Shard m_shard;
    std::optional<int64_t> m_open;
};

/// The line a shard, or the bisection stage, prints instead of the report.
std::string partDone(const Args& args, const drasim::planner::Plan& plan, const drasim::planner::Shard& shard,
    int64_t evaluations, int64_t simulations, size_t read)
{
    const std::string part = shard.bisectionsOnly
        ? "bisections"
        : "shard " + std::to_string(shard.index) + "/" + std::to_string(shard.count);
    const std::string policies = plan.study.policies.empty()
        ? std::string()
        : " under " + std::to_string(plan.study.policies.size()) + " scoring policies";
    return part + " of study " + plan.study.name + policies + ": " + std::to_string(evaluations)
        + " mixes evaluated (" + std::to_string(simulations) + " simulations"
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
    return {};
}

/// The study's search: under each scoring policy of a study comparing them (runPolicyPlans), else
/// the one search as the one policy of the result, told to `hooks` the same way.
std::optional<drasim::planner::PolicyStudyResult> runParts(const drasim::planner::Plan& plan,
    const drasim::planner::PlanOptions& options, drasim::Diagnostics& diags,
    drasim::planner::PlanStats& stats, const drasim::planner::PolicyHooks& hooks)
{
    using namespace drasim;
    if (!plan.study.policies.empty())
        return planner::runPolicyPlans(plan, options, diags, &stats, hooks);
    planner::PlanOptions one = options;
    hooks.before(0, one);
    auto result = planner::runPlan(plan, one, diags, &stats);
    if (!result)
        return std::nullopt;
    hooks.after(0, *result);
    planner::PolicyStudyResult out;
    out.policies.push_back({ scheduler::ScoringPolicy::Default, std::move(*result) });
    return out;
}

/// The stdout of a run: the line a shard or the bisection stage prints, else the report.
int printOutcome(const Args& args, const drasim::planner::Plan& plan,
    const drasim::planner::PlanOptions& options, const drasim::planner::PolicyStudyResult& result,
    const drasim::planner::PlanStats& stats, size_t read)
{
    using namespace drasim;
    if (options.shard.count > 1 || options.shard.bisectionsOnly) {
        int64_t evaluations = 0;
        for (const auto& p : result.policies)
            evaluations += p.result.evaluations;
        cli::printStdout(partDone(args, plan, options.shard, evaluations, stats.simulationsRun, read));
        return 0;
    }
    if (plan.study.policies.empty())
        return cli::emitStudy(result.policies.front().result, args.outputs) ? 0 : 1;
    return cli::emitPolicyStudy(result, args.outputs) ? 0 : 1;
}

/// Runs the study here (whole, one shard, or the bisection stage), recorded in --db if given.
int runStudy(const drasim::planner::Plan& plan, const Args& args, const drasim::planner::Shard& shard,
    drasim::Diagnostics& diags)
{
    using namespace drasim;
    planner::PlanOptions options;
    options.threads = args.threads;
    options.shard = shard;
    options.shard.bisectionsOnly = args.bisectOnly;
    options.cancel = &g_interrupted;
    std::vector<std::vector<planner::Evaluation>> bisections; // per part
    if (!args.bisections.empty() && !readBisections(args.bisections, plan, bisections))
        return 1;
    std::unique_ptr<PartRecorder> store;
    try {
        if (!args.db.empty()) {
            if ((!args.shard.empty() || args.bisectOnly) && !createParentFolders(args.db))
                return 1;
            store = std::make_unique<PartRecorder>(args.db, plan, options.shard);
        }
    } catch (const storage::StorageError& e) {
        cli::printError(e.what());
        return 1;
    }
    planner::PolicyHooks hooks;
    hooks.before = [&](size_t part, planner::PlanOptions& one) {
        if (!bisections.empty())
            one.bisections = &bisections[part];
        if (store)
            store->begin(part, one);
    };
    hooks.after = [&](size_t, const planner::StudyResult& result) {
        if (store)
            store->finished(result);
    };
    cli::StderrPercent progress;
    if (cli::stderrIsTerminal())
        options.progress = &progress;
    auto previous = std::signal(SIGINT, onInterrupt);
    planner::PlanStats stats;
    std::optional<planner::PolicyStudyResult> result;
    try {
        result = runParts(plan, options, diags, stats, hooks);
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
    try {
        if (store && !result)
            store->stopped(stats.cancelled ? "cancelled" : "failed");
    } catch (const storage::StorageError& e) {
        cli::printError(e.what());
        return 1;
    }
    if (!result)
        return stats.cancelled ? 130 : 1;
    size_t read = 0;
    for (const auto& b : bisections)
        read += b.size();
    return printOutcome(args, plan, options, *result, stats, read);
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
    if (!plan->study.policies.empty()) {
        if (const std::string problem = policiesProblem(args); !problem.empty()) {
            cli::printError(problem);
            return 2;
        }
    }
    if (!args.scoring.empty() || !args.tieBreak.empty()) {
        const std::string scoring = args.scoring.empty() ? plan->scenario.scoring : args.scoring;
        const auto tieBreak
            = args.tieBreak.empty() ? plan->scenario.tieBreak : *scheduler::parseTieBreak(args.tieBreak);
        planner::overrideScoring(
            *plan, scoring, tieBreak, "--scoring=" + args.scoring + " --tie-break=" + args.tieBreak);
    }
    if (!args.emitJob.empty())
        return emitJob(*plan, args);
    return runStudy(*plan, args, shard, diags);
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
them (README: "Planning on a cluster"). A study comparing scoring policies (spec.policies) splits
the same way: shard K of N runs slice K of every policy's search, and each file keeps every
policy's part.

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
