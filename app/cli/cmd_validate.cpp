// SPDX-License-Identifier: Apache-2.0
// drasim validate: load manifests like the API server would accept them and report every problem.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "app/cli/cli_support.h"
#include "app/cli/command_registry.h"
#include "app/cli/common_options.h"
#include "core/session/manifest_check.h"
#include "core/yamlio/loader.h"
#include "core/yamlio/writer.h"

namespace {
namespace cmd_validate {

std::string summary(const drasim::api::ObjectSet& o)
{
    std::map<std::string, std::string> lines; // sorted by kind for a stable output
    auto add = [&](const std::string& kind, size_t count, const std::string& extra = {}) {
        if (count > 0)
            lines[kind] = kind + ": " + std::to_string(count) + extra;
    };
    size_t devices = 0;
    for (const auto& s : o.resourceSlices)
        devices += s.devices.size();
    add("Namespace", o.namespaces.size());
    add("Node", o.nodes.size());
    add("Pod", o.pods.size());
    std::map<std::string, size_t> controllers;
    for (const auto& w : o.controllers)
        ++controllers[drasim::api::podControllerKindName(w.kind)];
    for (const auto& [kind, count] : controllers)
        add(kind, count);
    add("ResourceSlice", o.resourceSlices.size(), " (" + std::to_string(devices) + " devices)");
    add("DeviceClass", o.deviceClasses.size());
    add("ResourceClaim", o.resourceClaims.size());
    add("ResourceClaimTemplate", o.resourceClaimTemplates.size());
    add("DeviceTaintRule", o.deviceTaintRules.size());
    add("PriorityClass", o.priorityClasses.size());
    add("Workload", o.workloads.size());
    add("PodGroup", o.podGroups.size());
    add("CompositePodGroup", o.compositePodGroups.size());
    add("PodDisruptionBudget", o.podDisruptionBudgets.size());
    add("Service", o.services.size());
    std::string out;
    for (const auto& [kind, line] : lines)
        out += line + "\n";
    if (out.empty())
        out = "no objects\n";
    return out;
}

struct Args
{
    drasim::yamlio::LoadOptions options;
    drasim::cli::ClusterVersionOptions version;
    std::string output; ///< empty: the summary
    std::vector<std::string> paths;
};

int run(const Args& args)
{
    using namespace drasim;
    yamlio::LoadOptions options = args.options;
    std::string error;
    options.gates = *args.version.over(api::FeatureGates(), error); // checked at parse
    const std::string& output = args.output;
    auto result = session::validateManifestPaths(args.paths, options);
    const std::string report = result.diagnostics.formatAll();
    std::fwrite(report.data(), 1, report.size(), stderr);
    if (result.diagnostics.full())
        cli::printError("validate: stopped after " + std::to_string(options.maxErrors)
            + " errors (raise the limit with --max-errors)");
    if (result.diagnostics.hasErrors())
        return 1;
    if (result.objects.size() == 0) {
        // Like kubectl ("no objects passed to apply"): nothing to validate is a mistake.
        cli::printError("validate: no objects found in the given input");
        return 1;
    }
    if (output == "yaml")
        cli::printStdout(yamlio::toYamlList(result.objects));
    else if (output == "json")
        cli::printStdout(yamlio::toJsonList(result.objects) + "\n");
    else
        cli::printStdout(summary(result.objects));
    return 0;
}

drasim::cli::Runner define(CLI::App& app)
{
    using namespace drasim::cli;
    auto args = std::make_shared<Args>();
    app.description(R"(Loads Kubernetes manifests (multi-document YAML or JSON, `kind: List` dumps such as
`kubectl get -A -o yaml`, directories recursively, "-" for stdin) and validates them the way the
API server does with strict field validation: unknown fields, wrong types, missing required
fields, names, enum values, mutually exclusive fields, the DRA size limits, and CEL selectors
(compiled and type-checked as Kubernetes does). resource.k8s.io v1beta1/v1beta2 input is
converted to v1. Kinds: Node, Pod, Job, Deployment, ReplicaSet, StatefulSet, ResourceSlice,
DeviceClass, ResourceClaim, ResourceClaimTemplate, DeviceTaintRule, and scheduling.k8s.io
PriorityClass, Workload, PodGroup and CompositePodGroup in the versions --kubernetes-version
serves while their feature gates are on; other kinds are skipped with a warning.

Errors are printed on stderr as
  file:line:column: Kind namespace/name: field.path: what is wrong
and all of them are reported (up to --max-errors).)");
    app.footer(R"(Exit status: 0 when valid (a one-line summary per kind on stdout, warnings on stderr),
1 on invalid input (errors on stderr, nothing on stdout), 2 on bad usage.)");
    app.add_option("FILE|DIR|-", args->paths, "manifests: files, directories (recursively), or - for stdin")
        ->required();
    app.add_option("--max-errors", args->options.maxErrors,
           "stop after N errors (default " + std::to_string(args->options.maxErrors) + ")")
        ->option_text("N")
        ->transform(wholeNumber(1));
    app.add_option("--max-file-size", args->options.maxFileBytes,
           "refuse larger files (default " + std::to_string(args->options.maxFileBytes) + ")")
        ->option_text("BYTES")
        ->transform(wholeNumber(1));
    addOutputOption(app, args->output, { "yaml", "json" },
        "on success print the loaded objects as one `kind: List` instead of the\n"
        "summary (normalised: v1 API, defaults filled, quantities canonical)");
    addClusterVersionOptions(app, args->version);
    return [args] { return run(*args); };
}

const bool registered = drasim::cli::registerCommand(
    { "validate", "check manifests like the API server (strict fields, DRA limits, CEL selectors)", define });

} // namespace cmd_validate
} // namespace
