// SPDX-License-Identifier: Apache-2.0
// spec.growth: jobs. A load growth adds jobs over the same span: generators draw more arrivals
// (and as many more under a count), a trace keeps its times and gains copies of its jobs.
#include <set>

#include <gtest/gtest.h>

#include "core/planner/study.h"
#include "core/sim/run_overrides.h"
#include "core/workload/added_jobs_source.h"

using namespace drasim;

namespace growthjobs {

/// Jobs every 10 s from 0, named j0, j1, ...
class EveryTenSeconds : public workload::ArrivalSource
{
public:
    explicit EveryTenSeconds(int count)
        : m_count(count)
    { }
    std::optional<workload::JobSpec> next() override
    {
        if (m_next >= m_count)
            return std::nullopt;
        workload::JobSpec job;
        job.name = "j" + std::to_string(m_next);
        job.arrivalSeconds = 10.0 * m_next++;
        return job;
    }

private:
    int m_count;
    int m_next = 0;
};

std::vector<workload::JobSpec> drain(double extra, uint64_t seed, int count = 200)
{
    workload::AddedJobsSource source(std::make_unique<EveryTenSeconds>(count), extra, seed);
    std::vector<workload::JobSpec> out;
    while (auto job = source.next())
        out.push_back(std::move(*job));
    return out;
}

} // namespace growthjobs

TEST(GrowthAddsJobs, ATraceGainsCopiesBetweenItsOwnArrivals)
{
    const auto doubled = growthjobs::drain(1.0, 7);
    ASSERT_EQ(doubled.size(), 400u); // one copy of each job
    std::set<std::string> names;
    for (size_t i = 0; i < doubled.size(); ++i) {
        names.insert(doubled[i].name);
        if (i > 0) {
            EXPECT_LE(doubled[i - 1].arrivalSeconds, doubled[i].arrivalSeconds) << i;
        }
    }
    EXPECT_EQ(names.size(), doubled.size());
    EXPECT_EQ(doubled[1].name, "j0-growth-1");
    EXPECT_GE(doubled[1].arrivalSeconds, 0.0);
    EXPECT_LT(doubled[1].arrivalSeconds, 10.0); // before the next job: the span is the trace's
    EXPECT_LT(doubled.back().arrivalSeconds, 2000.0);

    const auto quarter = growthjobs::drain(0.25, 7, 2000);
    EXPECT_NEAR(double(quarter.size()), 2500.0, 100.0); // a quarter more, on average
    const auto again = growthjobs::drain(0.25, 7, 2000);
    ASSERT_EQ(again.size(), quarter.size()); // drawn from the seed
    for (size_t i = 0; i < again.size(); ++i)
        EXPECT_EQ(again[i].arrivalSeconds, quarter[i].arrivalSeconds);
    const auto other = growthjobs::drain(0.25, 8, 2000);
    bool same = other.size() == quarter.size();
    for (size_t i = 0; same && i < other.size(); ++i)
        same = other[i].arrivalSeconds == quarter[i].arrivalSeconds;
    EXPECT_FALSE(same); // another seed, other copies
}

TEST(GrowthAddsJobs, GeneratorsDrawMoreArrivalsAndTracesKeepTheirTimes)
{
    workload::WorkloadSpec generated;
    generated.source = workload::WorkloadSpec::Source::Manifests;
    generated.arrival.emplace();
    generated.arrival->process = workload::ArrivalSpec::Process::Poisson;
    generated.arrival->ratePerSecond = 2;
    generated.arrival->count = 1200;
    workload::WorkloadSpec trace;
    trace.source = workload::WorkloadSpec::Source::Trace;
    trace.trace.emplace();
    trace.trace->timeScale = 1.0;

    const auto jobs = sim::scaledWorkloads({ generated, trace }, 1.25, 1.0, true);
    EXPECT_EQ(jobs[0].arrival->ratePerSecond, 2.5);
    EXPECT_EQ(*jobs[0].arrival->count, 1500u); // more jobs, not the same ones sooner
    EXPECT_EQ(jobs[0].addedJobs, 0);
    EXPECT_EQ(jobs[1].trace->timeScale, 1.0);
    EXPECT_EQ(jobs[1].addedJobs, 0.25);

    const auto sooner = sim::scaledWorkloads({ generated, trace }, 1.25, 1.0);
    EXPECT_EQ(sooner[0].arrival->ratePerSecond, 2.5);
    EXPECT_EQ(*sooner[0].arrival->count, 1200u);
    EXPECT_EQ(sooner[1].trace->timeScale, 0.8);
    EXPECT_EQ(sooner[1].addedJobs, 0);
}

TEST(GrowthAddsJobs, IsChosenInTheStudy)
{
    const std::string base = "apiVersion: drasim.dev/v1alpha1\nkind: Study\nmetadata: {name: g}\nspec:\n"
                             "  scenario: s.yaml\n  candidates:\n    - {shape: dgx-h100, name: h100}\n"
                             "  serviceLevels:\n    - {metric: pending, max: 1h}\n";
    Diagnostics diags;
    auto plain = planner::parseStudy(base, "study.yaml", diags);
    ASSERT_TRUE(plain) << diags.formatAll();
    EXPECT_EQ(plain->growth, planner::Growth::Arrivals);
    auto jobs = planner::parseStudy(base + "  growth: jobs\n", "study.yaml", diags);
    ASSERT_TRUE(jobs) << diags.formatAll();
    EXPECT_EQ(jobs->growth, planner::Growth::Jobs);
    Diagnostics bad;
    EXPECT_FALSE(planner::parseStudy(base + "  growth: users\n", "study.yaml", bad));
    EXPECT_EQ(bad.formatAll(),
        "study.yaml:10:11: Study g: spec.growth: Unsupported value: \"users\": supported values: "
        "\"arrivals\", \"jobs\"\n");
}
