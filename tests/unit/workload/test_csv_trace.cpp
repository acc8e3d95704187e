// SPDX-License-Identifier: Apache-2.0
#include <cmath>

#include <gtest/gtest.h>

#include "core/workload/csv_reader.h"
#include "core/workload/csv_trace.h"
#include "tests/unit/workload/source_helpers.h"

using namespace drasim;
using namespace drasim::workload;

namespace {

using test_support::kTraceData;

WorkloadSpec csvWorkload(const std::string& file)
{
    WorkloadSpec w;
    w.name = "csvjobs";
    w.source = WorkloadSpec::Source::Trace;
    w.trace = TraceSpec {};
    w.trace->format = TraceSpec::Format::Csv;
    w.trace->path = kTraceData + file;
    return w;
}

} // namespace

TEST(CsvReader, QuotesAndColumns)
{
    CsvRow row;
    EXPECT_FALSE(CsvReader::splitLine(R"(a,"b,c","say ""hi""",)", row));
    EXPECT_EQ(row.fields, (std::vector<std::string> { "a", "b,c", "say \"hi\"", "" }));
    EXPECT_EQ(row.columns, (std::vector<int> { 1, 3, 9, 22 }));
    EXPECT_EQ(CsvReader::splitLine(R"(a,"open)", row).value(), "unterminated quoted field");
    EXPECT_EQ(CsvReader::splitLine(R"("a"b)", row).value(), "unexpected character after a closing quote");
}

TEST(CsvTrace, MapsRowsToJobs)
{
    Diagnostics diags;
    auto src = makeCsvTraceSource(csvWorkload("jobs.csv"), 1, diags);
    ASSERT_TRUE(src) << diags.formatAll();
    std::vector<JobSpec> jobs;
    while (auto j = src->next())
        jobs.push_back(std::move(*j));
    EXPECT_FALSE(diags.hasErrors()) << diags.formatAll();
    ASSERT_EQ(jobs.size(), 5u);

    EXPECT_EQ(jobs[0].name, "train-0001");
    EXPECT_EQ(jobs[0].tasks[0].durationSeconds, 7200);
    const auto& trainPod = *jobs[0].tasks[0].pod;
    EXPECT_EQ(trainPod.spec.containers[0].resources.requests.at("cpu").toString(), "8");
    EXPECT_EQ(trainPod.spec.containers[0].resources.requests.at("memory").toString(), "32Gi");
    EXPECT_EQ(*trainPod.spec.resourceClaims[0].resourceClaimTemplateName, "trace-gpu-4x1000-v100m32");

    EXPECT_EQ(jobs[1].kind, kKindService);
    EXPECT_EQ(jobs[1].parallelism, 2);
    EXPECT_EQ(jobs[1].completions, 2);
    EXPECT_EQ(jobs[1].arrivalSeconds, 90);
    EXPECT_TRUE(std::isinf(jobs[1].tasks[0].durationSeconds));
    EXPECT_EQ(jobs[1].claimTemplates[0].meta.name, "trace-gpu-1x250-t4-a10");

    EXPECT_TRUE(jobs[2].tasks[0].pod->spec.resourceClaims.empty());
    EXPECT_GT(jobs[2].tasks[0].durationSeconds, 0);

    // device_class rows share one template, emitted once.
    ASSERT_EQ(jobs[3].claimTemplates.size(), 1u);
    const auto& tmpl = jobs[3].claimTemplates[0];
    EXPECT_EQ(tmpl.meta.name, "csvjobs-claim-0");
    EXPECT_EQ(tmpl.spec.requests[0].exactly->deviceClassName, "rdma.example.com");
    EXPECT_EQ(tmpl.spec.requests[0].exactly->count, 2);
    EXPECT_EQ(tmpl.spec.requests[0].exactly->selectors[0].expression,
        "device.attributes[\"dra.net\"].rdma == true");
    EXPECT_TRUE(jobs[4].claimTemplates.empty());
    EXPECT_EQ(jobs[4].tasks[0].pod, jobs[3].tasks[0].pod);
}

TEST(CsvTrace, UnsortedRowsAreAnError)
{
    Diagnostics diags;
    auto src = makeCsvTraceSource(csvWorkload("jobs_unsorted.csv"), 1, diags);
    ASSERT_TRUE(src);
    EXPECT_EQ(src->next()->name, "a-1");
    EXPECT_FALSE(src->next());
    ASSERT_EQ(diags.all().size(), 1u);
    EXPECT_EQ(diags.all()[0].format(),
        kTraceData
            + "jobs_unsorted.csv:3:5: TraceJob a-2: arrival: rows must be sorted by "
              "arrival (this row arrives before the previous one)");
}

TEST(CsvTrace, UnknownColumnIsRejectedUpFront)
{
    Diagnostics diags;
    EXPECT_FALSE(makeCsvTraceSource(csvWorkload("jobs_bad_column.csv"), 1, diags));
    ASSERT_EQ(diags.all().size(), 1u);
    EXPECT_EQ(diags.all()[0].format(),
        kTraceData
            + "jobs_bad_column.csv:1:14: TraceJob: gpu_count: unknown column \"gpu_count\"; known: arrival, "
              "backoff_limit, completions, cpu, device_class, duration, gpu_milli, gpu_models, gpus, kind, "
              "memory, name, parallelism, priority, selector");
}

TEST(CsvTrace, MalformedRowsAreLocatedAndSkipped)
{
    Diagnostics diags;
    auto src = makeCsvTraceSource(csvWorkload("jobs_malformed.csv"), 1, diags);
    ASSERT_TRUE(src);
    std::vector<std::string> names;
    while (auto j = src->next())
        names.push_back(j->name);
    EXPECT_EQ(names, (std::vector<std::string> { "ok-1", "ok-2" }));
    std::vector<std::string> lines;
    for (const auto& d : diags.all())
        lines.push_back(d.format());
    const std::string f = kTraceData + "jobs_malformed.csv";
    EXPECT_EQ(lines,
        (std::vector<std::string> {
            f
                + ":3:20: TraceJob bad-cpu: cpu: quantities must match the regular expression "
                  "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
            f + ":4:15: TraceJob bad-kind: kind: expected job or service, got \"cronjob\"",
            f + ":5:30: TraceJob bad-share: gpu_milli: a GPU share (gpu_milli < 1000) needs gpus = 1",
            f
                + ":6:34: TraceJob bad-class: device_class: device_class rows take no gpu_milli or "
                  "gpu_models (use selector)",
            f
                + ":7:16: TraceJob bad-duration: duration: unknown distribution \"weibull\"; expected a "
                  "duration, exponential(mean), lognormal(median, sigma) or uniform(min, max)",
            f + ":8:1: TraceJob short-row: expected 12 fields, found 3",
        }));
}
