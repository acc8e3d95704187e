// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include "core/workload/kfp_pipeline.h"

using namespace drasim;
using namespace drasim::workload;

namespace {

const std::string kDir = DRASIM_SOURCE_DIR "/tests/data/workload/kfp/";

DataValue claimArg(const std::string& name)
{
    DataValue v = DataValue::map();
    v.set("resourceClaimTemplateName", name);
    return v;
}

WorkloadSpec pipelineWorkload(const std::string& file)
{
    WorkloadSpec w;
    w.name = "nightly";
    w.namespace_ = "ml";
    w.source = WorkloadSpec::Source::Pipeline;
    w.pipeline = PipelineRunSpec {};
    w.pipeline->path = kDir + file;
    w.pipeline->arguments["train_claim"] = claimArg("a100-claim");
    DurationSpec d;
    d.value = 300;
    w.pipeline->taskDurations["default"] = d;
    d.value = 7200;
    w.pipeline->taskDurations["train"] = d;
    return w;
}

std::string formatted(const Diagnostics& diags)
{
    std::string out;
    for (const auto& d : diags.all())
        out += d.format() + "\n";
    return out;
}

} // namespace

TEST(KfpPipeline, ParsesTheCompiledIrInTopologicalOrder)
{
    Diagnostics diags;
    auto p = loadKfpPipeline(kDir + "gpu_training_pipeline.yaml", diags);
    ASSERT_TRUE(p) << diags.formatAll();
    EXPECT_EQ(p->name, "gpu-training");
    EXPECT_EQ(p->sdkVersion, "kfp-2.14.3");
    std::vector<std::string> order;
    for (const auto& t : p->tasks)
        order.push_back(t.name);
    EXPECT_EQ(order, (std::vector<std::string> { "preprocess", "train", "evaluate", "push-model" }));
    EXPECT_EQ(p->tasks[3].dependsOn, (std::vector<std::string> { "evaluate", "train" }));
    EXPECT_EQ(p->parameters.at("epochs").type, "NUMBER_INTEGER");
    EXPECT_FALSE(p->parameters.at("train_claim").defaultValue);
    ASSERT_EQ(p->tasks[1].claims.size(), 2u);
    EXPECT_EQ(p->tasks[1].claims[0].json->kind, KfpValueRef::Kind::PipelineParameter);
    EXPECT_EQ(*p->tasks[1].claims[1].templateName, "scratch-nvme");
}

TEST(KfpPipeline, RunHasPodsWithClaimsOnMainAndSubstitutedArgs)
{
    Diagnostics diags;
    auto src = makePipelineSource(pipelineWorkload("gpu_training_pipeline.yaml"), 1, diags);
    ASSERT_TRUE(src) << diags.formatAll();
    auto run = src->next();
    ASSERT_TRUE(run);
    EXPECT_FALSE(src->next()); // arrival once → one run
    EXPECT_EQ(run->name, "nightly-0");
    EXPECT_EQ(run->kind, kKindPipelineRun);
    EXPECT_EQ(run->namespace_, "ml");
    ASSERT_EQ(run->tasks.size(), 4u);

    const TaskSpec& train = run->tasks[1];
    EXPECT_EQ(train.name, "train");
    EXPECT_EQ(train.durationSeconds, 7200);
    EXPECT_EQ(train.dependsOn, (std::vector<std::string> { "preprocess" }));
    const api::PodSpec& spec = train.pod->spec;
    ASSERT_EQ(spec.resourceClaims.size(), 2u);
    EXPECT_EQ(spec.resourceClaims[0].name, "a100-claim");
    EXPECT_EQ(*spec.resourceClaims[0].resourceClaimTemplateName, "a100-claim");
    EXPECT_EQ(spec.resourceClaims[1].name, "scratch-nvme");
    ASSERT_EQ(spec.containers.size(), 1u);
    EXPECT_EQ(spec.containers[0].name, "main");
    EXPECT_EQ(
        spec.containers[0].resources.claims, (std::vector<std::string> { "a100-claim", "scratch-nvme" }));
    EXPECT_EQ(spec.containers[0].resources.requests.at("cpu").toString(), "4");
    EXPECT_EQ(spec.containers[0].resources.limits.at("memory").toString(), "64Gi");
    // Integer default written as 3.0 by the compiler is passed as "3".
    EXPECT_EQ(train.pod->meta.annotations.at("drasim.dev/kfp-args"),
        R"(["--executor_input","{{$}}","--function_to_execute","train","--epochs","3","--lr","0.01"])");

    const TaskSpec& pre = run->tasks[0];
    EXPECT_EQ(pre.durationSeconds, 300);
    // cpuRequest 2.0 cores and memoryRequest 8.0 GB (the float fields) become exact quantities.
    EXPECT_EQ(pre.pod->spec.containers[0].resources.requests.at("cpu").toString(), "2");
    EXPECT_EQ(pre.pod->spec.containers[0].resources.requests.at("memory").toString(), "8G");
    EXPECT_EQ(pre.pod->meta.annotations.at("drasim.dev/kfp-args"),
        R"(["--executor_input","{{$}}","--function_to_execute","preprocess","--dataset","imagenet-mini","--shards","8"])");

    const TaskSpec& eval = run->tasks[2];
    ASSERT_EQ(eval.pod->spec.resourceClaims.size(), 1u);
    EXPECT_EQ(eval.pod->spec.resourceClaims[0].name, "shared-gpu"); // ResourceClaimConfig constant
    ASSERT_EQ(eval.pod->spec.tolerations.size(), 1u);
    EXPECT_EQ(eval.pod->spec.tolerations[0].key, "nvidia.com/gpu");

    const TaskSpec& push = run->tasks[3];
    EXPECT_EQ(push.pod->spec.nodeSelector.at("node-role.example.com/egress"), "true");
    // A task output is only known at run time: its placeholder stays.
    EXPECT_EQ(push.pod->meta.annotations.at("drasim.dev/kfp-args"),
        R"(["--accuracy","{{$.inputs.parameters['accuracy']}}"])");
}

TEST(KfpPipeline, ArgumentsOverrideDefaultsAndClaimListsExpand)
{
    WorkloadSpec w = pipelineWorkload("gpu_training_pipeline.yaml");
    w.pipeline->arguments["epochs"] = DataValue(int64_t(10));
    w.pipeline->arguments["dataset"] = DataValue("coco");
    DataValue list = DataValue::list();
    list.push(claimArg("gpu-a"));
    list.push(claimArg("gpu-b"));
    w.pipeline->arguments["train_claim"] = list;
    Diagnostics diags;
    auto src = makePipelineSource(w, 1, diags);
    ASSERT_TRUE(src) << diags.formatAll();
    auto run = src->next();
    const auto& train = *run->tasks[1].pod;
    ASSERT_EQ(train.spec.resourceClaims.size(), 3u);
    EXPECT_EQ(train.spec.resourceClaims[1].name, "gpu-b");
    EXPECT_NE(
        train.meta.annotations.at("drasim.dev/kfp-args").find("\"--epochs\",\"10\""), std::string::npos);
    EXPECT_NE(
        run->tasks[0].pod->meta.annotations.at("drasim.dev/kfp-args").find("\"coco\""), std::string::npos);
}

TEST(KfpPipeline, JsonTextArgumentIsParsed)
{
    WorkloadSpec w = pipelineWorkload("gpu_training_pipeline.yaml");
    w.pipeline->arguments["train_claim"] = DataValue(R"([{"resourceClaimTemplateName": "h100"}])");
    Diagnostics diags;
    auto src = makePipelineSource(w, 1, diags);
    ASSERT_TRUE(src) << diags.formatAll();
    EXPECT_EQ(src->next()->tasks[1].pod->spec.resourceClaims[0].name, "h100");

    w.pipeline->arguments["train_claim"] = DataValue("h100");
    w.pipeline->pos = SourcePos { "s.yaml", 2, 3 };
    Diagnostics d2;
    EXPECT_FALSE(makePipelineSource(w, 1, d2));
    EXPECT_EQ(formatted(d2),
        "s.yaml:2:3: Pipeline gpu-training: arguments.train_claim: parameter is STRUCT, got string\n");
}

TEST(KfpPipeline, ArgumentErrors)
{
    WorkloadSpec w = pipelineWorkload("gpu_training_pipeline.yaml");
    w.pipeline->arguments.erase("train_claim");
    w.pipeline->arguments["epoch"] = DataValue(int64_t(1));
    w.pipeline->pos = SourcePos { "scenario.yaml", 12, 5 };
    Diagnostics diags;
    EXPECT_FALSE(makePipelineSource(w, 1, diags));
    EXPECT_EQ(formatted(diags),
        "scenario.yaml:12:5: Pipeline gpu-training: arguments.epoch: pipeline has no parameter \"epoch\" "
        "(parameters: dataset, epochs, learning_rate, train_claim)\n"
        "scenario.yaml:12:5: Pipeline gpu-training: arguments.train_claim: required pipeline parameter "
        "\"train_claim\" (STRUCT) has no argument and no default\n");
}

TEST(KfpPipeline, BadClaimJsonAndEmptyTemplateName)
{
    WorkloadSpec w = pipelineWorkload("gpu_training_pipeline.yaml");
    DataValue bad = DataValue::map();
    bad.set("templateName", "x");
    w.pipeline->arguments["train_claim"] = bad;
    Diagnostics diags;
    EXPECT_FALSE(makePipelineSource(w, 1, diags));
    EXPECT_NE(formatted(diags).find("resourceClaimJson object needs a string resourceClaimTemplateName, got "
                                    "{\"templateName\":\"x\"}"),
        std::string::npos)
        << formatted(diags);

    w.pipeline->arguments["train_claim"] = claimArg("");
    Diagnostics d2;
    EXPECT_FALSE(makePipelineSource(w, 1, d2));
    EXPECT_NE(formatted(d2).find("resource claim template name must not be empty"), std::string::npos);
}

TEST(KfpPipeline, CycleIsReportedWithItsPath)
{
    Diagnostics diags;
    EXPECT_FALSE(loadKfpPipeline(kDir + "cycle_pipeline.yaml", diags));
    const std::string out = formatted(diags);
    EXPECT_EQ(out,
        kDir
            + "cycle_pipeline.yaml:178:7: Pipeline gpu-training: root.dag.tasks: dependency cycle: "
              "evaluate -> push-model -> preprocess -> train -> evaluate\n");
}

TEST(KfpPipeline, UnknownDependencyIsLocated)
{
    Diagnostics diags;
    EXPECT_FALSE(loadKfpPipeline(kDir + "unknown_dependency_pipeline.yaml", diags));
    EXPECT_EQ(formatted(diags),
        kDir
            + "unknown_dependency_pipeline.yaml:224:7: Pipeline gpu-training: "
              "root.dag.tasks.train.dependentTasks: depends on unknown task \"prepocess\"\n");
}

TEST(KfpPipeline, ParallelForIsExpandedPerItem)
{
    WorkloadSpec w;
    w.name = "sweep";
    w.source = WorkloadSpec::Source::Pipeline;
    w.pipeline = PipelineRunSpec {};
    w.pipeline->path = kDir + "nested_dag_pipeline.yaml";
    w.pipeline->arguments["epochs"] = DataValue(int64_t(4));
    DurationSpec d;
    d.value = 60;
    w.duration = d;
    Diagnostics diags;
    auto src = makePipelineSource(w, 1, diags);
    ASSERT_TRUE(src) << diags.formatAll();
    auto run = src->next();
    std::vector<std::string> order;
    for (const TaskSpec& t : run->tasks)
        order.push_back(t.name);
    EXPECT_EQ(order,
        (std::vector<std::string> { "prepare", "for-loop-2-0-train", "for-loop-2-0-evaluate",
            "for-loop-2-1-train", "for-loop-2-1-evaluate", "for-loop-2-2-train", "for-loop-2-2-evaluate",
            "report" }));
    EXPECT_EQ(run->tasks[1].dependsOn, (std::vector<std::string> { "prepare" }));
    EXPECT_EQ(run->tasks[2].dependsOn, (std::vector<std::string> { "for-loop-2-0-train", "prepare" }));
    EXPECT_EQ(run->tasks[7].dependsOn.size(), 6u); // report waits for every iteration
    // The loop item and the pipeline parameter reach the inner task through the loop's inputs.
    EXPECT_EQ(
        run->tasks[3].pod->meta.annotations.at("drasim.dev/kfp-args"), R"(["--lr","0.01","--epochs","4"])");
    EXPECT_EQ(run->tasks[3].pod->spec.resourceClaims[0].name, "one-gpu");
    EXPECT_EQ(run->tasks[0].durationSeconds, 60);
}

TEST(KfpPipeline, TaskDurationsMatchFlattenedOrBaseNames)
{
    WorkloadSpec w;
    w.name = "sweep";
    w.source = WorkloadSpec::Source::Pipeline;
    w.pipeline = PipelineRunSpec {};
    w.pipeline->path = kDir + "nested_dag_pipeline.yaml";
    DurationSpec d;
    d.value = 600;
    w.pipeline->taskDurations["default"] = d;
    d.value = 3600;
    w.pipeline->taskDurations["train"] = d; // every loop copy
    d.value = 7200;
    w.pipeline->taskDurations["for-loop-2-1-train"] = d; // one copy, wins
    Diagnostics diags;
    auto src = makePipelineSource(w, 1, diags);
    ASSERT_TRUE(src) << diags.formatAll();
    auto run = src->next();
    EXPECT_EQ(run->tasks[1].durationSeconds, 3600); // for-loop-2-0-train
    EXPECT_EQ(run->tasks[2].durationSeconds, 600); // for-loop-2-0-evaluate
    EXPECT_EQ(run->tasks[3].durationSeconds, 7200); // for-loop-2-1-train
}

TEST(KfpPipeline, RunTimeLoopItemsAreAClearError)
{
    Diagnostics diags;
    EXPECT_FALSE(loadKfpPipeline(kDir + "dynamic_loop_pipeline.yaml", diags));
    EXPECT_EQ(formatted(diags),
        kDir
            + "dynamic_loop_pipeline.yaml:91:11: Pipeline lr-sweep: "
              "root.dag.tasks.for-loop-2.parameterIterator: ParallelFor over a list known "
              "only at run time (items.inputParameter) is not supported; give the items "
              "literally\n");
}

TEST(KfpPipeline, ManifestFormatAndTaskOutputClaims)
{
    WorkloadSpec w;
    w.name = "batch";
    w.source = WorkloadSpec::Source::Pipeline;
    w.pipeline = PipelineRunSpec {};
    w.pipeline->path = kDir + "manifest_format_pipeline.yaml";
    DurationSpec d;
    d.value = 60;
    w.duration = d;
    Diagnostics diags;
    EXPECT_FALSE(makePipelineSource(w, 1, diags));
    EXPECT_NE(formatted(diags).find(
                  "arguments.pick-gpu.claims: task score takes its resource claims from the output "
                  "\"claims\" of task pick-gpu; the simulator runs no code, so give that value as "
                  "run argument \"pick-gpu.claims\""),
        std::string::npos)
        << formatted(diags);

    DataValue list = DataValue::list();
    list.push(claimArg("fpga-claim"));
    w.pipeline->arguments["pick-gpu.claims"] = list;
    Diagnostics d2;
    auto src = makePipelineSource(w, 1, d2);
    ASSERT_TRUE(src) << d2.formatAll();
    auto run = src->next();
    ASSERT_EQ(run->tasks.size(), 2u);
    EXPECT_EQ(run->tasks[1].name, "score");
    EXPECT_EQ(
        run->tasks[1].dependsOn, (std::vector<std::string> { "pick-gpu" })); // implied by the claim source
    const auto& c = run->tasks[1].pod->spec.containers[0];
    EXPECT_EQ(c.resources.requests.at("example.com/fpga").toString(), "1");
    EXPECT_EQ(c.resources.limits.at("example.com/fpga").toString(), "1");
    EXPECT_EQ(c.resources.requests.at("cpu").toString(), "500m");
    EXPECT_EQ(run->tasks[1].pod->meta.annotations.at("drasim.dev/kfp-args"), R"(["--batch-size","64"])");
}

TEST(KfpPipeline, MissingTaskDurationAndUnknownTaskName)
{
    WorkloadSpec w = pipelineWorkload("gpu_training_pipeline.yaml");
    w.pipeline->taskDurations.erase("default");
    DurationSpec d;
    d.value = 1;
    w.pipeline->taskDurations["trian"] = d;
    w.pipeline->pos = SourcePos { "s.yaml", 3, 7 };
    Diagnostics diags;
    EXPECT_FALSE(makePipelineSource(w, 1, diags));
    EXPECT_EQ(formatted(diags),
        "s.yaml:3:7: Workload nightly: pipeline.taskDurations.trian: pipeline gpu-training has no task "
        "\"trian\"\n"
        "s.yaml:3:7: Workload nightly: pipeline.taskDurations.preprocess: no duration for task "
        "\"preprocess\" "
        "(set taskDurations.preprocess, taskDurations.default or the workload's duration)\n"
        "s.yaml:3:7: Workload nightly: pipeline.taskDurations.evaluate: no duration for task \"evaluate\" "
        "(set "
        "taskDurations.evaluate, taskDurations.default or the workload's duration)\n"
        "s.yaml:3:7: Workload nightly: pipeline.taskDurations.push-model: no duration for task "
        "\"push-model\" "
        "(set taskDurations.push-model, taskDurations.default or the workload's duration)\n");
}

TEST(KfpPipeline, RepeatedRunsShareTemplatesAndAreDeterministic)
{
    WorkloadSpec w = pipelineWorkload("gpu_training_pipeline.yaml");
    w.arrival = ArrivalSpec {};
    w.arrival->process = ArrivalSpec::Process::Poisson;
    w.arrival->ratePerSecond = 1.0 / 3600;
    w.arrival->count = 20;
    DurationSpec e;
    e.distribution = DurationSpec::Distribution::Exponential;
    e.mean = 1800;
    w.pipeline->taskDurations["train"] = e;
    Diagnostics diags;
    auto a = makePipelineSource(w, 42, diags);
    auto b = makePipelineSource(w, 42, diags);
    ASSERT_TRUE(a && b) << diags.formatAll();
    std::shared_ptr<const api::PodTemplateSpec> firstTrain;
    for (int i = 0; i < 20; ++i) {
        auto ra = a->next(), rb = b->next();
        ASSERT_TRUE(ra && rb);
        EXPECT_EQ(ra->name, "nightly-" + std::to_string(i));
        EXPECT_EQ(ra->arrivalSeconds, rb->arrivalSeconds);
        EXPECT_EQ(ra->tasks[1].durationSeconds, rb->tasks[1].durationSeconds);
        if (!firstTrain)
            firstTrain = ra->tasks[1].pod;
        EXPECT_EQ(ra->tasks[1].pod, firstTrain);
    }
    EXPECT_FALSE(a->next());
}

TEST(KfpPipeline, Placeholders)
{
    std::map<std::string, DataValue> v { { "n", DataValue(int64_t(4)) }, { "s", DataValue("x y") } };
    EXPECT_EQ(substituteKfpPlaceholders("--n={{$.inputs.parameters['n']}} {{$.inputs.parameters['s']}}", v),
        "--n=4 x y");
    EXPECT_EQ(substituteKfpPlaceholders("{{$.inputs.parameters['missing']}}", v),
        "{{$.inputs.parameters['missing']}}");
    EXPECT_EQ(substituteKfpPlaceholders("{{$.inputs.parameters['n'", v), "{{$.inputs.parameters['n'");
}

TEST(KfpPipeline, PassthroughWithoutApplyToTaskKeepsClaimsOffThePod)
{
    Diagnostics diags;
    auto src = makePipelineSource(pipelineWorkload("passthrough_pipeline.yaml"), 1, diags);
    ASSERT_TRUE(src) << diags.formatAll();
    auto run = src->next();
    const TaskSpec& eval = run->tasks[2];
    EXPECT_EQ(eval.name, "evaluate");
    EXPECT_TRUE(eval.pod->spec.resourceClaims.empty());
    EXPECT_TRUE(eval.pod->spec.containers[0].resources.claims.empty());
    EXPECT_EQ(eval.pod->meta.annotations.at("drasim.dev/kfp-passthrough-claims"), R"(["shared-gpu"])");
    EXPECT_EQ(run->tasks[1].pod->spec.resourceClaims.size(), 2u); // train has no passthrough
}

namespace {

std::string parseErrors(const std::string& text)
{
    Diagnostics diags;
    EXPECT_FALSE(parseKfpPipeline(text, "ir.yaml", diags));
    return formatted(diags);
}

const char* const kMinimal = R"(components:
  comp-a:
    executorLabel: exec-a
deploymentSpec:
  executors:
    exec-a:
      container:
        image: busybox
pipelineInfo:
  name: tiny
root:
  dag:
    tasks:
      a:
        componentRef:
          name: comp-a
schemaVersion: 2.1.0
)";

std::string replaced(std::string text, const std::string& from, const std::string& to)
{
    text.replace(text.find(from), from.size(), to);
    return text;
}

} // namespace

TEST(KfpPipeline, MinimalPipelineParses)
{
    Diagnostics diags;
    auto p = parseKfpPipeline(kMinimal, "ir.yaml", diags);
    ASSERT_TRUE(p) << diags.formatAll();
    EXPECT_EQ(p->tasks.size(), 1u);
    EXPECT_EQ(p->tasks[0].image, "busybox");
}

TEST(KfpPipeline, MalformedIrMessages)
{
    EXPECT_EQ(parseErrors("apiVersion: v1\nkind: Pod\n"),
        "ir.yaml:1:1: Pipeline: no pipeline spec found (expected a compiled KFP v2 IR document with "
        "components, "
        "deploymentSpec, pipelineInfo and root)\n");
    EXPECT_EQ(parseErrors(replaced(kMinimal, "name: comp-a", "name: comp-b")),
        "ir.yaml:16:17: Pipeline tiny: root.dag.tasks.a.componentRef.name: unknown component \"comp-b\"\n");
    EXPECT_EQ(parseErrors(replaced(kMinimal, "executorLabel: exec-a", "executorLabel: exec-z")),
        "ir.yaml:3:20: Pipeline tiny: components.comp-a.executorLabel: no executor \"exec-z\" in "
        "deploymentSpec.executors\n");
    EXPECT_EQ(parseErrors(replaced(kMinimal, "schemaVersion: 2.1.0", "schemaVersion: 1.0.0")),
        "ir.yaml:17:16: Pipeline tiny: schemaVersion: unsupported schemaVersion 1.0.0 (KFP v2 IR is 2.x)\n");
    EXPECT_EQ(
        parseErrors(replaced(kMinimal,
            "    tasks:\n      a:\n        componentRef:\n          name: comp-a\n", "    tasks: []\n")),
        "ir.yaml:13:12: Pipeline tiny: root.dag.tasks: expected a map, got list\n");
    // The wording every drasim document shares (yamlio/doc_reader.h).
    EXPECT_EQ(parseErrors(replaced(kMinimal, "        image: busybox\n", "        image: [busybox]\n")),
        "ir.yaml:8:16: Pipeline tiny: deploymentSpec.executors.exec-a.container.image: expected a string, "
        "got "
        "list\n");
    EXPECT_EQ(parseErrors(replaced(kMinimal, "      a:\n        componentRef:\n          name: comp-a\n",
                  "      a:\n        componentRef: {}\n")),
        "ir.yaml:15:23: Pipeline tiny: root.dag.tasks.a.componentRef.name: Required value\n");
    EXPECT_EQ(parseErrors(std::string(kMinimal)
                  + "---\nplatforms:\n  kubernetes:\n    deploymentSpec:\n      executors:\n"
                    "        exec-a:\n          podResourceClaims:\n          - {}\n"),
        "ir.yaml:25:13: Pipeline tiny: "
        "platforms.kubernetes.deploymentSpec.executors.exec-a.podResourceClaims[0]: "
        "needs resourceClaimTemplateName or resourceClaimJson\n");
    const std::string syntax = parseErrors("components: [\n");
    EXPECT_NE(syntax.find("ir.yaml:"), std::string::npos) << syntax;
}
