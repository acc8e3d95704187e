// SPDX-License-Identifier: Apache-2.0
#include "app/cli/stored_scenario.h"

#include <filesystem>
#include <optional>

#include "app/cli/cli_support.h"
#include "app/cli/scenario_store_io.h"
#include "app/cli/store_option.h"
#include "core/scenario/named_paths.h"
#include "core/storage/database.h"

namespace drasim::cli {

namespace {

constexpr std::string_view kPrefix = "store:";

struct StoredName
{
    std::string name;
    int64_t revision = 0; ///< 0 = the latest saved
};

/// store:NAME[@REVISION] split; nullopt with `error` set when malformed.
std::optional<StoredName> parseStoredName(const std::string& arg, std::string& error)
{
    const std::string rest = arg.substr(kPrefix.size());
    const size_t at = rest.rfind('@');
    StoredName out { rest.substr(0, at), 0 };
    if (out.name.empty()) {
        error = arg + ": no scenario name after store: (store:NAME or store:NAME@REVISION)";
        return std::nullopt;
    }
    if (at == std::string::npos)
        return out;
    const std::string digits = rest.substr(at + 1);
    // Digits only, as --revision takes them; at most 18 so the number fits.
    if (digits.empty() || digits.size() > 18 || digits.find_first_not_of("0123456789") != std::string::npos
        || std::stoll(digits) < 1) {
        error = arg + ": the revision after @ must be a whole number from 1";
        return std::nullopt;
    }
    out.revision = std::stoll(digits);
    return out;
}

} // namespace

bool namesStoredScenario(const std::string& arg)
{
    return arg.compare(0, kPrefix.size(), kPrefix) == 0;
}

CLI::Validator storedScenarioSyntax()
{
    return CLI::Validator(
        [](std::string& arg) -> std::string {
            std::string error;
            if (namesStoredScenario(arg) && !parseStoredName(arg, error))
                return error;
            return {};
        },
        "", "");
}

std::unique_ptr<StoredScenario> materializeStoredScenario(const std::string& arg, const std::string& db)
{
    std::string error;
    const std::optional<StoredName> wanted = parseStoredName(arg, error);
    if (!wanted) {
        printError(error);
        return nullptr;
    }
    auto store = openStore(db, true);
    if (!store)
        return nullptr;
    auto out = std::make_unique<StoredScenario>();
    try {
        const auto revision = findSavedRevision(*store, wanted->name, wanted->revision);
        if (!revision)
            return nullptr;
        out->mainFile = revision->mainFile;
        out->label = "store:" + wanted->name + "@" + std::to_string(revision->revision);
        out->folder = scenario::BundleFolder::create(
            toBundle(store->scenarioFiles(wanted->name, revision->revision)), error);
    } catch (const storage::StorageError& e) {
        printError(e.what());
        return nullptr;
    }
    if (!out->folder) {
        printError(arg + ": cannot write the scenario's files to run them: " + error);
        return nullptr;
    }
    return out;
}

bool checkSelfContained(const StoredScenario& stored, const scenario::Scenario& sc)
{
    const auto outside = scenario::pathsOutside(sc, stored.folder->folder());
    if (outside.empty())
        return true;
    const std::string file = stored.label + "/" + stored.mainFile;
    for (const scenario::NamedPath& p : outside) {
        const std::string shown = std::filesystem::path(p.path)
                                      .lexically_normal()
                                      .lexically_relative(stored.folder->folder())
                                      .string();
        printError(file + ": " + p.field + ": " + shown
            + " is outside the scenario's folder, and the store keeps only the files under it");
    }
    printError("export the scenario beside the files it names (drasim scenarios export) and run that folder");
    return false;
}

} // namespace drasim::cli
