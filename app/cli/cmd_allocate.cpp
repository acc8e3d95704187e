// SPDX-License-Identifier: Apache-2.0
// drasim allocate: schedule every pending pod of a manifest bundle and print the claims and pods
// as kube-scheduler and the DRA allocator would leave them.
#include <CLI/CLI.hpp>
#include <memory>
#include <string>
#include <vector>

#include "app/cli/cli_support.h"
#include "app/cli/cluster_input.h"
#include "app/cli/command_registry.h"
#include "app/cli/common_options.h"
#include "core/session/one_shot.h"
#include "core/yamlio/writer.h"

namespace {
namespace cmd_allocate {

struct Args
{
    std::string output = "yaml";
    drasim::scheduler::SchedulerOptions scheduler;
    std::string schedulerConfig; ///< --scheduler-config
    drasim::cli::ClusterVersionOptions version;
    std::vector<std::string> files;
};

int run(const Args& args)
{
    using namespace drasim;
    session::Session session;
    std::string error;
    session.setFeatureGates(*args.version.over(api::FeatureGates(), error)); // checked at parse
    const auto options = cli::withSchedulerConfigFile(args.scheduler, args.schedulerConfig);
    if (!options)
        return 1;
    auto cluster = cli::openCluster(session, args.files, *options);
    if (!cluster)
        return 1;
    // The pods of a PodGroup take one group cycle together, and the group's status says how it went.
    std::vector<api::PodGroup> groups;
    auto batch = session::scheduleManifests(*cluster, session.objects(), session.featureGates(), groups);

    DataValue items = DataValue::list();
    // The scheduling.k8s.io objects first, each in the API version it was read in (their status
    // conditions as the scheduler left them), then claims and pods.
    session::appendSchedulingObjects(items, session.objects(), groups);
    for (const auto* c : cluster->claims())
        items.push(yamlio::toData(*c));
    for (const auto& p : batch.pods)
        items.push(yamlio::toData(p));
    DataValue list = DataValue::map();
    list.set("apiVersion", "v1");
    list.set("kind", "List");
    list.set("items", std::move(items));
    cli::printStdout(args.output == "json" ? toJson(list, 2) + "\n" : toYaml(list));
    return 0;
}

drasim::cli::Runner define(CLI::App& app)
{
    auto args = std::make_shared<Args>();
    app.description(
        R"(Loads the manifests (files, directories, or - for stdin), schedules every Pod without
spec.nodeName one at a time in input order (kube-scheduler filters and scores, the DRA
structured-parameters allocator; the pods of a PodGroup together, in one group cycle at the first
one's turn), and prints a `kind: List` with the scheduling.k8s.io objects
(PriorityClass, Workload, CompositePodGroup, PodGroup, each in its input API version; a PodGroup
with the PodGroupScheduled or PodGroupInitiallyScheduled condition its cycle left), then every
ResourceClaim (with status.allocation and status.reservedFor) followed by every Pod (spec.nodeName
when scheduled, a PodScheduled=False condition with the scheduler's message when not). Claims
generated from ResourceClaimTemplates are named <pod>-<pod claim name>.)");
    app.footer(R"(Exit status: 0 when the run completed (pending pods included), 1 on invalid input (errors on
stderr, nothing on stdout), 2 on bad usage.)");
    app.add_option("FILE", args->files, "manifests: files, directories, or - for stdin")->required();
    drasim::cli::addOutputOption(app, args->output, { "yaml", "json" }, "output format (default yaml)");
    drasim::cli::addSchedulerOptions(app, args->scheduler);
    drasim::cli::addSchedulerConfigOption(app, args->schedulerConfig);
    drasim::cli::addClusterVersionOptions(app, args->version);
    return [args] { return run(*args); };
}

const bool registered = drasim::cli::registerCommand(
    { "allocate", "schedule pending pods and allocate their ResourceClaims", define });

} // namespace cmd_allocate
} // namespace
