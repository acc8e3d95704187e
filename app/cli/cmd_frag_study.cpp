// SPDX-License-Identifier: Apache-2.0
// drasim frag-study: the FGD paper's experiment on a trace scenario: every GPU-sharing scoring
// policy with every seed, GPU allocation and fragmentation against arrived load.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "app/cli/cli_support.h"
#include "app/cli/command_registry.h"
#include "app/cli/common_options.h"
#include "app/cli/plan_output.h"
#include "core/fragstudy/frag_study.h"
#include "core/fragstudy/scenario_input.h"
#include "core/fragstudy/study_output.h"
#include "core/scenario/scenario.h"
#include "core/scenario/variant.h"

namespace {
namespace cmd_frag_study {

struct Args
{
    std::string scenario;
    std::vector<std::string> policies { "fgd", "best-fit", "dot-product", "gpu-packing", "gpu-clustering",
        "random" };
    std::string seeds = "42-51";
    std::string output = "text";
    std::string tieBreak = "seeded-order";
    std::string gpuChoice = "policy";
    double target = 130;
    bool noInflation = false;
    bool noShuffle = false;
    unsigned threads = 0;
    int from = 75;
};

std::optional<drasim::fragstudy::StudyOptions> studyOptions(const Args& args)
{
    using namespace drasim;
    fragstudy::StudyOptions options;
    for (const std::string& name : args.policies)
        options.policies.push_back(*gpushare::parseSharePolicy(name)); // checked by the validator
    std::string error;
    auto seeds = fragstudy::parseSeedList(args.seeds, error);
    if (!seeds) {
        cli::printError("--seeds: " + error);
        return std::nullopt;
    }
    options.seeds = *seeds;
    options.tieBreak = *fragstudy::parseTieBreak(args.tieBreak);
    options.gpuChoice = gpushare::parseGpuChoice(args.gpuChoice); // nullopt for "policy"
    options.inflation.targetPercent = args.noInflation ? std::nullopt : std::optional(args.target);
    options.inflation.shuffle = !args.noShuffle;
    options.maxPercent = std::max(130, int(args.target) + 1);
    options.threads = args.threads;
    return options;
}

int run(const Args& args)
{
    using namespace drasim;
    Diagnostics diags;
    auto scenario = scenario::loadScenarioOrVariant(args.scenario, diags);
    std::optional<fragstudy::StudyInput> input;
    if (scenario)
        input = fragstudy::scenarioStudyInput(*scenario, diags);
    if (!input) {
        std::fputs(diags.formatAll().c_str(), stderr);
        return 1;
    }
    if (!diags.all().empty())
        std::fputs(diags.formatAll().c_str(), stderr);
    auto options = studyOptions(args);
    if (!options)
        return 2;
    cli::StderrPercent progress;
    auto result = fragstudy::runStudy(*input, *options, cli::stderrIsTerminal() ? &progress : nullptr);
    progress.done();
    fragstudy::OutputRange range;
    range.fromPercent = args.from;
    range.toPercent = options->maxPercent;
    if (args.output == "csv")
        cli::printStdout(fragstudy::studyCsv(*result, range));
    else if (args.output == "json")
        cli::printStdout(fragstudy::studyJson(*result, scenario->name, range));
    else
        cli::printStdout(fragstudy::studyText(*result, scenario->name, range));
    return 0;
}

std::vector<std::string> policyNames()
{
    std::vector<std::string> names;
    for (const auto& info : drasim::gpushare::sharePolicies())
        names.push_back(info.name);
    return names;
}

drasim::cli::Runner define(CLI::App& app)
{
    auto args = std::make_shared<Args>();
    app.description(
        R"(Reproduces the experiment of "Beware of Fragmentation" (Weng et al., USENIX ATC '23) on a trace
scenario: the trace's GPU nodes, its pods sorted by name, shuffled and inflated with clones to a
share of the GPU capacity (130 %), placed one at a time and never removed by one GPU-sharing
scoring policy (a pod that fits nowhere is dropped). Ties go to the first node of an order drawn
from the seed, as in the paper's scheduler. Prints, per policy, the GPU allocated and the GPU
fragmentation (against the trace's typical pods) at each arrived % of GPU capacity, across the
seeds: the median in text, mean, median and quartiles in csv and json.

SCENARIO names the node list (spec.cluster.trace.nodes) and an alibaba-2023 trace workload, as
scenarios/plan/fragmentation/*.yaml do.)");
    app.footer("Exit status: 0 on success, 1 on invalid input (diagnostics on stderr), 2 on bad usage.");
    app.add_option("SCENARIO", args->scenario, "a scenario with a trace cluster and workload")->required();
    app.add_option("--policies", args->policies, "scoring policies, comma separated (default: all six)")
        ->delimiter(',')
        ->check(drasim::cli::oneOf(policyNames()))
        ->option_text("LIST");
    app.add_option("--seeds", args->seeds, "seeds, e.g. 42-51 or 1,5,9 (default: 42-51)")
        ->option_text("LIST");
    app.add_option("--target", args->target, "inflate the arrivals to this % of GPU capacity (default: 130)")
        ->check(CLI::Range(1.0, 1000.0))
        ->option_text("PERCENT");
    app.add_flag("--no-inflation", args->noInflation, "replay the trace's pods only, no clones");
    app.add_flag("--no-shuffle", args->noShuffle, "keep the pods in name order");
    app.add_option("--tie-break", args->tieBreak, "seeded-order (default) or random (kube-scheduler's)")
        ->check(drasim::cli::oneOf({ "seeded-order", "random" }))
        ->option_text("RULE");
    app.add_option("--gpu-choice", args->gpuChoice,
           "the GPU a sharing pod gets: policy (each policy's own, default), best, random, fgd or first-fit "
           "(the DRA allocator's: the first device with room)")
        ->check(drasim::cli::oneOf({ "policy", "best", "random", "fgd", "first-fit" }))
        ->option_text("RULE");
    app.add_option("--from", args->from, "first arrived % printed (default: 75)")
        ->check(CLI::Range(0, 130))
        ->option_text("PERCENT");
    app.add_option("--threads", args->threads, "runs at once (default: every core)")
        ->check(drasim::cli::wholeNumber(1, 1024));
    drasim::cli::addOutputOption(app, args->output, { "text", "csv", "json" }, "text (default), csv or json");
    return [args] { return run(*args); };
}

const bool registered = drasim::cli::registerCommand({ "frag-study",
    "the FGD paper's fragmentation experiment: scoring policies on an inflated trace", define });

} // namespace cmd_frag_study
} // namespace
