// SPDX-License-Identifier: Apache-2.0
// drasim allocate: schedule every pending pod of a manifest bundle and print the claims and pods
// as kube-scheduler and the DRA allocator would leave them.
#include <cstdlib>
#include <string>
#include <vector>

#include "app/cli/cli_support.h"
#include "app/cli/command_registry.h"
#include "core/scheduler/batch.h"
#include "core/scheduler/cluster.h"
#include "core/yamlio/loader.h"
#include "core/yamlio/writer.h"

namespace {

const char* const kUsage = R"(Usage: drasim allocate [-o yaml|json] [--scoring POLICY] [--seed N]
                       [--step-budget N] [--timeout SECONDS] FILE...

Loads the manifests (files, directories, or - for stdin), schedules every Pod without
spec.nodeName one at a time in input order (kube-scheduler filters and scores, the DRA
structured-parameters allocator), and prints a `kind: List` with every ResourceClaim (with
status.allocation and status.reservedFor) followed by every Pod (spec.nodeName when scheduled,
a PodScheduled=False condition with the scheduler's message when not). Claims generated from
ResourceClaimTemplates are named <pod>-<pod claim name>.

Options:
  -o yaml|json         output format (default yaml)
  --scoring POLICY     node scoring: default, most-allocated (bin packing), least-allocated
  --seed N             seed of the shareID generator (default 0)
  --step-budget N      devices the search may try per pod and node (default 2000000)
  --timeout SECONDS    wall-clock limit per pod and node (default 10, 0 = none)

Exit status: 0 when the run completed (pending pods included), 1 on invalid input (errors on
stderr, nothing on stdout), 2 on bad usage.
)";

bool parseUnsigned(const std::string& s, uint64_t& out)
{
    if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos)
        return false;
    out = std::strtoull(s.c_str(), nullptr, 10);
    return true;
}

int run(const std::vector<std::string>& args)
{
    using namespace drasim;
    std::string output = "yaml";
    scheduler::SchedulerOptions options;
    std::vector<std::string> files;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto value = [&](std::string& into) {
            if (i + 1 >= args.size())
                return false;
            into = args[++i];
            return true;
        };
        std::string v;
        if (a == "-o" || a == "--output") {
            if (!value(output) || (output != "yaml" && output != "json")) {
                cli::printError("-o wants yaml or json");
                return 2;
            }
        } else if (a == "--scoring") {
            auto p = value(v) ? scheduler::parseScoringPolicy(v) : std::nullopt;
            if (!p) {
                cli::printError("--scoring wants default, most-allocated or least-allocated");
                return 2;
            }
            options.scoring = *p;
        } else if (a == "--seed") {
            if (!value(v) || !parseUnsigned(v, options.seed)) {
                cli::printError("--seed wants a non-negative integer");
                return 2;
            }
        } else if (a == "--step-budget") {
            if (!value(v) || !parseUnsigned(v, options.searchStepBudget) || options.searchStepBudget == 0) {
                cli::printError("--step-budget wants a positive integer");
                return 2;
            }
        } else if (a == "--timeout") {
            char* end = nullptr;
            if (!value(v) || (options.filterTimeoutSeconds = std::strtod(v.c_str(), &end), *end != '\0')
                || options.filterTimeoutSeconds < 0) {
                cli::printError("--timeout wants a number of seconds");
                return 2;
            }
        } else if (a.size() > 1 && a[0] == '-' && a != "-") {
            cli::printError("unknown option '" + a + "' (see 'drasim allocate --help')");
            return 2;
        } else {
            files.push_back(a);
        }
    }
    if (files.empty()) {
        cli::printError("allocate needs at least one FILE (see 'drasim allocate --help')");
        return 2;
    }
    auto loaded = yamlio::loadPaths(files);
    if (!loaded.diagnostics.all().empty())
        std::fputs(loaded.diagnostics.formatAll().c_str(), stderr);
    if (loaded.diagnostics.hasErrors())
        return 1;
    std::vector<api::Pod> pods = loaded.objects.pods;
    scheduler::Cluster cluster(std::move(loaded.objects), options);
    if (!cluster.diagnostics().all().empty())
        std::fputs(cluster.diagnostics().formatAll().c_str(), stderr);
    if (cluster.diagnostics().hasErrors())
        return 1;
    auto batch = scheduler::scheduleAll(cluster, pods);

    DataValue items = DataValue::list();
    for (const auto* c : cluster.claims())
        items.push(yamlio::toData(*c));
    for (const auto& p : batch.pods)
        items.push(yamlio::toData(p));
    DataValue list = DataValue::map();
    list.set("apiVersion", "v1");
    list.set("kind", "List");
    list.set("items", std::move(items));
    cli::printStdout(output == "json" ? toJson(list, 2) + "\n" : toYaml(list));
    return 0;
}

const bool registered = drasim::cli::registerCommand(
    { "allocate", "schedule pending pods and allocate their ResourceClaims", kUsage, run });

} // namespace
