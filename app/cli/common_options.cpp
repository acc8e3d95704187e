// SPDX-License-Identifier: Apache-2.0
#include "app/cli/common_options.h"

#include <charconv>
#include <cmath>
#include <cstdio>

#include "core/scenario/scheduler_config_reader.h"

namespace drasim::cli {

CLI::Validator wholeNumber(uint64_t min, uint64_t max)
{
    const std::string range = max == std::numeric_limits<uint64_t>::max()
        ? (min == 0 ? std::string() : " (at least " + std::to_string(min) + ")")
        : " between " + std::to_string(min) + " and " + std::to_string(max);
    return CLI::Validator(
        [min, max, range](std::string& text) -> std::string {
            uint64_t value = 0;
            const char* end = text.data() + text.size();
            const auto [ptr, ec] = std::from_chars(text.data(), end, value);
            const bool digitsOnly
                = !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
            if (!digitsOnly || ptr != end || ec != std::errc() || value < min || value > max)
                return "'" + text + "' is not a whole number" + range;
            text = std::to_string(value); // no leading zero left for CLI11 to read as octal
            return {};
        },
        "", "whole number");
}

CLI::Validator nonNegativeSeconds()
{
    return CLI::Validator(
        [](std::string& text) -> std::string {
            double value = 0;
            const char* end = text.data() + text.size();
            const auto [ptr, ec] = std::from_chars(text.data(), end, value);
            if (text.empty() || ptr != end || ec != std::errc() || !(value >= 0) || !std::isfinite(value))
                return "'" + text + "' is not a number of seconds (0 or more)";
            return {};
        },
        "", "seconds");
}

CLI::Validator oneOf(std::vector<std::string> words)
{
    std::string list;
    for (const auto& w : words)
        list += (list.empty() ? "" : ", ") + w;
    return CLI::Validator(
        [words = std::move(words), list](std::string& text) -> std::string {
            for (const auto& w : words)
                if (text == w)
                    return {};
            return "'" + text + "' is not one of " + list;
        },
        "", "one of");
}

CLI::Validator scoringPolicy()
{
    return CLI::Validator(
        [](const std::string& name) -> std::string {
            return scheduler::parseScoringPolicy(name) ? std::string()
                                                       : scheduler::unknownScoringPolicyMessage(name);
        },
        "", "scoring policy");
}

CLI::Option* addOutputOption(CLI::App& app, std::string& format, const std::vector<std::string>& formats,
    const std::string& description)
{
    std::string text;
    for (const auto& f : formats)
        text += (text.empty() ? "" : "|") + f;
    return app.add_option("-o,--output", format, description)->option_text(text)->transform(oneOf(formats));
}

void addSchedulerOptions(CLI::App& app, scheduler::SchedulerOptions& options)
{
    const std::string group = "Scheduler options";
    app.add_option_function<std::string>(
           "--scoring",
           [&options](const std::string& name) { options.scoring = *scheduler::parseScoringPolicy(name); },
           "node scoring: " + scheduler::scoringPolicyHelp())
        ->option_text("POLICY")
        ->check(scoringPolicy())
        ->group(group);
    app.add_option_function<std::string>(
           "--tie-break",
           [&options](const std::string& name) { options.tieBreak = *scheduler::parseTieBreak(name); },
           "among the best nodes: node-name (the first by name, default) or seeded-order (the first in an "
           "order drawn from --seed)")
        ->option_text("RULE")
        ->check(oneOf({ "node-name", "seeded-order" }))
        ->group(group);
    app.add_option("--percentage-of-nodes-to-score", options.percentageOfNodesToScore,
           "on clusters of more than 100 nodes, the share of nodes found feasible that ends a cycle's search "
           "(0 = kube-scheduler's adaptive default, 100 = every node)")
        ->option_text("PERCENT")
        ->check(CLI::Range(0, 100))
        ->group(group);
    app.add_option("--seed", options.seed,
           "seed of the shareID generator and of --tie-break seeded-order (default 0)")
        ->option_text("N")
        ->transform(wholeNumber())
        ->group(group);
    app.add_option("--step-budget", options.searchStepBudget,
           "devices the search may try per pod and node (default " + std::to_string(options.searchStepBudget)
               + ")")
        ->option_text("N")
        ->transform(wholeNumber(1))
        ->group(group);
    app.add_option("--timeout", options.filterTimeoutSeconds,
           "wall-clock limit per pod and node (default 10, 0 = none)")
        ->option_text("SECONDS")
        ->transform(nonNegativeSeconds())
        ->group(group);
}

void addSchedulerConfigOption(CLI::App& app, std::string& path)
{
    app.add_option("--scheduler-config", path,
           "a KubeSchedulerConfiguration file, as kube-scheduler's --config takes it\n"
           "(profiles, plugins and weights, scoringStrategy, percentageOfNodesToScore)")
        ->option_text("FILE")
        ->excludes("--scoring")
        ->excludes("--percentage-of-nodes-to-score")
        ->group("Scheduler options");
}

std::optional<scheduler::SchedulerConfiguration> readSchedulerConfigFile(const std::string& path)
{
    Diagnostics diags;
    auto config = scenario::loadSchedulerConfiguration(path, diags);
    if (!diags.all().empty())
        std::fputs(diags.formatAll().c_str(), stderr);
    return config;
}

void applySchedulerConfig(
    const scheduler::SchedulerConfiguration& config, scheduler::SchedulerOptions& options)
{
    options.profiles = std::make_shared<const std::vector<scheduler::SchedulerProfile>>(config.profiles);
    options.percentageOfNodesToScore = config.percentageOfNodesToScore;
    if (config.filterTimeoutSeconds)
        options.filterTimeoutSeconds = *config.filterTimeoutSeconds;
}

std::optional<scheduler::SchedulerOptions> withSchedulerConfigFile(
    scheduler::SchedulerOptions options, const std::string& path)
{
    if (path.empty())
        return options;
    const auto config = readSchedulerConfigFile(path);
    if (!config)
        return std::nullopt;
    applySchedulerConfig(*config, options);
    return options;
}

std::optional<api::FeatureGates> ClusterVersionOptions::over(
    const api::FeatureGates& base, std::string& error) const
{
    std::optional<api::FeatureGates> gates = base;
    if (!version.empty()) {
        const auto v = api::parseKubernetesVersion(version);
        if (!v) {
            error = "invalid argument \"" + version
                + "\" for \"--kubernetes-version\" flag: supported versions are "
                + api::supportedKubernetesVersions();
            return std::nullopt;
        }
        std::string why;
        gates = base.atVersion(*v, &why);
        if (!gates) {
            error = "--kubernetes-version " + version + ": " + why;
            return std::nullopt;
        }
    }
    if (std::string e = gates->parse(featureGates); !e.empty()) {
        error = "invalid argument \"" + featureGates + "\" for \"--feature-gates\" flag: " + e;
        return std::nullopt;
    }
    return gates;
}

void addClusterVersionOptions(CLI::App& app, ClusterVersionOptions& options, bool checkAtParse)
{
    const std::string group = "Cluster version options";
    app.add_option("--kubernetes-version", options.version,
           api::supportedKubernetesVersions() + " (default 1.37): the APIs served, the gate defaults")
        ->option_text("VERSION")
        ->group(group);
    app.add_option("--feature-gates", options.featureGates,
           "gates over the version's defaults, e.g. GenericWorkload=true")
        ->option_text("NAME=BOOL,...")
        ->group(group);
    if (!checkAtParse)
        return;
    app.parse_complete_callback([&options] {
        std::string error;
        if (!options.over(api::FeatureGates(), error))
            throw CLI::ValidationError(error);
    });
}

void addImportOptions(CLI::App& app, topology::ImportOptions& options)
{
    const std::string group = "Import options (nvidia-smi and hwloc files)";
    app.add_option("--gpu-model", options.gpuModel,
           "device model for imported GPUs (e.g. H100-SXM5-80GB; default: generic)")
        ->option_text("MODEL")
        ->group(group);
    app.add_option("--nic-model", options.nicModel,
           "device model for imported NICs (e.g. ConnectX-7-IB; default: generic)")
        ->option_text("MODEL")
        ->group(group);
    app.add_option_function<std::string>(
           "--memory", [&options](const std::string& text) { options.memory = Quantity::parse(text); },
           "the server's memory for an nvidia-smi capture, which has none (e.g. 2Ti);\n"
           "without it the Nodes publish no memory")
        ->option_text("QUANTITY")
        ->check(CLI::Validator(
            [](const std::string& text) -> std::string {
                const auto q = Quantity::parse(text);
                return q && q->value() > 0 ? std::string()
                                           : "'" + text + "' is not a positive quantity such as 2Ti";
            },
            "", "positive quantity"))
        ->group(group);
}

} // namespace drasim::cli
