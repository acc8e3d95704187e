// SPDX-License-Identifier: Apache-2.0
// drasim explain: why a pod is pending (or where it would go), node by node and request by request.
#include <string>
#include <vector>

#include "app/cli/cli_support.h"
#include "app/cli/command_registry.h"
#include "core/scheduler/batch.h"
#include "core/scheduler/cluster.h"
#include "core/yamlio/loader.h"

namespace {

const char* const kUsage = R"(Usage: drasim explain POD [-o text|json|yaml] [--scoring POLICY] FILE...

Schedules the pods of the manifests in input order, like `drasim allocate`, up to POD
(namespace/name, or name in namespace "default"), and reports for POD: the scheduler's message,
per node the node-level filter reasons (cpu, memory, taints, selector...) or the DRA verdict, and
per claim and request how many devices were rejected for which reason (class selector false,
request selector false, selector error, in use, counters exhausted, capacity exhausted, taint not
tolerated, node mismatch, pool incomplete or invalid). Every device is judged on its own against
each request, in the allocator's check order.

Exit status: 0 when POD was found and explained, 1 on invalid input or unknown POD, 2 on bad usage.
)";

int run(const std::vector<std::string>& args)
{
    using namespace drasim;
    std::string output = "text";
    std::string podName;
    scheduler::SchedulerOptions options;
    std::vector<std::string> files;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "-o" || a == "--output") {
            if (i + 1 >= args.size()) {
                cli::printError("-o wants text, json or yaml");
                return 2;
            }
            output = args[++i];
            if (output != "text" && output != "json" && output != "yaml") {
                cli::printError("-o wants text, json or yaml");
                return 2;
            }
        } else if (a == "--scoring") {
            auto p = i + 1 < args.size() ? scheduler::parseScoringPolicy(args[++i]) : std::nullopt;
            if (!p) {
                cli::printError("--scoring wants default, most-allocated or least-allocated");
                return 2;
            }
            options.scoring = *p;
        } else if (a.size() > 1 && a[0] == '-' && a != "-") {
            cli::printError("unknown option '" + a + "' (see 'drasim explain --help')");
            return 2;
        } else if (podName.empty()) {
            podName = a;
        } else {
            files.push_back(a);
        }
    }
    if (podName.empty() || files.empty()) {
        cli::printError("explain needs POD and at least one FILE (see 'drasim explain --help')");
        return 2;
    }
    if (podName.find('/') == std::string::npos)
        podName = "default/" + podName;
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
    auto batch = scheduler::scheduleAll(cluster, pods, podName);
    if (!batch.explainFound || !batch.diagnosis) {
        bool exists = false;
        for (const auto& p : pods)
            if ((p.meta.namespace_.empty() ? "default" : p.meta.namespace_) + "/" + p.meta.name == podName)
                exists = true;
        cli::printError(exists ? "pod " + podName + " is not pending (it has spec.nodeName or has finished)"
                               : "pod " + podName + " not found in the input");
        return 1;
    }
    if (output == "text")
        cli::printStdout(scheduler::formatText(*batch.diagnosis));
    else if (output == "json")
        cli::printStdout(toJson(scheduler::toData(*batch.diagnosis), 2) + "\n");
    else
        cli::printStdout(toYaml(scheduler::toData(*batch.diagnosis)));
    return 0;
}

const bool registered = drasim::cli::registerCommand(
    { "explain", "explain why a pod is pending: per node, claim and request", kUsage, run });

} // namespace
