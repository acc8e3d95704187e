// SPDX-License-Identifier: Apache-2.0
// drasim simulate: runs a Scenario through the discrete-event simulator and prints its summary.
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "app/cli/cli_support.h"
#include "app/cli/command_registry.h"
#include "core/common/atomic_file.h"
#include "core/common/data_value.h"
#include "core/sim/run_summary.h"
#include "core/scenario/run_scenario.h"
#include "core/scenario/scenario.h"
#include "core/sim/series_writer.h"

namespace {

const char* const kUsage = R"(Usage: drasim simulate SCENARIO.yaml [--seed N] [--summary FILE] [--series FILE]
                        [-o json|text]

Runs a Scenario (apiVersion drasim.dev/v1alpha1, kind Scenario) through the discrete-event
simulator: workloads arrive, the kube-scheduler model with the DRA allocator binds them, jobs
complete, injected failures happen; metrics are sampled at spec.metricInterval.

Options:
  --seed N          override spec.seed (same scenario and seed = byte-identical output)
  --summary FILE    also write the JSON summary to FILE
  --series FILE     write the metric time series as CSV (time_s,metric,key,value) to FILE
  -o json|text      what to print on stdout (default: text)

Paths inside the scenario are relative to the scenario file. Exit status: 0 on success, 1 when
the scenario or its inputs are invalid (diagnostics on stderr), 2 on bad usage, 130 when
interrupted.
)";

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

int run(const std::vector<std::string>& args)
{
    using namespace drasim;
    std::string scenarioPath, summaryPath, seriesPath, output = "text";
    std::optional<uint64_t> seed;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto value = [&](const char* name) -> const std::string* {
            if (i + 1 >= args.size()) {
                cli::printError(std::string("option ") + name + " needs a value");
                return nullptr;
            }
            return &args[++i];
        };
        if (a == "--seed") {
            const std::string* v = value("--seed");
            if (!v)
                return 2;
            char* end = nullptr;
            unsigned long long n = std::strtoull(v->c_str(), &end, 10);
            if (v->empty() || *end != '\0' || (*v)[0] == '-') {
                cli::printError("--seed: not a non-negative integer: " + *v);
                return 2;
            }
            seed = n;
        } else if (a == "--summary") {
            const std::string* v = value("--summary");
            if (!v)
                return 2;
            summaryPath = *v;
        } else if (a == "--series") {
            const std::string* v = value("--series");
            if (!v)
                return 2;
            seriesPath = *v;
        } else if (a == "-o" || a == "--output") {
            const std::string* v = value("-o");
            if (!v)
                return 2;
            output = *v;
            if (output != "json" && output != "text") {
                cli::printError("-o: unsupported output format '" + output + "' (json, text)");
                return 2;
            }
        } else if (!a.empty() && a[0] == '-' && a != "-") {
            cli::printError("unknown option '" + a + "' (see 'drasim simulate --help')");
            return 2;
        } else if (scenarioPath.empty()) {
            scenarioPath = a;
        } else {
            cli::printError("only one scenario file can be simulated at a time");
            return 2;
        }
    }
    if (scenarioPath.empty()) {
        cli::printError("missing SCENARIO.yaml (see 'drasim simulate --help')");
        return 2;
    }

    Diagnostics diags;
    auto scenario = drasim::scenario::loadScenario(scenarioPath, diags);
    if (!scenario) {
        std::fputs(diags.formatAll().c_str(), stderr);
        return 1;
    }

    sim::SeriesWriter series;
    drasim::scenario::ScenarioRunOptions options;
    options.seed = seed;
    options.podEvents = false; // nothing subscribes to pod events here
    if (!seriesPath.empty())
        options.recorders.push_back(&series);
    StderrProgress progress;
    if (cli::stderrIsTerminal())
        options.progress = &progress;
    auto summary = drasim::scenario::runScenario(*scenario, options, diags);
    progress.done();
    // Warnings are worth seeing even on success; errors make the run fail.
    if (!diags.all().empty())
        std::fputs(diags.formatAll().c_str(), stderr);
    if (!summary)
        return 1;

    std::string json = toJson(sim::toData(*summary)) + "\n";
    if (!summaryPath.empty() && !writeFile(summaryPath, json))
        return 1;
    if (!seriesPath.empty() && !writeFile(seriesPath, series.csv()))
        return 1;
    cli::printStdout(output == "json" ? json : sim::formatText(*summary));
    return summary->cancelled ? 130 : 0;
}

const bool registered = drasim::cli::registerCommand({
    "simulate",
    "run a scenario through the discrete-event simulator (wait times, utilization, cost)",
    kUsage,
    run,
});

} // namespace
