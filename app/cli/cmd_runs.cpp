// SPDX-License-Identifier: Apache-2.0
// drasim runs: the runs kept in the store (drasim simulate --save): list, show, export, delete.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "app/cli/cli_support.h"
#include "app/cli/command_registry.h"
#include "app/cli/common_options.h"
#include "app/cli/store_option.h"
#include "app/cli/text_table.h"
#include "core/common/atomic_file.h"
#include "core/compare/compare_format.h"
#include "core/compare/comparison.h"
#include "core/sim/series_writer.h"
#include "core/storage/database.h"

namespace {
namespace cmd_runs {

using namespace drasim;

struct Args
{
    std::string db;
    std::string scenario;
    std::vector<int64_t> runs; ///< delete
    int64_t run = 0; ///< show, export
    std::string folder;
};

std::string revisionText(const storage::RunInfo& r)
{
    return r.scenarioRevision ? std::to_string(r.scenarioRevision) : "-";
}

int runList(const Args& args)
{
    auto store = cli::openStore(args.db, true);
    if (!store)
        return 1;
    std::vector<std::vector<std::string>> rows { { "run", "scenario", "revision", "seed", "status",
        "label" } };
    auto runs = store->runs();
    for (auto it = runs.rbegin(); it != runs.rend(); ++it) // oldest first, as they were made
        if (args.scenario.empty() || it->scenario == args.scenario)
            rows.push_back({ std::to_string(it->id), it->scenario, revisionText(*it),
                std::to_string(it->seed), it->status, it->label });
    cli::printStdout(
        rows.size() == 1 ? "no runs in " + store->path() + "\n" : cli::textTable(rows, "rlrrll"));
    return 0;
}

/// The runs, each in the store, or the first missing one reported.
std::optional<std::vector<storage::RunInfo>> findRuns(
    storage::RunStore& store, const std::vector<int64_t>& ids)
{
    std::vector<storage::RunInfo> out;
    for (int64_t id : ids) {
        auto info = store.run(id);
        if (!info) {
            cli::printError("run " + std::to_string(id) + " is not in the store " + store.path());
            return std::nullopt;
        }
        out.push_back(std::move(*info));
    }
    return out;
}

int runShow(const Args& args)
{
    auto store = cli::openStore(args.db, true);
    if (!store)
        return 1;
    auto found = findRuns(*store, { args.run });
    if (!found)
        return 1;
    const storage::RunInfo& r = found->front();
    std::string out = cli::textTable(
        { { "run", std::to_string(r.id) }, { "scenario", r.scenario + " revision " + revisionText(r) },
            { "seed", std::to_string(r.seed) }, { "label", r.label }, { "status", r.status },
            { "series", std::to_string(store->metrics(r.id).size()) + " metrics" },
            { "pod events", std::to_string(store->podEvents(r.id).size()) } },
        "ll");
    if (!r.summaryJson.empty()) {
        // The KPIs of one run are a comparison with nothing: the same rows drasim compare prints.
        const compare::Comparison c = compare::compareRuns(compare::loadRuns(*store, { r.id }));
        std::vector<std::vector<std::string>> rows { { "kpi", "unit", "value" } };
        for (const compare::Kpi& k : c.kpis) {
            char buf[64];
            std::snprintf(buf, sizeof buf, k.unit == "pods" || k.unit == "claims" ? "%.0f" : "%.2f",
                k.values[0].value_or(0));
            // A wait that pods never scheduled could still raise is only a lower bound.
            const bool atLeast = !k.valueBounds.empty() && k.valueBounds[0] == compare::Bound::AtLeast;
            rows.push_back({ k.name, k.unit, k.values[0] ? (atLeast ? ">=" : "") + std::string(buf) : "-" });
        }
        out += "\n" + cli::textTable(rows, "llr");
    }
    cli::printStdout(out);
    return 0;
}

std::string csvField(const std::string& s)
{
    if (s.find_first_of(",\"\n") == std::string::npos)
        return s;
    std::string out = "\"";
    for (char ch : s)
        out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return out + "\"";
}

/// The CSV `drasim simulate --series` writes (time_s,metric,key,value, in recording order). The
/// store keeps "metric/key" in one column; metric names never hold a '/', keys may.
std::string seriesCsv(const std::vector<storage::SeriesPoint>& points)
{
    sim::SeriesWriter writer;
    for (const auto& p : points) {
        const size_t slash = p.metric.find('/');
        sim::MetricSample sample;
        sample.time = sim::fromSeconds(p.time);
        sample.points.push_back({ p.metric.substr(0, slash),
            slash == std::string::npos ? std::string() : p.metric.substr(slash + 1), p.value });
        writer.onSample(sample);
    }
    return writer.csv();
}

std::string podEventsCsv(const std::vector<sim::PodEvent>& events)
{
    std::string out = "time_ms,type,pod,job,workload,node,message,devices,placements\n";
    for (const auto& e : events) {
        std::string devices, placements;
        for (const auto& d : e.devices)
            devices
                += (devices.empty() ? "" : " ") + d.claim + "=" + d.driver + "/" + d.pool + "/" + d.device;
        for (const auto& p : e.placements)
            placements += (placements.empty() ? "" : " ") + p;
        out += std::to_string(e.time) + "," + sim::podEventTypeName(e.type) + "," + csvField(e.pod) + ","
            + csvField(e.job) + "," + csvField(e.workload) + "," + csvField(e.node) + ","
            + csvField(e.message) + "," + csvField(devices) + "," + csvField(placements) + "\n";
    }
    return out;
}

int runExport(const Args& args)
{
    auto store = cli::openStore(args.db, true);
    if (!store)
        return 1;
    auto found = findRuns(*store, { args.run });
    if (!found)
        return 1;
    const storage::RunInfo& r = found->front();
    std::error_code ec;
    namespace fs = std::filesystem;
    if (fs::exists(args.folder, ec)
        && !(fs::is_directory(args.folder, ec) && fs::is_empty(args.folder, ec))) {
        cli::printError(args.folder + ": exists and is not an empty folder; nothing was written");
        return 1;
    }
    fs::create_directories(args.folder, ec);
    const std::vector<std::pair<std::string, std::string>> files {
        { "summary.json", r.summaryJson.empty() ? "" : r.summaryJson + "\n" },
        { "series.csv", seriesCsv(store->recordedSeries(r.id)) },
        { "pod-events.csv", podEventsCsv(store->podEvents(r.id)) },
    };
    for (const auto& [name, content] : files) {
        std::string error;
        if (!writeFileAtomically((fs::path(args.folder) / name).string(), content, &error)) {
            cli::printError("cannot write " + (fs::path(args.folder) / name).string() + ": " + error);
            return 1;
        }
    }
    cli::printStdout("run " + std::to_string(r.id) + " written to " + args.folder
        + ": summary.json, series.csv, pod-events.csv\n");
    return 0;
}

int runDelete(const Args& args)
{
    auto store = cli::openStore(args.db, true);
    if (!store)
        return 1;
    // Every run must exist before any is deleted: a typo deletes nothing.
    if (!findRuns(*store, args.runs))
        return 1;
    std::string out;
    for (int64_t id : args.runs)
        if (store->deleteRun(id))
            out += "run " + std::to_string(id) + " deleted\n";
    cli::printStdout(out);
    return 0;
}

cli::Runner define(CLI::App& app)
{
    using namespace drasim::cli;
    auto args = std::make_shared<Args>();
    app.description(
        R"(The runs kept in the store (--db FILE, default under the user's data folder); `drasim simulate
--save` records them with their scenario revision, seed, summary, time series and pod events.)");
    app.footer(R"(Exit status: 0 on success, 1 when a run or the store is missing or unreadable, or a folder
cannot be written, 2 on bad usage.)");
    app.require_subcommand(1, 1);
    CLI::App* list = app.add_subcommand("list", "runs, oldest first");
    list->add_option("--scenario", args->scenario, "only the runs of this scenario")->option_text("NAME");
    addStoreOption(*list, args->db);
    CLI::App* show = app.add_subcommand("show", "one run: what ran, and its KPIs");
    show->add_option("RUN", args->run, "the run's number")->required()->transform(wholeNumber(1));
    addStoreOption(*show, args->db);
    CLI::App* exportCmd
        = app.add_subcommand("export", "write a run as summary.json, series.csv and pod-events.csv");
    exportCmd->add_option("RUN", args->run, "the run's number")->required()->transform(wholeNumber(1));
    exportCmd->add_option("FOLDER", args->folder, "where to write it (new or empty)")->required();
    addStoreOption(*exportCmd, args->db);
    CLI::App* del = app.add_subcommand("delete", "delete runs with their series and pod events");
    del->add_option("RUN", args->runs, "run numbers")->required()->transform(wholeNumber(1));
    addStoreOption(*del, args->db);
    return [=] {
        if (list->parsed())
            return guardStoreErrors<compare::CompareError>([&] { return runList(*args); });
        if (show->parsed())
            return guardStoreErrors<compare::CompareError>([&] { return runShow(*args); });
        if (exportCmd->parsed())
            return guardStoreErrors<compare::CompareError>([&] { return runExport(*args); });
        if (del->parsed())
            return guardStoreErrors<compare::CompareError>([&] { return runDelete(*args); });
        return 2;
    };
}

const bool registered
    = drasim::cli::registerCommand({ "runs", "runs kept in the store: list, show, export, delete", define });

} // namespace cmd_runs
} // namespace
