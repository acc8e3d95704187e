// SPDX-License-Identifier: Apache-2.0
#include <map>
#include <set>

#include <gtest/gtest.h>

#include "core/workload/alibaba_trace.h"
#include "tests/unit/workload/source_helpers.h"

using namespace drasim;
using namespace drasim::workload;

namespace {

using test_support::drain;
using test_support::kTraceData;

const std::string kShared = DRASIM_TRACES_DIR "/alibaba-gpu-2023/";

WorkloadSpec traceWorkload(const std::string& path)
{
    WorkloadSpec w;
    w.name = "trace";
    w.source = WorkloadSpec::Source::Trace;
    w.trace = TraceSpec {};
    w.trace->path = path;
    return w;
}

} // namespace

TEST(AlibabaTrace, DefaultPodListRowCountsMatchTheReadme)
{
    Diagnostics diags;
    auto list = readAlibabaPods(kShared + "openb_pod_list_default.csv", diags);
    ASSERT_TRUE(list) << diags.formatAll();
    EXPECT_FALSE(diags.hasErrors()) << diags.formatAll();
    EXPECT_TRUE(list->hasTimes);
    ASSERT_EQ(list->rows.size(), 8152u);
    std::map<int, int> byGpus;
    int shared = 0, pending = 0;
    for (const auto& r : list->rows) {
        ++byGpus[r.gpu.count];
        shared += r.gpu.count == 1 && r.gpu.milli < 1000;
        pending += !r.scheduled.has_value();
        EXPECT_TRUE(r.gpu.models.empty());
    }
    EXPECT_EQ(byGpus, (std::map<int, int> { { 0, 1088 }, { 1, 6989 }, { 2, 16 }, { 4, 15 }, { 8, 44 } }));
    EXPECT_EQ(shared, 3078);
    EXPECT_EQ(pending, 897);
    EXPECT_EQ(list->rows.back().deletion.value(), 12901792); // last row of the file
}

TEST(AlibabaTrace, GpuSpec33HasModelConstraintsWithDuplicatesRemoved)
{
    Diagnostics diags;
    auto list = readAlibabaPods(kShared + "openb_pod_list_gpuspec33.csv", diags);
    ASSERT_TRUE(list) << diags.formatAll();
    ASSERT_EQ(list->rows.size(), 8152u);
    int withSpec = 0, t4 = 0;
    for (const auto& r : list->rows) {
        withSpec += !r.gpu.models.empty();
        t4 += r.gpu.models == std::vector<std::string> { "T4" };
        EXPECT_EQ(
            std::set<std::string>(r.gpu.models.begin(), r.gpu.models.end()).size(), r.gpu.models.size());
    }
    EXPECT_EQ(withSpec, 2388);
    EXPECT_EQ(t4, 1291);
}

TEST(AlibabaTrace, FiveColumnMultiGpuListHasNoTimes)
{
    Diagnostics diags;
    auto list = readAlibabaPods(kShared + "openb_pod_list_multigpu50.csv", diags);
    ASSERT_TRUE(list) << diags.formatAll();
    EXPECT_FALSE(list->hasTimes);
    ASSERT_EQ(list->rows.size(), 9061u);
    std::map<int, int> byGpus;
    for (const auto& r : list->rows)
        ++byGpus[r.gpu.count];
    EXPECT_EQ(byGpus[2], 222);
    EXPECT_EQ(byGpus[4], 206);
    EXPECT_EQ(byGpus[8], 556);
}

TEST(AlibabaTrace, NodeListCountsAndClusterObjects)
{
    Diagnostics diags;
    auto nodes = readAlibabaNodes(kShared + "openb_node_list_gpu_node.csv", diags);
    ASSERT_TRUE(nodes) << diags.formatAll();
    ASSERT_EQ(nodes->size(), 1213u);
    int gpus = 0;
    std::map<std::string, int> byModel;
    for (const auto& n : *nodes) {
        gpus += n.gpus;
        ++byModel[n.model];
    }
    EXPECT_EQ(gpus, 6212);
    EXPECT_EQ(byModel["G2"], 549);
    EXPECT_EQ(byModel["T4"], 404);

    api::ObjectSet set = traceClusterObjects(*nodes, GpuSharing::Capacity, 10);
    EXPECT_EQ(set.nodes.size(), 1213u);
    EXPECT_EQ(set.resourceSlices.size(), 1213u);
    size_t devices = 0;
    for (const auto& s : set.resourceSlices)
        devices += s.devices.size();
    EXPECT_EQ(devices, 6212u);
    ASSERT_EQ(set.deviceClasses.size(), 1u);
    EXPECT_EQ(set.deviceClasses[0].selectors[0].expression, "device.driver == \"gpu.trace.drasim.dev\"");

    const api::Node& first = set.nodes[0];
    EXPECT_EQ(first.meta.name, "openb-node-0000");
    EXPECT_EQ(first.capacity.at("cpu").toString(), "64");
    EXPECT_EQ(first.capacity.at("memory").toString(), "256Gi");
    const api::Device& d = set.resourceSlices[0].devices[1];
    EXPECT_EQ(d.name, "gpu-1");
    EXPECT_EQ(d.attributes.at("model").stringValue, "P100");
    EXPECT_EQ(d.attributes.at("productName").stringValue, "Tesla P100-PCIE-16GB");
    EXPECT_EQ(d.attributes.at("index").intValue, 1);
    EXPECT_TRUE(d.allowMultipleAllocations.value_or(false));
    EXPECT_EQ(d.capacity.at("gpuMilli").value.toString(), "1k");
    EXPECT_EQ(d.capacity.at("gpuMilli").requestPolicy->validRange->step->toString(), "10");
    EXPECT_EQ(d.capacity.at("memory").value.toString(), "16Gi");
}

TEST(AlibabaTrace, PartitionsLayoutHasCounterSlicePlusOneSlicePerGpu)
{
    TraceGpuNode n { "n1", 96000, 393216, 8, "G2", {} };
    api::ObjectSet set = traceClusterObjects({ n }, GpuSharing::Partitions, 10);
    ASSERT_EQ(set.resourceSlices.size(), 9u);
    EXPECT_EQ(set.resourceSlices[0].sharedCounters.size(), 8u);
    EXPECT_TRUE(set.resourceSlices[0].devices.empty());
    EXPECT_EQ(set.resourceSlices[0].pool.resourceSliceCount, 9);
    const auto& gpu0 = set.resourceSlices[1];
    ASSERT_EQ(gpu0.devices.size(), 11u);
    EXPECT_EQ(gpu0.devices[0].name, "gpu-0");
    EXPECT_EQ(gpu0.devices[0].consumesCounters[0].counters.at("milli").toString(), "1k");
    EXPECT_EQ(gpu0.devices[3].name, "gpu-0-part-2");
    EXPECT_EQ(gpu0.devices[3].consumesCounters[0].counters.at("milli").toString(), "100");
    EXPECT_EQ(gpu0.devices[3].attributes.at("parentGpu").stringValue, "gpu-0");
    EXPECT_FALSE(gpu0.devices[0].capacity.count("memory")); // G2 discloses no memory size
    EXPECT_EQ(set.deviceClasses.size(), 2u);
    EXPECT_EQ(validatePartitions(3),
        "partitionsPerGpu must divide 1000 and be between 2 and 63 (2, 4, 5, 8, 10, 20, "
        "25, 40, 50), got 3");
}

TEST(AlibabaTrace, ClaimTemplatesForSharesSelectorsAndFirstAvailable)
{
    TracePodFactory capacity("default", GpuSpecMode::Selector, GpuSharing::Capacity, 10);
    auto shared = capacity.claimTemplate(TraceGpuDemand { 1, 460, {} });
    EXPECT_EQ(shared.meta.name, "trace-gpu-1x460");
    ASSERT_TRUE(shared.spec.requests[0].exactly);
    EXPECT_EQ(shared.spec.requests[0].exactly->capacity->requests.at("gpuMilli").toString(), "460");
    EXPECT_EQ(shared.spec.requests[0].exactly->count, 1);

    auto multi = capacity.claimTemplate(TraceGpuDemand { 8, 1000, { "V100M16", "V100M32" } });
    EXPECT_EQ(multi.meta.name, "trace-gpu-8x1000-v100m16-v100m32");
    EXPECT_EQ(multi.spec.requests[0].exactly->count, 8);
    EXPECT_EQ(multi.spec.requests[0].exactly->capacity->requests.at("gpuMilli").toString(), "1k");
    EXPECT_EQ(multi.spec.requests[0].exactly->selectors[0].expression,
        "device.attributes[\"gpu.trace.drasim.dev\"].model in [\"V100M16\", \"V100M32\"]");

    TracePodFactory fa("default", GpuSpecMode::FirstAvailable, GpuSharing::Capacity, 10);
    auto list = fa.claimTemplate(TraceGpuDemand { 1, 1000, { "T4", "A10" } });
    ASSERT_EQ(list.spec.requests[0].firstAvailable.size(), 2u);
    EXPECT_EQ(list.spec.requests[0].firstAvailable[0].name, "t4");
    EXPECT_EQ(list.spec.requests[0].firstAvailable[1].spec.selectors[0].expression,
        "device.attributes[\"gpu.trace.drasim.dev\"].model == \"A10\"");

    TracePodFactory parts("default", GpuSpecMode::Selector, GpuSharing::Partitions, 10);
    auto p = parts.claimTemplate(TraceGpuDemand { 1, 460, {} });
    EXPECT_EQ(p.spec.requests[0].exactly->deviceClassName, "partition.gpu.trace.drasim.dev");
    EXPECT_EQ(p.spec.requests[0].exactly->count, 5); // 460 milli → 5 partitions of 100
    ASSERT_EQ(p.spec.constraints.size(), 1u);
    EXPECT_EQ(*p.spec.constraints[0].matchAttribute, "gpu.trace.drasim.dev/parentGpu");
}

TEST(AlibabaTrace, SourceMapsRowsToJobsWithSharedTemplates)
{
    Diagnostics diags;
    auto src = makeAlibabaSource(traceWorkload(kTraceData + "pods_small.csv"), 1, diags);
    ASSERT_TRUE(src) << diags.formatAll();
    auto jobs = drain(*src);
    ASSERT_EQ(jobs.size(), 35u);
    EXPECT_TRUE(std::is_sorted(jobs.begin(), jobs.end(),
        [](const JobSpec& a, const JobSpec& b) { return a.arrivalSeconds < b.arrivalSeconds; }));
    const JobSpec& j1 = jobs[1]; // openb-pod-0001,6000,12288,1,460,,LS,Running,427061,12902960,427061
    EXPECT_EQ(j1.name, "openb-pod-0001");
    EXPECT_EQ(j1.kind, kKindJob);
    EXPECT_EQ(j1.arrivalSeconds, 427061);
    EXPECT_EQ(j1.tasks[0].durationSeconds, 12902960 - 427061);
    EXPECT_EQ(j1.labels->at("drasim.dev/qos"), "LS");
    const auto& pod = *j1.tasks[0].pod;
    EXPECT_EQ(pod.spec.containers[0].resources.requests.at("cpu").toString(), "6");
    EXPECT_EQ(pod.spec.containers[0].resources.requests.at("memory").toString(), "12Gi");
    ASSERT_EQ(pod.spec.resourceClaims.size(), 1u);
    EXPECT_EQ(*pod.spec.resourceClaims[0].resourceClaimTemplateName, "trace-gpu-1x460");
    ASSERT_EQ(j1.claimTemplates.size(), 1u);
    // pod-0003 has the same shape: the same template object, and the claim template is not repeated.
    EXPECT_EQ(jobs[3].tasks[0].pod, j1.tasks[0].pod);
    EXPECT_TRUE(jobs[3].claimTemplates.empty());
    // CPU-only pod: no claim.
    EXPECT_TRUE(jobs[5].tasks[0].pod->spec.resourceClaims.empty());
    // Pending pod (no scheduled_time): lives from creation to deletion.
    auto pending
        = std::find_if(jobs.begin(), jobs.end(), [](const JobSpec& j) { return j.name == "openb-pod-0061"; });
    ASSERT_NE(pending, jobs.end());
    EXPECT_EQ(pending->tasks[0].durationSeconds, 10001403 - 10001278);
    EXPECT_EQ(pending->labels->at("drasim.dev/trace-phase"), "Pending");
}

TEST(AlibabaTrace, TimeScaleLimitAndDeterminism)
{
    WorkloadSpec w = traceWorkload(kShared + "openb_pod_list_default.csv");
    w.trace->timeScale = 0.001;
    w.trace->limit = 100;
    Diagnostics diags;
    auto a = makeAlibabaSource(w, 1, diags);
    auto b = makeAlibabaSource(w, 1, diags);
    ASSERT_TRUE(a && b) << diags.formatAll();
    auto ja = drain(*a), jb = drain(*b);
    ASSERT_EQ(ja.size(), 100u);
    for (size_t i = 0; i < ja.size(); ++i) {
        EXPECT_EQ(ja[i].name, jb[i].name);
        EXPECT_EQ(ja[i].arrivalSeconds, jb[i].arrivalSeconds);
    }
    EXPECT_DOUBLE_EQ(ja[1].arrivalSeconds, 427.061);
}

TEST(AlibabaTrace, FiveColumnFileUsesArrivalProcessAndDuration)
{
    WorkloadSpec w = traceWorkload(kShared + "openb_pod_list_multigpu50.csv");
    w.arrival = ArrivalSpec {};
    w.arrival->process = ArrivalSpec::Process::Poisson;
    w.arrival->ratePerSecond = 0.1;
    w.arrival->count = 50;
    DurationSpec d;
    d.value = 600;
    w.duration = d;
    Diagnostics diags;
    auto src = makeAlibabaSource(w, 7, diags);
    ASSERT_TRUE(src) << diags.formatAll();
    auto jobs = drain(*src);
    ASSERT_EQ(jobs.size(), 50u);
    EXPECT_GT(jobs[0].arrivalSeconds, 0);
    EXPECT_EQ(jobs[0].tasks[0].durationSeconds, 600);
    EXPECT_FALSE(jobs[0].labels); // no qos, no phase: no labels
}

TEST(AlibabaTrace, MalformedRowsAreLocatedErrors)
{
    Diagnostics diags;
    auto src = makeAlibabaSource(traceWorkload(kTraceData + "pods_malformed.csv"), 1, diags);
    EXPECT_FALSE(src);
    std::vector<std::string> lines;
    for (const auto& d : diags.all())
        lines.push_back(d.format());
    const std::string f = kTraceData + "pods_malformed.csv";
    EXPECT_EQ(lines,
        (std::vector<std::string> {
            f + ":3:16: TracePod openb-pod-0001: cpu_milli: expected an integer, got \"6O00\"",
            f + ":4:30: TracePod openb-pod-0002: gpu_milli: value 1500 is out of range [0, 1000]",
            f + ":5:53: TracePod openb-pod-0003: deletion_time: deletion_time is before creation_time",
            f
                + ":5:61: TracePod openb-pod-0003: scheduled_time: scheduled_time is outside "
                  "[creation_time, deletion_time]",
            f + ":6:1: TracePod openb-pod-0004: expected 11 fields, found 10",
            f + ":7:1: TracePod openb-pod-0000: name: duplicate pod name (first on line 2)",
            f
                + ":8:1: TracePod Openb_Pod: name: \"Openb_Pod\" is not a valid object name "
                  "(lowercase DNS subdomain)",
            f + ":9:30: TracePod openb-pod-0007: gpu_milli: must be 1..1000 when num_gpu is 1",
        }));
}

TEST(AlibabaTrace, MissingColumnAndMissingFile)
{
    Diagnostics diags;
    EXPECT_FALSE(readAlibabaNodes(kTraceData + "nodes_missing_column.csv", diags));
    ASSERT_EQ(diags.all().size(), 1u);
    EXPECT_EQ(diags.all()[0].format(),
        kTraceData
            + "nodes_missing_column.csv:1:1: TraceNode: header lacks column "
              "\"model\" (need sn,cpu_milli,memory_mib,gpu,model)");
    Diagnostics d2;
    TraceClusterSpec spec;
    spec.nodesPath = kTraceData + "no_such_file.csv";
    EXPECT_FALSE(loadTraceCluster(spec, d2));
    EXPECT_EQ(d2.all()[0].format(),
        kTraceData + "no_such_file.csv: TraceNode: cannot open " + kTraceData
            + "no_such_file.csv: No such file or directory");
}

TEST(AlibabaTrace, UntilAndCountCutTheTrace)
{
    WorkloadSpec w = traceWorkload(kTraceData + "pods_small.csv");
    w.arrival = ArrivalSpec {};
    w.arrival->until = 5'000'000; // pods 0000..0009 arrive before
    Diagnostics diags;
    auto src = makeAlibabaSource(w, 1, diags);
    ASSERT_TRUE(src);
    auto jobs = drain(*src);
    ASSERT_EQ(jobs.size(), 10u);
    EXPECT_EQ(jobs.back().name, "openb-pod-0009");
    w.arrival->until.reset();
    w.arrival->count = 3;
    auto src3 = makeAlibabaSource(w, 1, diags);
    EXPECT_EQ(drain(*src3).size(), 3u);
}

TEST(AlibabaTrace, DeviceClassAsksForWholeDevicesOfThatClass)
{
    TracePodFactory f("default", GpuSpecMode::Selector, GpuSharing::Capacity, 10);
    f.setDeviceClass("gpu.nvidia.com");
    auto share = f.claimTemplate(TraceGpuDemand { 1, 460, { "V100M16" } });
    EXPECT_EQ(share.meta.name, "trace-gpu-nvidia-com-1");
    ASSERT_EQ(share.spec.requests.size(), 1u);
    ASSERT_TRUE(share.spec.requests[0].exactly);
    EXPECT_EQ(share.spec.requests[0].exactly->deviceClassName, "gpu.nvidia.com");
    EXPECT_EQ(share.spec.requests[0].exactly->count, 1); // a share takes a whole device
    EXPECT_FALSE(share.spec.requests[0].exactly->capacity); // catalog GPUs are not shareable
    EXPECT_TRUE(share.spec.requests[0].exactly->selectors.empty()); // trace model codes dropped
    EXPECT_EQ(f.claimTemplate(TraceGpuDemand { 8, 1000, {} }).spec.requests[0].exactly->count, 8);

    WorkloadSpec w = traceWorkload(kTraceData + "pods_small.csv");
    w.trace->deviceClass = "gpu.nvidia.com";
    Diagnostics diags;
    auto src = makeAlibabaSource(w, 1, diags);
    ASSERT_TRUE(src) << diags.formatAll();
    for (const JobSpec& j : drain(*src)) {
        for (const auto& t : j.claimTemplates)
            EXPECT_EQ(t.spec.requests[0].exactly->deviceClassName, "gpu.nvidia.com") << j.name;
        for (const auto& c : j.tasks[0].pod->spec.resourceClaims)
            EXPECT_EQ(c.resourceClaimTemplateName->rfind("trace-gpu-nvidia-com-", 0), 0u) << j.name;
    }
}
