// SPDX-License-Identifier: Apache-2.0
// drasim explain: why a pod is pending (or where it would go), node by node and request by request.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/cli/cli_support.h"
#include "app/cli/cluster_input.h"
#include "app/cli/command_registry.h"
#include "app/cli/common_options.h"
#include "core/scenario/prepare.h"
#include "core/scenario/variant.h"
#include "core/scheduler/batch.h"
#include "core/session/one_shot.h"
#include "core/sim/run_prepared.h"
#include "core/sim/sim_time.h"

namespace {
namespace cmd_explain {

struct Args
{
    std::string pod;
    std::string output = "text";
    drasim::scheduler::SchedulerOptions scheduler;
    std::string schedulerConfig; ///< --scheduler-config
    drasim::cli::ClusterVersionOptions version;
    std::vector<std::string> files;
    std::string at; ///< --at: explain the pod of a scenario's run at this simulated time
    std::string schedulerOptionGiven; ///< the first scheduler option on the command line, if any
};

void printDiagnosis(const std::string& output, const drasim::scheduler::PodDiagnosis& diagnosis)
{
    using namespace drasim;
    if (output == "text")
        cli::printStdout(scheduler::formatText(diagnosis));
    else if (output == "json")
        cli::printStdout(toJson(scheduler::toData(diagnosis), 2) + "\n");
    else
        cli::printStdout(toYaml(scheduler::toData(diagnosis)));
}

/// --at: the scenario is run again (same seed, so the same run) up to the time, and the pod is
/// explained against the cluster as the run has it then.
int runAt(const Args& args, const std::string& podName)
{
    using namespace drasim;
    sim::SimTime at = 0;
    std::string error;
    if (!sim::parseDuration(args.at, at, &error)) {
        cli::printError("--at: " + error);
        return 2;
    }
    if (!args.schedulerOptionGiven.empty()) {
        cli::printError(
            args.schedulerOptionGiven + " does not go with --at: the scenario sets its scheduler");
        return 2;
    }
    if (args.files.size() != 1) {
        cli::printError("--at takes one scenario file, got " + std::to_string(args.files.size()) + " inputs");
        return 2;
    }
    Diagnostics diags;
    auto scenario = scenario::loadScenarioOrVariant(args.files.front(), diags);
    if (scenario) {
        std::string error;
        auto gates = args.version.over(scenario->featureGates, error);
        if (!gates) {
            cli::printError(error);
            return 2;
        }
        scenario->featureGates = *gates;
    }
    scenario::PrepareOptions prepare;
    auto prepared = scenario ? scenario::prepareScenario(*scenario, prepare, diags) : std::nullopt;
    if (prepared && at > prepared->duration) {
        cli::printError("--at " + args.at + " is past the end of the scenario (duration "
            + sim::formatDuration(prepared->duration) + ")");
        return 1;
    }
    std::optional<sim::PodExplanationAt> explained;
    if (prepared) {
        sim::RunOptions options;
        options.podEvents = false; // nothing listens; the run is the same either way
        explained = sim::explainPodAt(*prepared, options, at, podName, diags);
    }
    if (!explained) {
        std::fputs(diags.formatAll().c_str(), stderr);
        return 1;
    }
    if (!explained->diagnosis) {
        cli::printError(explained->problem);
        return 1;
    }
    printDiagnosis(args.output, *explained->diagnosis);
    return 0;
}

int run(const Args& args)
{
    using namespace drasim;
    const std::string podName = args.pod.find('/') == std::string::npos ? "default/" + args.pod : args.pod;
    if (!args.at.empty())
        return runAt(args, podName);
    session::Session session;
    std::string error;
    session.setFeatureGates(*args.version.over(api::FeatureGates(), error)); // checked at parse
    const auto options = cli::withSchedulerConfigFile(args.scheduler, args.schedulerConfig);
    if (!options)
        return 1;
    auto cluster = cli::openCluster(session, args.files, *options);
    if (!cluster)
        return 1;
    const std::vector<api::Pod>& pods = session.objects().pods;
    // As `drasim allocate` schedules them: the pods of a PodGroup in one group cycle.
    auto batch = session::explainManifestPod(*cluster, session.objects(), session.featureGates(), podName);
    if (!batch.explainFound || !batch.diagnosis) {
        bool exists = false;
        for (const auto& p : pods)
            if ((p.meta.namespace_.empty() ? "default" : p.meta.namespace_) + "/" + p.meta.name == podName)
                exists = true;
        cli::printError(exists ? "pod " + podName + " is not pending (it has spec.nodeName or has finished)"
                               : "pod " + podName + " not found in the input");
        return 1;
    }
    printDiagnosis(args.output, *batch.diagnosis);
    return 0;
}

drasim::cli::Runner define(CLI::App& app)
{
    auto args = std::make_shared<Args>();
    app.description(
        R"(Schedules the pods of the manifests in input order, like `drasim allocate` with the same
scheduler options (the pods of a PodGroup together, in one group cycle), up to POD
(namespace/name, or name in namespace "default"), and reports for POD: for a member of a
PodGroup, what its group's cycle said first; the scheduler's message, per node the node-level filter reasons (cpu, memory, taints,
selector...) or the DRA verdict, and per claim and request how many devices were rejected for
which reason (class selector false, request selector false, selector error, in use, counters
exhausted, capacity exhausted, taint not tolerated, node mismatch, pool incomplete or invalid).
Every device is judged on its own against each request, in the allocator's check order.

With --at T, FILE is one Scenario: it is simulated again with its seed up to the
simulated time T (every event at or before T, none after), and POD, pending at T, is given one
scheduling cycle on the cluster as the run has it then. The scenario's own scheduler settings
apply.)");
    app.footer("Exit status: 0 when POD was found and explained, 1 on invalid input or unknown POD, 2 on bad "
               "usage.");
    app.add_option("POD", args->pod, "the pod to explain: namespace/name, or name")->required();
    app.add_option("FILE", args->files, "manifests: files, directories, or - for stdin")->required();
    drasim::cli::addOutputOption(
        app, args->output, { "text", "json", "yaml" }, "output format (default text)");
    drasim::cli::addSchedulerOptions(app, args->scheduler);
    drasim::cli::addSchedulerConfigOption(app, args->schedulerConfig);
    drasim::cli::addClusterVersionOptions(app, args->version);
    app.add_option("--at", args->at, "explain POD of the scenario FILE at this simulated time (90m, 1h30m)");
    return [args, &app] {
        for (const char* name : { "--scoring", "--seed", "--step-budget", "--timeout", "--scheduler-config" })
            if (args->schedulerOptionGiven.empty() && app.count(name) > 0)
                args->schedulerOptionGiven = name;
        return run(*args);
    };
}

const bool registered = drasim::cli::registerCommand(
    { "explain", "explain why a pod is pending: per node, claim and request", define });

} // namespace cmd_explain
} // namespace
