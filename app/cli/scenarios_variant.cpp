// SPDX-License-Identifier: Apache-2.0
#include "app/cli/scenarios_variant.h"

#include <algorithm>
#include <cstdio>
#include <optional>

#include "app/cli/cli_support.h"
#include "app/cli/common_options.h"
#include "app/cli/scenario_store_io.h"
#include "app/cli/store_option.h"
#include "core/common/data_value.h"
#include "core/scenario/bundle_folder.h"
#include "core/scenario/scenario_bundle.h"
#include "core/storage/database.h"

namespace drasim::cli {

namespace {

/// "KEY=VALUE" split at the first '=', both sides non-empty.
std::optional<std::pair<std::string, std::string>> keyValue(const std::string& text)
{
    const size_t eq = text.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
        return std::nullopt;
    return std::make_pair(text.substr(0, eq), text.substr(eq + 1));
}

std::optional<double> positive(const std::string& text)
{
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !(v > 0))
        return std::nullopt;
    return v;
}

std::optional<int64_t> count(const std::string& text)
{
    if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos || text.size() > 6)
        return std::nullopt;
    return std::stoll(text);
}

/// The overrides the flags ask for, in a fixed order (adds, removals, pool changes, workload
/// scaling, scheduling, failures); a malformed flag value is printed and gives nullopt.
std::optional<DataValue> overridesOf(const VariantArgs& a)
{
    DataValue list = DataValue::list();
    auto bad = [](const std::string& flag, const std::string& value, const std::string& form) {
        printError(flag + ": '" + value + "' is not " + form);
        return std::nullopt;
    };
    auto item = [&](const std::string& key, DataValue v) {
        DataValue m = DataValue::map();
        m.set(key, std::move(v));
        list.push(std::move(m));
    };
    for (const auto& text : a.addPools) {
        auto kv = keyValue(text);
        const size_t colon = kv ? kv->second.rfind(':') : std::string::npos;
        auto n = colon == std::string::npos ? std::nullopt : count(kv->second.substr(colon + 1));
        if (!n || colon == 0)
            return bad("--add-pool", text, "NAME=SHAPE:COUNT");
        DataValue p = DataValue::map();
        p.set("name", kv->first);
        p.set("shape", kv->second.substr(0, colon));
        p.set("count", *n);
        item("addNodePool", std::move(p));
    }
    for (const auto& name : a.removePools)
        item("removeNodePool", name);
    for (const auto& text : a.poolCounts) {
        auto kv = keyValue(text);
        auto n = kv ? count(kv->second) : std::nullopt;
        if (!n)
            return bad("--pool-count", text, "POOL=COUNT");
        DataValue p = DataValue::map();
        p.set("name", kv->first);
        p.set("count", *n);
        item("setNodePool", std::move(p));
    }
    for (const auto& text : a.poolShapes) {
        auto kv = keyValue(text);
        if (!kv)
            return bad("--pool-shape", text, "POOL=SHAPE");
        DataValue p = DataValue::map();
        p.set("name", kv->first);
        p.set("shape", kv->second);
        item("setNodePool", std::move(p));
    }
    for (const auto* flag : { &a.scaleArrival, &a.scaleDuration }) {
        const bool arrival = flag == &a.scaleArrival;
        for (const auto& text : *flag) {
            auto kv = keyValue(text);
            auto f = kv ? positive(kv->second) : std::nullopt;
            if (!f)
                return bad(
                    arrival ? "--scale-arrival" : "--scale-duration", text, "WORKLOAD=FACTOR (FACTOR > 0)");
            DataValue s = DataValue::map();
            s.set("name", kv->first);
            s.set(arrival ? "arrival" : "duration", *f);
            item("scaleWorkload", std::move(s));
        }
    }
    if (!a.scoring.empty()) {
        DataValue s = DataValue::map();
        s.set("scoring", a.scoring);
        item("scheduling", std::move(s));
    }
    for (const auto& text : a.failures) {
        const size_t at = text.find('@');
        if (at == std::string::npos || at == 0 || at + 1 == text.size())
            return bad("--fail", text, "NODE@TIME or NODE@TIME+DURATION");
        const std::string when = text.substr(at + 1);
        const size_t plus = when.find('+');
        DataValue f = DataValue::map();
        f.set("at", when.substr(0, plus));
        f.set("node", text.substr(0, at));
        if (plus != std::string::npos)
            f.set("for", when.substr(plus + 1));
        item("failure", std::move(f));
    }
    if (list.asList().empty()) {
        printError("a variant needs at least one override (--add-pool, --remove-pool, --pool-count, "
                   "--pool-shape, --scale-arrival, --scale-duration, --scoring, --fail)");
        return std::nullopt;
    }
    return list;
}

/// The files in a folder of their own (removed afterwards), read back as a bundle: the variant is
/// checked exactly as `drasim simulate` will read it from an export, and gets the same hash.
std::optional<scenario::ScenarioBundle> checkedBundle(
    const std::vector<scenario::BundleFile>& files, const std::string& mainFile)
{
    std::string error;
    auto folder = scenario::BundleFolder::create(files, error);
    if (!folder) {
        printError(error);
        return std::nullopt;
    }
    Diagnostics diags;
    std::optional<scenario::ScenarioBundle> bundle = scenario::readBundle(folder->path(mainFile), diags);
    if (!bundle) // messages name the variant's own files, not the temporary folder
        std::fputs(folder->relabel(diags.formatAll(), "").c_str(), stderr);
    return bundle;
}

} // namespace

CLI::App* addVariantCommand(CLI::App& scenarios, VariantArgs& args, std::string& db)
{
    CLI::App* v
        = scenarios.add_subcommand("variant", "save a scenario derived from a saved one by overrides");
    v->add_option("NAME", args.name, "the variant's name (a new scenario name)")->required();
    v->add_option("--from", args.base, "the saved scenario it derives from")->option_text("BASE")->required();
    v->add_option("--revision", args.revision, "the base's revision (default the latest saved)")
        ->option_text("N")
        ->transform(wholeNumber(1));
    v->add_option("--add-pool", args.addPools, "add a node pool")->option_text("NAME=SHAPE:COUNT");
    v->add_option("--remove-pool", args.removePools, "remove a node pool")->option_text("NAME");
    v->add_option("--pool-count", args.poolCounts, "change a pool's node count")->option_text("POOL=COUNT");
    v->add_option("--pool-shape", args.poolShapes, "change a pool's node shape")->option_text("POOL=SHAPE");
    v->add_option("--scale-arrival", args.scaleArrival, "multiply a workload's arrival rate")
        ->option_text("WORKLOAD=FACTOR");
    v->add_option("--scale-duration", args.scaleDuration, "multiply a workload's run times")
        ->option_text("WORKLOAD=FACTOR");
    v->add_option("--scoring", args.scoring, "scheduling policy")
        ->option_text("POLICY")
        ->check(scoringPolicy());
    v->add_option("--fail", args.failures, "a node fails at TIME (and returns after DURATION)")
        ->option_text("NODE@TIME[+DURATION]");
    addStoreOption(*v, db);
    return v;
}

int runVariant(const VariantArgs& args, const std::string& db)
{
    try {
        std::optional<DataValue> overrides = overridesOf(args);
        if (!overrides)
            return 1;
        auto store = openStore(db, true);
        if (!store)
            return 1;
        auto base = findSavedRevision(*store, args.base, args.revision);
        if (!base)
            return 1;
        if (!store->revisionsOf(args.name).empty()) {
            printError("scenario " + args.name + " is in the store already: a variant takes a new name");
            return 1;
        }
        DataValue doc = DataValue::map();
        doc.set("apiVersion", "drasim.dev/v1alpha1");
        doc.set("kind", "Variant");
        DataValue meta = DataValue::map();
        meta.set("name", args.name);
        doc.set("metadata", std::move(meta));
        DataValue spec = DataValue::map();
        spec.set("base", base->mainFile);
        spec.set("overrides", std::move(*overrides));
        doc.set("spec", std::move(spec));
        const std::string text = toYaml(doc);
        const std::string mainFile = args.name + ".variant.yaml";

        std::vector<scenario::BundleFile> files = toBundle(store->scenarioFiles(args.base, base->revision));
        for (const auto& f : files)
            if (f.path == mainFile) {
                printError("scenario " + args.base + " has a file " + mainFile + " already");
                return 1;
            }
        files.push_back({ mainFile, text });
        std::sort(files.begin(), files.end(), [](const auto& a, const auto& b) { return a.path < b.path; });
        auto bundle = checkedBundle(files, mainFile);
        if (!bundle)
            return 1;
        const storage::SavedRevision saved = store->saveScenarioRevision(args.name, bundle->hash, mainFile,
            toStored(bundle->files), storage::VariantOrigin { args.base, base->revision, text });
        printStdout("scenario " + args.name + " revision " + std::to_string(saved.revision)
            + " saved: a variant of " + args.base + " revision " + std::to_string(base->revision) + ", "
            + std::to_string(bundle->files.size()) + " files, " + bundle->hash.substr(0, 12) + "\n" + text);
        return 0;
    } catch (const storage::StorageError& e) {
        printError(e.what());
        return 1;
    }
}

} // namespace drasim::cli
