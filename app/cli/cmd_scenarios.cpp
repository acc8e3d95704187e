// SPDX-License-Identifier: Apache-2.0
// drasim scenarios: the scenarios kept in the store, every saved revision of each, as folders of
// YAML in and out (import, export), and variants derived from them.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <string>

#include "app/cli/cli_support.h"
#include "app/cli/command_registry.h"
#include "app/cli/common_options.h"
#include "app/cli/scenario_store_io.h"
#include "app/cli/scenarios_variant.h"
#include "app/cli/store_option.h"
#include "app/cli/text_table.h"
#include "core/scenario/scenario_bundle.h"
#include "core/storage/database.h"

namespace {
namespace cmd_scenarios {

using namespace drasim;

struct Args
{
    std::string db;
    std::string name, path, folder;
    int64_t revision = 0;
    cli::VariantArgs variant;
};

std::string shortHash(const std::string& hash)
{
    return hash.substr(0, 12);
}

int runList(const Args& args)
{
    auto store = cli::openStore(args.db, true);
    if (!store)
        return 1;
    std::vector<std::vector<std::string>> rows { { "scenario", "revisions", "saved", "runs", "latest" } };
    for (const std::string& name : store->revisedScenarioNames()) {
        int64_t saved = 0, runs = 0;
        const auto revisions = store->revisionsOf(name);
        for (const auto& r : revisions) {
            saved += r.mainFile.empty() ? 0 : 1;
            runs += r.runs;
        }
        rows.push_back({ name, std::to_string(revisions.size()), std::to_string(saved), std::to_string(runs),
            std::to_string(revisions.back().revision) + " " + shortHash(revisions.back().hash) });
    }
    cli::printStdout(
        rows.size() == 1 ? "no scenarios in " + store->path() + "\n" : cli::textTable(rows, "lrrrl"));
    return 0;
}

int runShow(const Args& args)
{
    auto store = cli::openStore(args.db, true);
    if (!store)
        return 1;
    const auto revisions = store->revisionsOf(args.name);
    auto chosen = cli::findSavedRevision(*store, args.name, args.revision);
    if (!chosen)
        return 1;
    std::vector<std::vector<std::string>> rows { { "revision", "hash", "saved", "runs", "origin" } };
    for (const auto& r : revisions) {
        std::string origin;
        if (r.variantOf)
            origin = "variant of " + r.variantOf->base + " revision "
                + std::to_string(r.variantOf->baseRevision);
        rows.push_back({ std::to_string(r.revision), shortHash(r.hash),
            r.mainFile.empty() ? "no (run only)" : std::to_string(r.files) + " files", std::to_string(r.runs),
            origin });
    }
    std::string out = "scenario " + args.name + "\n" + cli::textTable(rows, "rllrl");
    out += "\nrevision " + std::to_string(chosen->revision) + " (" + chosen->hash + "), main file "
        + chosen->mainFile + ":\n";
    std::vector<std::vector<std::string>> files;
    for (const auto& f : store->scenarioFiles(args.name, chosen->revision))
        files.push_back({ "  " + f.path, std::to_string(f.content.size()) + " bytes" });
    out += cli::textTable(files, "lr");
    if (chosen->variantOf)
        out += "\noverrides of " + chosen->variantOf->base + " revision "
            + std::to_string(chosen->variantOf->baseRevision) + ":\n" + chosen->variantOf->overrides;
    cli::printStdout(out);
    return 0;
}

int runImport(const Args& args)
{
    Diagnostics diags;
    auto bundle = scenario::readBundle(args.path, diags);
    if (!bundle) {
        std::fputs(diags.formatAll().c_str(), stderr);
        return 1;
    }
    auto store = cli::openStore(args.db, false);
    if (!store)
        return 1;
    const storage::SavedRevision saved = store->saveScenarioRevision(
        bundle->name, bundle->hash, bundle->mainFile, cli::toStored(bundle->files));
    cli::printStdout("scenario " + bundle->name + " revision " + std::to_string(saved.revision) + " "
        + (saved.created ? "saved" : "unchanged (this content was saved before)") + ": "
        + std::to_string(bundle->files.size()) + " files, " + shortHash(bundle->hash) + "\n");
    return 0;
}

int runExport(const Args& args)
{
    auto store = cli::openStore(args.db, true);
    if (!store)
        return 1;
    auto chosen = cli::findSavedRevision(*store, args.name, args.revision);
    if (!chosen)
        return 1;
    std::string error;
    const auto files = store->scenarioFiles(args.name, chosen->revision);
    if (!scenario::writeBundle(cli::toBundle(files), args.folder, error)) {
        cli::printError(error);
        return 1;
    }
    cli::printStdout("scenario " + args.name + " revision " + std::to_string(chosen->revision) + ": "
        + std::to_string(files.size()) + " files written to " + args.folder + "\n");
    return 0;
}

cli::Runner define(CLI::App& app)
{
    using namespace drasim::cli;
    auto args = std::make_shared<Args>();
    app.description(
        R"(The scenarios kept in the store (--db FILE, default under the user's data folder). A scenario is
saved as a folder of YAML: its scenario.yaml and every YAML file under that folder, byte for byte.
Each different content is a new revision of the scenario's name (metadata.name); saving a content
again changes nothing. `drasim simulate --save` saves the scenario it runs the same way.
A variant is a scenario derived from a saved one by overrides (node pools added, removed,
resized or reshaped; a workload's arrival rate or run times scaled; the scheduling policy; node
failures), saved as a Variant document beside its base's files: `drasim simulate store:NAME --save`
records runs of the variant (as does running its export's NAME.variant.yaml).)");
    app.footer(R"(Exit status: 0 on success, 1 when a scenario, revision or store is missing or invalid, or a
folder cannot be written, 2 on bad usage.)");
    app.require_subcommand(1, 1);
    CLI::App* list = app.add_subcommand("list", "scenarios with their revisions and runs");
    addStoreOption(*list, args->db);
    CLI::App* show = app.add_subcommand("show", "every revision of a scenario, and the files of one");
    show->add_option("NAME", args->name, "the scenario's name")->required();
    show->add_option(
            "--revision", args->revision, "which revision's files to list (default the latest saved)")
        ->option_text("N")
        ->transform(wholeNumber(1));
    addStoreOption(*show, args->db);
    CLI::App* import = app.add_subcommand("import", "save a scenario folder (or file) as a revision");
    import->add_option("PATH", args->path, "a folder with a scenario.yaml, or a Scenario file")->required();
    addStoreOption(*import, args->db);
    CLI::App* exportCmd = app.add_subcommand("export", "write a saved revision as a folder of YAML");
    exportCmd->add_option("NAME", args->name, "the scenario's name")->required();
    exportCmd->add_option("FOLDER", args->folder, "where to write it (new or empty)")->required();
    exportCmd->add_option("--revision", args->revision, "which revision (default the latest saved)")
        ->option_text("N")
        ->transform(wholeNumber(1));
    addStoreOption(*exportCmd, args->db);
    CLI::App* variant = addVariantCommand(app, args->variant, args->db);
    return [=] {
        if (list->parsed())
            return guardStoreErrors([&] { return runList(*args); });
        if (show->parsed())
            return guardStoreErrors([&] { return runShow(*args); });
        if (import->parsed())
            return guardStoreErrors([&] { return runImport(*args); });
        if (exportCmd->parsed())
            return guardStoreErrors([&] { return runExport(*args); });
        if (variant->parsed())
            return runVariant(args->variant, args->db);
        return 2;
    };
}

const bool registered = drasim::cli::registerCommand(
    { "scenarios", "saved scenarios and their revisions: list, show, import, export, variant", define });

} // namespace cmd_scenarios
} // namespace
