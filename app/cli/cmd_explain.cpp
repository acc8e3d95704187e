// SPDX-License-Identifier: Apache-2.0
// drasim explain: why a pod is pending (or where it would go), node by node and request by request.
#include <CLI/CLI.hpp>
#include <memory>
#include <string>
#include <vector>

#include "app/cli/cli_support.h"
#include "app/cli/cluster_input.h"
#include "app/cli/command_registry.h"
#include "app/cli/common_options.h"
#include "core/scheduler/batch.h"

namespace {

struct Args
{
    std::string pod;
    std::string output = "text";
    drasim::scheduler::SchedulerOptions scheduler;
    std::vector<std::string> files;
};

int run(const Args& args)
{
    using namespace drasim;
    const std::string podName = args.pod.find('/') == std::string::npos ? "default/" + args.pod : args.pod;
    session::Session session;
    auto cluster = cli::openCluster(session, args.files, args.scheduler);
    if (!cluster)
        return 1;
    const std::vector<api::Pod>& pods = session.objects().pods;
    auto batch = scheduler::scheduleAll(*cluster, pods, podName);
    if (!batch.explainFound || !batch.diagnosis) {
        bool exists = false;
        for (const auto& p : pods)
            if ((p.meta.namespace_.empty() ? "default" : p.meta.namespace_) + "/" + p.meta.name == podName)
                exists = true;
        cli::printError(exists ? "pod " + podName + " is not pending (it has spec.nodeName or has finished)"
                               : "pod " + podName + " not found in the input");
        return 1;
    }
    if (args.output == "text")
        cli::printStdout(scheduler::formatText(*batch.diagnosis));
    else if (args.output == "json")
        cli::printStdout(toJson(scheduler::toData(*batch.diagnosis), 2) + "\n");
    else
        cli::printStdout(toYaml(scheduler::toData(*batch.diagnosis)));
    return 0;
}

drasim::cli::Runner define(CLI::App& app)
{
    auto args = std::make_shared<Args>();
    app.description(
        R"(Schedules the pods of the manifests in input order, like `drasim allocate` with the same
scheduler options, up to POD (namespace/name, or name in namespace "default"), and reports for
POD: the scheduler's message, per node the node-level filter reasons (cpu, memory, taints,
selector...) or the DRA verdict, and per claim and request how many devices were rejected for
which reason (class selector false, request selector false, selector error, in use, counters
exhausted, capacity exhausted, taint not tolerated, node mismatch, pool incomplete or invalid).
Every device is judged on its own against each request, in the allocator's check order.)");
    app.footer("Exit status: 0 when POD was found and explained, 1 on invalid input or unknown POD, 2 on bad "
               "usage.");
    app.add_option("POD", args->pod, "the pod to explain: namespace/name, or name")->required();
    app.add_option("FILE", args->files, "manifests: files, directories, or - for stdin")->required();
    drasim::cli::addOutputOption(
        app, args->output, { "text", "json", "yaml" }, "output format (default text)");
    drasim::cli::addSchedulerOptions(app, args->scheduler);
    return [args] { return run(*args); };
}

const bool registered = drasim::cli::registerCommand(
    { "explain", "explain why a pod is pending: per node, claim and request", define });

} // namespace
