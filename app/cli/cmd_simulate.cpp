// SPDX-License-Identifier: Apache-2.0
// drasim simulate: runs a Scenario through the discrete-event simulator and prints its summary.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/cli/cli_support.h"
#include "app/cli/command_registry.h"
#include "app/cli/common_options.h"
#include "app/cli/scenario_store_io.h"
#include "app/cli/store_option.h"
#include "app/cli/stored_scenario.h"
#include "core/common/atomic_file.h"
#include "core/common/data_value.h"
#include "core/scenario/run_scenario.h"
#include "core/scenario/scenario.h"
#include "core/scenario/variant.h"
#include "core/sim/run_summary.h"
#include "core/sim/series_writer.h"
#include "core/sim/transcript_writer.h"
#include "core/storage/database.h"
#include "core/storage/run_store_recorder.h"

namespace {
namespace cmd_simulate {

/// Progress on stderr, only when stderr is a terminal (cli_support.h rule).
class StderrProgress : public drasim::ProgressSink
{
public:
    void progress(double fraction, std::string_view stage) override
    {
        int percent = int(fraction * 100.0);
        if (percent == m_last)
            return;
        m_last = percent;
        std::fprintf(stderr, "\r%.*s %3d%%", int(stage.size()), stage.data(), percent);
        std::fflush(stderr);
    }
    void done()
    {
        if (m_last >= 0)
            std::fputs("\r\033[K", stderr);
    }

private:
    int m_last = -1;
};

bool writeFile(const std::string& path, const std::string& text)
{
    std::string error;
    if (!drasim::writeFileAtomically(path, text, &error)) {
        drasim::cli::printError("cannot write " + path + ": " + error);
        return false;
    }
    return true;
}

struct Args
{
    std::string scenario;
    std::optional<uint64_t> seed;
    std::string summaryPath, seriesPath;
    std::string eventsPath; ///< --events: the event transcript ("-": standard output)
    std::string output = "text";
    bool save = false; ///< record the run in the store (--save, or implied by --db)
    std::string db, label;
    std::string schedulerConfig; ///< --scheduler-config
    drasim::cli::ClusterVersionOptions version;
};

int run(const Args& args)
{
    using namespace drasim;
    // A saved scenario runs from a private copy of its folder; messages name it store:NAME@N.
    std::unique_ptr<cli::StoredScenario> stored;
    std::string path = args.scenario;
    if (cli::namesStoredScenario(args.scenario)) {
        if (!(stored = cli::materializeStoredScenario(args.scenario, args.db)))
            return 1;
        path = stored->mainPath();
    }
    auto report = [&](const Diagnostics& d) {
        const std::string text = d.formatAll();
        std::fputs((stored ? stored->relabel(text) : text).c_str(), stderr);
    };
    Diagnostics diags;
    auto scenario = drasim::scenario::loadScenarioOrVariant(path, diags);
    if (!scenario) {
        report(diags);
        return 1;
    }
    if (stored && !cli::checkSelfContained(*stored, *scenario))
        return 1;
    // --kubernetes-version and --feature-gates apply over the scenario's spec.scheduler.
    std::string versionError;
    if (auto gates = args.version.over(scenario->featureGates, versionError))
        scenario->featureGates = *gates;
    else {
        cli::printError(versionError);
        return 2;
    }

    // --scheduler-config replaces the scenario's scheduler configuration and the settings it
    // carries (scoring, percentageOfNodesToScore, backoffs).
    if (!args.schedulerConfig.empty()) {
        const auto config = cli::readSchedulerConfigFile(args.schedulerConfig);
        if (!config)
            return 1;
        // Named as the scenario names its files: relative to its folder (checks resolve it there).
        const std::filesystem::path folder = std::filesystem::absolute(scenario->baseDir);
        scenario->schedulerConfigFile = std::filesystem::absolute(args.schedulerConfig)
                                            .lexically_normal()
                                            .lexically_relative(folder)
                                            .string();
        scenario->schedulerConfigDocument = DataValue();
        scenario->percentageOfNodesToScore = config->percentageOfNodesToScore;
        scenario->podInitialBackoff = config->podInitialBackoffSeconds * sim::kSecond;
        scenario->podMaxBackoff = config->podMaxBackoffSeconds * sim::kSecond;
        scenario->schedulerConfig = std::make_shared<const scheduler::SchedulerConfiguration>(*config);
    }

    sim::SeriesWriter series;
    sim::TranscriptWriter transcript;
    drasim::scenario::ScenarioRunOptions options;
    options.seed = args.seed;
    // Nothing subscribes to pod events unless the run is stored or transcribed.
    options.podEvents = !args.eventsPath.empty();
    if (!args.seriesPath.empty())
        options.recorders.push_back(&series);
    if (!args.eventsPath.empty())
        options.recorders.push_back(&transcript);
    std::unique_ptr<storage::RunStore> store;
    std::unique_ptr<storage::RunStoreRecorder> recorder;
    if (args.save || !args.db.empty()) {
        if (!(store = cli::openStore(args.db, false)))
            return 1;
        recorder = std::make_unique<storage::RunStoreRecorder>(*store, args.label);
        options.recorders.push_back(recorder.get());
        // The scenario's folder is saved as a revision (nothing new when it was saved before) and
        // the run refers to it, so `drasim scenarios export` gives back what ran.
        Diagnostics bundleDiags;
        auto bundle = drasim::scenario::readBundle(path, bundleDiags);
        if (!bundle) {
            report(bundleDiags);
            return 1;
        }
        try {
            store->saveScenarioRevision(
                bundle->name, bundle->hash, bundle->mainFile, cli::toStored(bundle->files));
        } catch (const storage::StorageError& e) {
            cli::printError(e.what());
            return 1;
        }
        recorder->setScenarioHash(bundle->hash);
        options.podEvents = true; // stored for the timeline and the comparison
    }
    StderrProgress progress;
    if (cli::stderrIsTerminal())
        options.progress = &progress;
    std::optional<sim::RunSummary> summary;
    try {
        summary = drasim::scenario::runScenario(*scenario, options, diags);
        if (recorder && !summary)
            recorder->abandon("failed");
    } catch (const storage::StorageError& e) {
        progress.done();
        cli::printError(e.what());
        return 1;
    }
    progress.done();
    // Warnings are worth seeing even on success; errors make the run fail.
    if (!diags.all().empty())
        report(diags);
    if (!summary)
        return 1;

    std::string json = toJson(sim::toData(*summary)) + "\n";
    if (!args.summaryPath.empty() && !writeFile(args.summaryPath, json))
        return 1;
    if (!args.seriesPath.empty() && !writeFile(args.seriesPath, series.csv()))
        return 1;
    if (args.eventsPath == "-")
        cli::printStdout(transcript.text());
    else if (!args.eventsPath.empty() && !writeFile(args.eventsPath, transcript.text()))
        return 1;
    cli::printStdout(args.output == "json" ? json : sim::formatText(*summary));
    if (recorder)
        std::fprintf(stderr, "run %lld saved in %s\n", static_cast<long long>(recorder->runId()),
            store->path().c_str());
    return summary->cancelled ? 130 : 0;
}

drasim::cli::Runner define(CLI::App& app)
{
    using namespace drasim::cli;
    auto args = std::make_shared<Args>();
    app.description(
        R"(Runs a Scenario (apiVersion drasim.dev/v1alpha1, kind Scenario) through the discrete-event
simulator: workloads arrive, the kube-scheduler model with the DRA allocator binds them, jobs
complete, injected failures happen; metrics are sampled at spec.metricInterval. Paths inside the
scenario are relative to the scenario file. A scenario saved in the store (`drasim scenarios
import`, or a run with --save) runs as store:NAME (its latest saved revision) or store:NAME@N,
read from the store --db names, exactly as its export would run.)");
    app.footer(R"(Exit status: 0 on success, 1 when the scenario or its inputs are invalid (diagnostics on
stderr), 2 on bad usage, 130 when interrupted.)");
    app.add_option("SCENARIO", args->scenario, "the Scenario (or Variant) YAML file, or store:NAME[@N]")
        ->required()
        ->check(storedScenarioSyntax());
    app.add_option_function<uint64_t>(
           "--seed", [args](uint64_t seed) { args->seed = seed; },
           "override spec.seed (same scenario and seed = byte-identical output)")
        ->option_text("N")
        ->transform(wholeNumber());
    app.add_option("--summary", args->summaryPath, "also write the JSON summary to FILE")
        ->option_text("FILE");
    app.add_option("--series", args->seriesPath,
           "write the metric time series as CSV (time_s,metric,key,value) to FILE")
        ->option_text("FILE");
    app.add_option("--events", args->eventsPath,
           "write every event of the run (pod events, injected events), one line each in simulated-time "
           "order, to FILE (\"-\": standard output, before the summary)")
        ->option_text("FILE");
    addOutputOption(app, args->output, { "text", "json" }, "what to print on stdout (default text)");
    app.add_flag("--save", args->save,
        "record the run (summary, series, pod events) in the store, for `drasim compare` and `drasim runs`");
    addStoreOption(app, args->db)
        ->description("record the run in this SQLite store instead of the default one (implies --save); "
                      "store:NAME is read from it too");
    app.add_option("--label", args->label, "a label for the recorded run")->option_text("TEXT");
    app.add_option("--scheduler-config", args->schedulerConfig,
           "a KubeSchedulerConfiguration (kube-scheduler's --config) that replaces the scenario's scheduler "
           "settings")
        ->option_text("FILE");
    addClusterVersionOptions(app, args->version, false);
    return [args] { return run(*args); };
}

const bool registered = drasim::cli::registerCommand({ "simulate",
    "run a scenario through the discrete-event simulator (wait times, utilization, cost)", define });

} // namespace cmd_simulate
} // namespace
